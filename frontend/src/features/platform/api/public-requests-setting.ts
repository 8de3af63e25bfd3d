import { publicRequestsSettingSchema, type PublicRequestsSetting } from '@crm/projections/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export const publicRequestsSettingQueryKey = ['instance-settings', 'public-requests'] as const;

/** Whether the signed-in admin's shop takes service requests on its public page. */
export async function getPublicRequestsSetting(signal?: AbortSignal): Promise<PublicRequestsSetting> {
  return publicRequestsSettingSchema.parse(await apiFetch('/api/admin/public-requests', { signal }));
}

export function usePublicRequestsSetting(enabled: boolean) {
  return useQuery({ queryKey: publicRequestsSettingQueryKey, queryFn: ({ signal }) => getPublicRequestsSetting(signal), enabled });
}

export async function setPublicRequests(enabled: boolean): Promise<PublicRequestsSetting> {
  return publicRequestsSettingSchema.parse(await apiFetch('/api/admin/public-requests', { method: 'PUT', body: { enabled } }));
}

export function useSetPublicRequests() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPublicRequests,
    onSuccess: (setting) => queryClient.setQueryData(publicRequestsSettingQueryKey, setting),
  });
}
