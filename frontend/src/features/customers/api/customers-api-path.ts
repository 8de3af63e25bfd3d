export { customersApiPath, customersQueryKey } from '@/lib/api/resources';
