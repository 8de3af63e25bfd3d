import { customerHistorySchema } from '@crm/projections/contract';
import type { CustomerHistoryEntry } from '@crm/projections/customers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { customersApiPath, customersQueryKey } from './customers-api-path';

export const customerHistoryQueryKey = (instance: string, id: string) => [...customersQueryKey(instance), 'history', id] as const;

/** Every change of a customer, newest first, each field with its old and new value. */
export async function getCustomerHistory(instance: string, id: string, signal?: AbortSignal): Promise<CustomerHistoryEntry[]> {
  return customerHistorySchema.parse(await apiFetch(customersApiPath(instance, id, 'history'), { signal }));
}

export function customerHistoryQueryOptions(instance: string, id: string) {
  return queryOptions({
    queryKey: customerHistoryQueryKey(instance, id),
    queryFn: ({ signal }) => getCustomerHistory(instance, id, signal),
  });
}

export function useCustomerHistory(instance: string, id: string) {
  return useQuery(customerHistoryQueryOptions(instance, id));
}
