import type { CurrentUserView } from '@crm/projections/identity';
import { queryOptions } from '@tanstack/react-query';
import { signedInAs } from '@/lib/session-calls';

export const currentUserQueryKey = ['user', 'current'] as const;

/** The signed-in instance user, or null (GET /api/session: signed out is a 200, not an error). */
export function getCurrentUser(signal?: AbortSignal): Promise<CurrentUserView | null> {
  return signedInAs('user', signal);
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => getCurrentUser(signal),
  });
}
