import { customerMergedSchema, vehicleListSchema } from '@crm/projections/contract';
import type { CustomerMergedView } from '@crm/projections/customers';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { pipelineQueryKey, vehiclesQueryKey } from '@/lib/api/resources';
import { customersApiPath, customersQueryKey } from './customers-api-path';

/** Merges customer `fromId` into `intoId` (admins): its jobs and vehicles move to `intoId`. */
export async function mergeCustomer(instance: string, fromId: string, intoId: string): Promise<CustomerMergedView> {
  return customerMergedSchema.parse(await apiFetch(customersApiPath(instance, fromId, 'merge'), { method: 'POST', body: { intoId } }));
}

/** Undoes the merge that took customer `fromId` away: it is back, with what is still on the other customer. */
export async function undoCustomerMerge(instance: string, fromId: string): Promise<CustomerMergedView> {
  return customerMergedSchema.parse(await apiFetch(customersApiPath(instance, fromId, 'merge'), { method: 'DELETE' }));
}

/**
 * A merge or its undo changes two customers, their jobs and vehicles: every such read is
 * refreshed, without waiting: the refreshed customer (now gone, or back) swaps the page the
 * button is on, and the caller's own success handler (toast, navigation) must still run.
 */
function useRefreshAfterMerge(instance: string) {
  const queryClient = useQueryClient();
  return () =>
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: customersQueryKey(instance) }),
      queryClient.invalidateQueries({ queryKey: pipelineQueryKey(instance) }),
      queryClient.invalidateQueries({ queryKey: vehiclesQueryKey(instance) }),
    ]);
}

export function useMergeCustomer(instance: string) {
  const refresh = useRefreshAfterMerge(instance);
  return useMutation({
    mutationFn: ({ fromId, intoId }: { fromId: string; intoId: string }) => mergeCustomer(instance, fromId, intoId),
    onSuccess: refresh,
  });
}

export function useUndoCustomerMerge(instance: string) {
  const refresh = useRefreshAfterMerge(instance);
  return useMutation({ mutationFn: (fromId: string) => undoCustomerMerge(instance, fromId), onSuccess: refresh });
}

/** How many vehicles the customer has (what a merge would move). */
export function useCustomerVehicleCount(instance: string, customerId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...vehiclesQueryKey(instance), 'customer', customerId],
    queryFn: async ({ signal }) =>
      vehicleListSchema.parse(await apiFetch(customersApiPath(instance, customerId, 'vehicles'), { signal })).items,
    select: (items) => items.length,
    enabled,
  });
}
