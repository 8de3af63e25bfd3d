export { pipelineApiPath, pipelineQueryKey } from '@/lib/api/resources';
