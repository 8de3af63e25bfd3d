import { vehicleListSchema, vehicleViewSchema, type VehicleInput, type VehicleView } from '@crm/projections/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

const path = (instance: string, customerId: string) =>
  `/api/${encodeURIComponent(instance)}/customers/${encodeURIComponent(customerId)}/vehicles`;

export const customerVehiclesQueryKey = (instance: string, customerId: string) => ['vehicles', instance, 'customer', customerId] as const;

/** The vehicles the job dialog offers: the linked customer's. */
export function useCustomerVehicles(instance: string, customerId: string | null) {
  return useQuery({
    queryKey: customerVehiclesQueryKey(instance, customerId ?? ''),
    queryFn: async ({ signal }) => vehicleListSchema.parse(await apiFetch(path(instance, customerId ?? ''), { signal })).items,
    enabled: customerId !== null,
  });
}

/** A vehicle added from the job dialog. */
export function useAddCustomerVehicle(instance: string, customerId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: VehicleInput): Promise<VehicleView> =>
      vehicleViewSchema.parse(await apiFetch(path(instance, customerId ?? ''), { method: 'POST', body: input })),
    onSuccess: (vehicle) => {
      // Listed at once (the dialog chooses it right away), then read again.
      queryClient.setQueryData<VehicleView[]>(customerVehiclesQueryKey(instance, vehicle.customerId), (list) => [vehicle, ...(list ?? [])]);
      return queryClient.invalidateQueries({ queryKey: ['vehicles', instance] });
    },
  });
}
