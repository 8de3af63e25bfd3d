import type { CurrentUserView } from '@crm/projections/domain';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiFetch } from '@/lib/api-client';
import { currentUserSchema } from '../types/current-user-schema';

export const currentUserQueryKey = ['user', 'current'] as const;

/**
 * The signed-in instance user, or null. Any failure means nobody is signed in; failures other
 * than 401 are logged only (spec-platform.md §7, §8).
 */
export async function getCurrentUser(signal?: AbortSignal): Promise<CurrentUserView | null> {
  try {
    return currentUserSchema.parse(await apiFetch('/api/user/current', { signal }));
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) console.error('User session check failed', error);
    return null;
  }
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => getCurrentUser(signal),
  });
}
