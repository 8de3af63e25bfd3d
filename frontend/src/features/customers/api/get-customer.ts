import { customerRecordSchema } from '@crm/projections/contract';
import type { CustomerRecord, CustomerView } from '@crm/projections/customers';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { customersApiPath, customersQueryKey } from './customers-api-path';

export const customerQueryKey = (instance: string, id: string) => [...customersQueryKey(instance), 'detail', id] as const;

/**
 * One customer with the phone whole and its consent to e-mail and texts. With `asOf` (an ISO
 * time), the customer as it was right then, folded from its events (no consent fields).
 */
export async function getCustomer(instance: string, id: string, asOf?: string, signal?: AbortSignal): Promise<CustomerRecord> {
  const query = asOf ? `?${new URLSearchParams({ asOf })}` : '';
  return customerRecordSchema.parse(await apiFetch(`${customersApiPath(instance, id)}${query}`, { signal }));
}

/**
 * A save's answer into the record's cache. The customer commands answer the customer without
 * its consent (a record of its own), so the consent the record showed is kept.
 */
export function keepSavedCustomer(queryClient: QueryClient, instance: string, saved: CustomerView): void {
  queryClient.setQueryData<CustomerRecord>(customerQueryKey(instance, saved.id), (old) =>
    old ? { ...saved, emailConsent: old.emailConsent, smsConsent: old.smsConsent } : saved,
  );
}

export function customerQueryOptions(instance: string, id: string) {
  return queryOptions({
    queryKey: customerQueryKey(instance, id),
    queryFn: ({ signal }) => getCustomer(instance, id, undefined, signal),
  });
}

export function useCustomer(instance: string, id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...customerQueryOptions(instance, id), enabled });
}

/** A past moment never changes: kept as long as the screen needs it. */
export function customerAsOfQueryOptions(instance: string, id: string, asOf: string) {
  return queryOptions({
    queryKey: [...customerQueryKey(instance, id), { asOf }],
    queryFn: ({ signal }) => getCustomer(instance, id, asOf, signal),
    staleTime: Infinity,
  });
}

export function useCustomerAsOf(instance: string, id: string, asOf: string | null) {
  return useQuery({ ...customerAsOfQueryOptions(instance, id, asOf ?? ''), enabled: asOf !== null });
}
