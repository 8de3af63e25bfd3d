import { type JobHistoryEntry, jobHistorySchema } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { jobQueryKey } from './get-job';
import { pipelineApiPath } from './pipeline-api-path';

/** Newest first; each row with its changed fields' old and new values. */
export async function getJobHistory(instance: string, jobId: string, signal?: AbortSignal): Promise<JobHistoryEntry[]> {
  return jobHistorySchema.parse(await apiFetch(pipelineApiPath(instance, jobId, 'history'), { signal }));
}

export function jobHistoryQueryOptions(instance: string, jobId: string) {
  return queryOptions({
    queryKey: [...jobQueryKey(instance, jobId), 'history'],
    queryFn: ({ signal }) => getJobHistory(instance, jobId, signal),
  });
}

export function useJobHistory(instance: string, jobId: string) {
  return useQuery(jobHistoryQueryOptions(instance, jobId));
}
