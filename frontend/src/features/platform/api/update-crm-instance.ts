import { crmInstanceViewSchema, revisionETag, type UpdateInstanceInput } from '@crm/projections/contract';
import type { CrmInstanceView } from '@crm/projections/platform';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { crmInstancesQueryKey } from './get-crm-instances';
import { instanceHistoryQueryKey } from './get-instance-history';
import { instanceStatsQueryKey } from './get-instance-stats';

export const crmInstanceQueryKey = (instanceId: string) => [...crmInstancesQueryKey, instanceId] as const;

/** One instance with its revision: the edit dialog sends it back in If-Match. */
export async function getCrmInstance(instanceId: string, signal?: AbortSignal): Promise<CrmInstanceView> {
  return crmInstanceViewSchema.parse(await apiFetch(`/api/crm-instances/${encodeURIComponent(instanceId)}`, { signal }));
}

export function useCrmInstance(instanceId: string, enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: crmInstanceQueryKey(instanceId),
      queryFn: ({ signal }) => getCrmInstance(instanceId, signal),
      enabled,
      // The form starts from what the server has now, not from a cached copy.
      staleTime: 0,
    }),
  );
}

export interface UpdateCrmInstance {
  instanceId: string;
  /** The revision the form was loaded at: a change made meanwhile is a 409, not overwritten. */
  revision: number | undefined;
  changes: UpdateInstanceInput;
}

export async function updateCrmInstance({ instanceId, revision, changes }: UpdateCrmInstance): Promise<CrmInstanceView> {
  return crmInstanceViewSchema.parse(
    await apiFetch(`/api/crm-instances/${encodeURIComponent(instanceId)}`, {
      method: 'PUT',
      body: changes,
      ...(revision === undefined ? {} : { headers: { 'If-Match': revisionETag(revision) } }),
    }),
  );
}

export function useUpdateCrmInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCrmInstance,
    onSuccess: async (updated) => {
      queryClient.setQueryData<CrmInstanceView[]>(crmInstancesQueryKey, (list) =>
        list?.map((instance) => (instance.id === updated.id ? { ...updated, revision: undefined } : instance)),
      );
      queryClient.setQueryData(crmInstanceQueryKey(updated.id), updated);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: instanceHistoryQueryKey(updated.id) }),
        queryClient.invalidateQueries({ queryKey: instanceStatsQueryKey }),
      ]);
    },
  });
}
