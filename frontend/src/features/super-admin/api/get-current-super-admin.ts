import type { SuperAdminView } from '@crm/projections/domain';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiFetch } from '@/lib/api-client';
import { superAdminViewSchema } from '../types/super-admin-schema';

export const currentSuperAdminQueryKey = ['super-admin', 'current'] as const;

/**
 * The signed-in super admin, or null. Any failure means nobody is signed in; failures other
 * than 401 are logged only (spec-platform.md §7, §8).
 */
export async function getCurrentSuperAdmin(signal?: AbortSignal): Promise<SuperAdminView | null> {
  try {
    return superAdminViewSchema.parse(await apiFetch('/api/super-admin/current', { signal }));
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) console.error('Super admin session check failed', error);
    return null;
  }
}

export function currentSuperAdminQueryOptions() {
  return queryOptions({
    queryKey: currentSuperAdminQueryKey,
    queryFn: ({ signal }) => getCurrentSuperAdmin(signal),
  });
}
