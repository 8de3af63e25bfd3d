import { userChoicesSchema, type UserChoice } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** The active users of the instance: the CSR and Tech choices, the audit log's user filter. */
export async function getUserChoices(instance: string, signal?: AbortSignal): Promise<UserChoice[]> {
  return userChoicesSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/users/choices`, { signal }));
}

export function userChoicesQueryOptions(instance: string) {
  return queryOptions({
    queryKey: ['users', instance, 'choices'],
    queryFn: ({ signal }) => getUserChoices(instance, signal),
    staleTime: 60_000,
  });
}

export function useUserChoices(instance: string) {
  return useQuery(userChoicesQueryOptions(instance));
}

/** How a user is named in the selects and saved in a job's CSR / Tech: the display name, else the username. */
export function userChoiceName(user: Pick<UserChoice, 'username' | 'displayName'>): string {
  return user.displayName.trim() || user.username;
}
