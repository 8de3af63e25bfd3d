import type { SuperAdminView } from '@crm/projections/platform';
import { queryOptions } from '@tanstack/react-query';
import { isAbort, reportFailure } from '@/lib/report-failure';
import { fetchSession } from '@/lib/session-check';

export const currentSuperAdminQueryKey = ['super-admin', 'current'] as const;

/**
 * The signed-in super admin, or null (GET /api/session: signed out is a 200, not an error).
 * Any failure means nobody is signed in; only faults are logged.
 */
export async function getCurrentSuperAdmin(signal?: AbortSignal): Promise<SuperAdminView | null> {
  try {
    const { superAdmin } = await fetchSession(signal);
    return superAdmin;
  } catch (error) {
    if (isAbort(error)) throw error;
    reportFailure('Super admin session check failed', error);
    return null;
  }
}

export function currentSuperAdminQueryOptions() {
  return queryOptions({
    queryKey: currentSuperAdminQueryKey,
    queryFn: ({ signal }) => getCurrentSuperAdmin(signal),
  });
}
