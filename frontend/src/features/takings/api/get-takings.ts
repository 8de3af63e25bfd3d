import { takingsReportSchema, type TakingsReport } from '@crm/projections/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { pipelineQueryKey } from '@/lib/api/resources';

/** Days in the shop's time zone, both included (YYYY-MM-DD). */
export interface TakingsPeriod {
  from: string;
  to: string;
}

const reportPath = (instance: string, file = 'takings') => `/api/${encodeURIComponent(instance)}/reports/${file}`;

/** The CSV export of the same report (a download link). */
export function takingsCsvUrl(instance: string, { from, to }: TakingsPeriod): string {
  return `${reportPath(instance, 'takings.csv')}?${new URLSearchParams({ from, to })}`;
}

export async function getTakings(instance: string, { from, to }: TakingsPeriod, signal?: AbortSignal): Promise<TakingsReport> {
  return takingsReportSchema.parse(await apiFetch(`${reportPath(instance)}?${new URLSearchParams({ from, to })}`, { signal }));
}

export function takingsQueryOptions(instance: string, period: TakingsPeriod) {
  return queryOptions({
    // Under 'pipeline': a payment or an invoice anywhere (live updates) reads it again.
    queryKey: [...pipelineQueryKey(instance), 'takings', period.from, period.to],
    queryFn: ({ signal }) => getTakings(instance, period, signal),
  });
}

export function useTakings(instance: string, period: TakingsPeriod) {
  return useQuery({ ...takingsQueryOptions(instance, period), placeholderData: keepPreviousData });
}
