import { calendarSchema, type CalendarAnswer } from '@crm/projections/pipeline';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { calendarQueryKey } from '@/lib/api/resources';

/** The appointments overlapping the visible days [from, to) (dates in the shop's zone; the server resolves them). */
export async function getCalendar(instance: string, range: { from: string; to: string }, signal?: AbortSignal): Promise<CalendarAnswer> {
  const query = new URLSearchParams(range);
  return calendarSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/calendar?${query}`, { signal }));
}

export function calendarQueryOptions(instance: string, range: { from: string; to: string }) {
  return queryOptions({
    queryKey: [...calendarQueryKey(instance), range.from, range.to] as const,
    queryFn: ({ signal }) => getCalendar(instance, range, signal),
  });
}

/** The visible range's appointments; moving to the next range keeps the last one shown until it arrives. */
export function useCalendar(instance: string, range: { from: string; to: string }) {
  return useQuery({ ...calendarQueryOptions(instance, range), placeholderData: keepPreviousData });
}
