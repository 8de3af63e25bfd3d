import {
  vehicleJobsSchema,
  vehicleListSchema,
  vehicleViewSchema,
  type VehicleChangesInput,
  type VehicleInput,
  type VehicleView,
} from '@crm/projections/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';
import { vehiclesQueryKey } from '@/lib/api/resources';

const vehiclesKey = vehiclesQueryKey;

export function useVehicle(instance: string, id: string) {
  return useQuery({
    queryKey: [...vehiclesKey(instance), 'detail', id],
    queryFn: async ({ signal }) =>
      vehicleViewSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/vehicles/${encodeURIComponent(id)}`, { signal })),
  });
}

export function useVehicleHistory(instance: string, id: string) {
  return useQuery({
    queryKey: [...vehiclesKey(instance), 'history', id],
    queryFn: async ({ signal }) =>
      vehicleJobsSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/vehicles/${encodeURIComponent(id)}/jobs`, { signal }))
        .items,
  });
}

export function useCustomerVehicleList(instance: string, customerId: string) {
  return useQuery({
    queryKey: [...vehiclesKey(instance), 'customer', customerId],
    queryFn: async ({ signal }) =>
      vehicleListSchema.parse(
        await apiFetch(`/api/${encodeURIComponent(instance)}/customers/${encodeURIComponent(customerId)}/vehicles`, { signal }),
      ).items,
  });
}

export function useSaveVehicle(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      variables:
        | { kind: 'create'; customerId: string; input: VehicleInput }
        | { kind: 'update'; id: string; changes: VehicleChangesInput; revision?: number },
    ): Promise<VehicleView> => {
      const answer =
        variables.kind === 'create'
          ? await apiFetch(`/api/${encodeURIComponent(instance)}/customers/${encodeURIComponent(variables.customerId)}/vehicles`, {
              method: 'POST',
              body: variables.input,
            })
          : await apiFetch(`/api/${encodeURIComponent(instance)}/vehicles/${encodeURIComponent(variables.id)}`, {
              method: 'PUT',
              body: variables.changes,
              headers: ifMatch(variables.revision),
            });
      return vehicleViewSchema.parse(answer);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vehiclesKey(instance) }),
  });
}
