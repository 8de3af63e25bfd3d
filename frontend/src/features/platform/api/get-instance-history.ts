import { instanceHistorySchema, type InstanceHistoryEntry } from '@crm/projections/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export const instanceHistoryQueryKey = (instanceId: string) => ['crm-instances', instanceId, 'history'] as const;

/** The instance's changes, newest first (super admin). */
export async function getInstanceHistory(instanceId: string, signal?: AbortSignal): Promise<InstanceHistoryEntry[]> {
  return instanceHistorySchema.parse(await apiFetch(`/api/crm-instances/${encodeURIComponent(instanceId)}/history`, { signal }));
}

export function useInstanceHistory(instanceId: string, enabled = true) {
  return useQuery({
    queryKey: instanceHistoryQueryKey(instanceId),
    queryFn: ({ signal }) => getInstanceHistory(instanceId, signal),
    enabled,
  });
}
