import { dashboardStatsSchema, type DashboardStats } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** Under 'dashboard': the live updates refresh it when jobs, customers or the calendar change. */
export const dashboardStatsQueryKey = (quickStats: boolean) => ['dashboard', 'stats', { quickStats }] as const;

/**
 * The home's figures, counted by the server in the shop's time zone (null where a feature is
 * off); with `quickStats`, also the Maven home's jobs by stage, quotes and invoiced revenue.
 */
export async function getDashboardStats(quickStats: boolean, signal?: AbortSignal): Promise<DashboardStats> {
  return dashboardStatsSchema.parse(await apiFetch(`/api/dashboard${quickStats ? '?quickStats=true' : ''}`, { signal }));
}

export function useDashboardStats(quickStats: boolean) {
  return useQuery(
    queryOptions({
      queryKey: dashboardStatsQueryKey(quickStats),
      queryFn: ({ signal }) => getDashboardStats(quickStats, signal),
    }),
  );
}
