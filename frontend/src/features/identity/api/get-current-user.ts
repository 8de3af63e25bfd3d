import type { CurrentUserView } from '@crm/projections/identity';
import { queryOptions } from '@tanstack/react-query';
import { isAbort, reportFailure } from '@/lib/report-failure';
import { fetchSession } from '@/lib/session-check';

export const currentUserQueryKey = ['user', 'current'] as const;

/**
 * The signed-in instance user, or null (GET /api/session: signed out is a 200, not an error).
 * Any failure means nobody is signed in; only faults are logged. A
 * check called off (the query removed at sign-in) is left to the query, not taken for an answer.
 */
export async function getCurrentUser(signal?: AbortSignal): Promise<CurrentUserView | null> {
  try {
    const { user } = await fetchSession(signal);
    return user;
  } catch (error) {
    if (isAbort(error)) throw error;
    reportFailure('User session check failed', error);
    return null;
  }
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => getCurrentUser(signal),
  });
}
