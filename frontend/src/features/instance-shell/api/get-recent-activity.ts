import { recentActivitySchema, type AuditEntry } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export const recentActivityQueryKey = ['activity', 'recent'] as const;

/** The latest events of the signed-in user's instance (the server scopes it by the session). */
export async function getRecentActivity(signal?: AbortSignal): Promise<AuditEntry[]> {
  return recentActivitySchema.parse(await apiFetch('/api/activity/recent', { signal })).items;
}

export function recentActivityQueryOptions() {
  return queryOptions({
    queryKey: recentActivityQueryKey,
    queryFn: ({ signal }) => getRecentActivity(signal),
  });
}

export function useRecentActivity() {
  return useQuery(recentActivityQueryOptions());
}
