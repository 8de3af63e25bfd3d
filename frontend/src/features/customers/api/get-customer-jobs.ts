import { jobPageSchema, type JobView } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { customersQueryKey } from './customers-api-path';

/** At most this many jobs are looked through for one customer. */
export const CUSTOMER_JOBS_LIMIT = 200;

export const customerJobsQueryKey = (instance: string, id: string) => [...customersQueryKey(instance), 'jobs', id] as const;

/** The customer's pipeline jobs (the server filters by customerId), newest first, canceled ones included. */
export async function getCustomerJobs(instance: string, customer: { id: string }, signal?: AbortSignal): Promise<JobView[]> {
  const params = new URLSearchParams({ customerId: customer.id, sort: 'newest', canceled: 'include', limit: String(CUSTOMER_JOBS_LIMIT) });
  const page = jobPageSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/pipeline?${params}`, { signal }));
  return page.items;
}

export function customerJobsQueryOptions(instance: string, customer: { id: string }) {
  return queryOptions({
    queryKey: customerJobsQueryKey(instance, customer.id),
    queryFn: ({ signal }) => getCustomerJobs(instance, customer, signal),
  });
}

export function useCustomerJobs(instance: string, customer: { id: string } | undefined) {
  return useQuery({
    ...customerJobsQueryOptions(instance, customer ?? { id: '' }),
    enabled: customer !== undefined,
  });
}
