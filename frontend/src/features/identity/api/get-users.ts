import { userListSchema } from '@crm/projections/contract';
import type { UserView } from '@crm/projections/identity';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export const usersQueryKey = ['admin-users'] as const;

/** The signed-in admin's instance's users (the server scopes the list by the session). */
export async function getUsers(signal?: AbortSignal): Promise<UserView[]> {
  return userListSchema.parse(await apiFetch('/api/admin/users', { signal }));
}

export function usersQueryOptions() {
  return queryOptions({
    queryKey: usersQueryKey,
    queryFn: ({ signal }) => getUsers(signal),
  });
}

/** Admins only: call it behind the admin guard. */
export function useUsers() {
  return useQuery(usersQueryOptions());
}
