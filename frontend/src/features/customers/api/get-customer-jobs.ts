import { STAGES } from '@crm/projections/pipeline';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api-client';
import { customersQueryKey } from './customers-api-path';

/** The few job fields the customer page shows. */
const customerJobSchema = z.object({
  id: z.string(),
  jobNumber: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  part: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  makeModel: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  stage: z.enum(STAGES).or(z.string()),
  quote: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => (value == null ? '' : String(value))),
  appointment: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  createdAt: z.string(),
  customerId: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
});
export type CustomerJob = z.infer<typeof customerJobSchema>;

const jobPageSchema = z.object({ items: z.array(customerJobSchema), nextCursor: z.string().nullable(), total: z.number() });

/** At most this many jobs are looked through for one customer. */
export const CUSTOMER_JOBS_LIMIT = 200;

export const customerJobsQueryKey = (instance: string, id: string) => [...customersQueryKey(instance), 'jobs', id] as const;

/** The customer's pipeline jobs (the server filters by customerId), newest first, canceled ones included. */
export async function getCustomerJobs(instance: string, customer: { id: string }, signal?: AbortSignal): Promise<CustomerJob[]> {
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
