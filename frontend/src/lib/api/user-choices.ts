import { userChoicesSchema, type UserChoice } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { usersQueryKey } from './resources';

/** The active users of the instance: the CSR and Tech choices, the calendar's lanes, the audit log's user filter. */
export async function getUserChoices(instance: string, signal?: AbortSignal): Promise<UserChoice[]> {
  return userChoicesSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/users/choices`, { signal }));
}

export function userChoicesQueryOptions(instance: string) {
  return queryOptions({
    queryKey: [...usersQueryKey(instance), 'choices'],
    queryFn: ({ signal }) => getUserChoices(instance, signal),
    staleTime: 60_000,
  });
}

export function useUserChoices(instance: string) {
  return useQuery(userChoicesQueryOptions(instance));
}

/** The users by the name jobs record (the Technician choices and the day view's lanes); shares the cache with useUserChoices. */
export function useUserChoiceNames(instance: string) {
  return useQuery({ ...userChoicesQueryOptions(instance), select: (users) => users.map(userChoiceName) });
}

/** How a user is named in the selects and saved in a job's CSR / Tech: the display name, else the username. */
export function userChoiceName(user: Pick<UserChoice, 'username' | 'displayName'>): string {
  return user.displayName.trim() || user.username;
}
