import { insightsSchema, type Insights } from '@crm/projections/insights';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** The period asked for: days of the shop's calendar (inclusive), and N of "open quotes older than N days". */
export interface InsightsPeriod {
  from: string;
  to: string;
  staleDays: number;
}

export function insightsApiPath(instance: string, period: InsightsPeriod): string {
  const params = new URLSearchParams({ from: period.from, to: period.to, staleDays: String(period.staleDays) });
  return `/api/${encodeURIComponent(instance)}/insights?${params.toString()}`;
}

export async function getInsights(instance: string, period: InsightsPeriod, signal?: AbortSignal): Promise<Insights> {
  return insightsSchema.parse(await apiFetch(insightsApiPath(instance, period), { signal }));
}

export function insightsQueryOptions(instance: string, period: InsightsPeriod) {
  return queryOptions({
    queryKey: ['insights', instance, period],
    queryFn: ({ signal }) => getInsights(instance, period, signal),
    // While another period loads, the last figures stay (no flash of empty charts).
    placeholderData: keepPreviousData,
  });
}

export function useInsights(instance: string, period: InsightsPeriod) {
  return useQuery(insightsQueryOptions(instance, period));
}
