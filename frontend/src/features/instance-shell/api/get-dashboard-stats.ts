import { dashboardStatsSchema, type DashboardStats } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** Under 'dashboard': the live updates refresh it when jobs, customers or the calendar change. */
export const dashboardStatsQueryKey = ['dashboard', 'stats'] as const;

/** The home's figures, counted by the server in the shop's time zone (null where a feature is off). */
export async function getDashboardStats(signal?: AbortSignal): Promise<DashboardStats> {
  return dashboardStatsSchema.parse(await apiFetch('/api/dashboard', { signal }));
}

export function useDashboardStats() {
  return useQuery(
    queryOptions({
      queryKey: dashboardStatsQueryKey,
      queryFn: ({ signal }) => getDashboardStats(signal),
    }),
  );
}
