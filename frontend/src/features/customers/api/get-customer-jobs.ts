import { STAGES } from '@crm/projections/domain';
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

/**
 * The customer's pipeline jobs, newest first, canceled ones included. The pipeline list
 * has no customer filter (yet): it is searched by the customer's name (or phone) and only
 * the jobs linked to this customer are kept. `customerId` is sent too, for when the
 * server learns to filter by it.
 */
export async function getCustomerJobs(
  instance: string,
  customer: { id: string; name: string; phone: string },
  signal?: AbortSignal,
): Promise<CustomerJob[]> {
  const search = customer.name.trim() || customer.phone.replace(/\D/g, '');
  const params = new URLSearchParams({ customerId: customer.id, sort: 'newest', canceled: 'include', limit: String(CUSTOMER_JOBS_LIMIT) });
  if (search) params.set('q', search);
  const page = jobPageSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/pipeline?${params}`, { signal }));
  return page.items.filter((job) => job.customerId === customer.id);
}

export function customerJobsQueryOptions(instance: string, customer: { id: string; name: string; phone: string }) {
  return queryOptions({
    queryKey: [...customerJobsQueryKey(instance, customer.id), { name: customer.name, phone: customer.phone }],
    queryFn: ({ signal }) => getCustomerJobs(instance, customer, signal),
  });
}

export function useCustomerJobs(instance: string, customer: { id: string; name: string; phone: string } | undefined) {
  return useQuery({
    ...customerJobsQueryOptions(instance, customer ?? { id: '', name: '', phone: '' }),
    enabled: customer !== undefined,
  });
}
