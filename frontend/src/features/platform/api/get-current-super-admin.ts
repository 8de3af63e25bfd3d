import type { SuperAdminView } from '@crm/projections/platform';
import { queryOptions } from '@tanstack/react-query';
import { signedInAs } from '@/lib/session-calls';

export const currentSuperAdminQueryKey = ['super-admin', 'current'] as const;

/** The signed-in super admin, or null (GET /api/session: signed out is a 200, not an error). */
export function getCurrentSuperAdmin(signal?: AbortSignal): Promise<SuperAdminView | null> {
  return signedInAs('superAdmin', signal);
}

export function currentSuperAdminQueryOptions() {
  return queryOptions({
    queryKey: currentSuperAdminQueryKey,
    queryFn: ({ signal }) => getCurrentSuperAdmin(signal),
  });
}
