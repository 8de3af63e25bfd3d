import { crmInstanceViewSchema } from '@crm/projections/contract';
import type { CrmInstanceView } from '@crm/projections/platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { crmInstancesQueryKey } from './get-crm-instances';

export interface SetInstanceActiveInput {
  instanceId: string;
  isActive: boolean;
}

/** An inactive instance refuses sign-in; the server ends its sessions at once. */
export async function setInstanceActive({ instanceId, isActive }: SetInstanceActiveInput): Promise<CrmInstanceView> {
  return crmInstanceViewSchema.parse(
    await apiFetch(`/api/crm-instances/${encodeURIComponent(instanceId)}`, { method: 'PATCH', body: { isActive } }),
  );
}

export function useSetInstanceActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setInstanceActive,
    onSuccess: (updated) =>
      queryClient.setQueryData<CrmInstanceView[]>(crmInstancesQueryKey, (list) =>
        list?.map((instance) => (instance.id === updated.id ? updated : instance)),
      ),
  });
}
