import { userListSchema } from '@crm/projections/contract';
import type { UserView } from '@crm/projections/identity';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** Not under crmInstancesQueryKey: re-reading the instance list leaves open user lists alone. */
export const instanceUsersQueryKey = (instanceId: string) => ['crm-instance-users', instanceId] as const;

export const instanceUsersPath = (instanceId: string) => `/api/crm-instances/${encodeURIComponent(instanceId)}/users`;

export async function getInstanceUsers(instanceId: string, signal?: AbortSignal): Promise<UserView[]> {
  return userListSchema.parse(await apiFetch(instanceUsersPath(instanceId), { signal }));
}

export function instanceUsersQueryOptions(instanceId: string) {
  return queryOptions({
    queryKey: instanceUsersQueryKey(instanceId),
    queryFn: ({ signal }) => getInstanceUsers(instanceId, signal),
  });
}

/** Super admin only: any instance's users, the reserved one included. */
export function useInstanceUsers(instanceId: string) {
  return useQuery(instanceUsersQueryOptions(instanceId));
}
