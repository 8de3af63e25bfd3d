import { customerPageSchema } from '@crm/projections/contract';
import { CUSTOMER_PAGE_SIZE, type CustomerPage } from '@crm/projections/customers';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { customersApiPath, customersQueryKey } from './customers-api-path';

export interface CustomersListParams {
  /** Server-side search over name, phone (digits too), email, address and vehicles. */
  q: string;
  limit?: number;
}

export const customersListQueryKey = (instance: string) => [...customersQueryKey(instance), 'list'] as const;

export async function getCustomers(
  instance: string,
  { q, limit = CUSTOMER_PAGE_SIZE, cursor }: CustomersListParams & { cursor?: string | null },
  signal?: AbortSignal,
): Promise<CustomerPage> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (q.trim()) params.set('q', q.trim());
  if (cursor) params.set('cursor', cursor);
  return customerPageSchema.parse(await apiFetch(`${customersApiPath(instance)}?${params}`, { signal }));
}

/** Newest first, one page at a time: nothing loads the whole table. */
export function customersQueryOptions(instance: string, params: CustomersListParams) {
  return infiniteQueryOptions({
    queryKey: [...customersListQueryKey(instance), { q: params.q.trim(), limit: params.limit ?? CUSTOMER_PAGE_SIZE }],
    queryFn: ({ pageParam, signal }) => getCustomers(instance, { ...params, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

export function useCustomers(instance: string, params: CustomersListParams) {
  // While a new search loads, the previous results stay on screen.
  return useInfiniteQuery({ ...customersQueryOptions(instance, params), placeholderData: keepPreviousData });
}
