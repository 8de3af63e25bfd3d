import { appointmentListSchema, customerPageSchema, jobPageSchema } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** Days ahead the calendar card counts appointments for. */
export const UPCOMING_DAYS = 7;

export interface AreaCounts {
  customers: number | null;
  openJobs: number | null;
  upcomingAppointments: number | null;
}

/** One-row pages give the totals; nothing loads a whole list for a count. */
export async function getAreaCounts(
  enabled: { customers: boolean; pipeline: boolean; calendar: boolean },
  now: Date,
  signal?: AbortSignal,
): Promise<AreaCounts> {
  const to = new Date(now.getTime() + UPCOMING_DAYS * 24 * 60 * 60 * 1000);
  const [customers, openJobs, upcoming] = await Promise.all([
    enabled.customers ? apiFetch('/api/customers?limit=1', { signal }).then((body) => customerPageSchema.parse(body).total) : null,
    enabled.pipeline ? apiFetch('/api/user-info?limit=1', { signal }).then((body) => jobPageSchema.parse(body).total) : null,
    enabled.calendar
      ? apiFetch(`/api/calendar/appointments?from=${encodeURIComponent(now.toISOString())}&to=${encodeURIComponent(to.toISOString())}`, {
          signal,
        }).then((body) => appointmentListSchema.parse(body).items.length)
      : null,
  ]);
  return { customers, openJobs, upcomingAppointments: upcoming };
}

export function useAreaCounts(enabled: { customers: boolean; pipeline: boolean; calendar: boolean }) {
  return useQuery(
    queryOptions({
      queryKey: ['dashboard', 'counts', enabled] as const,
      queryFn: ({ signal }) => getAreaCounts(enabled, new Date(), signal),
    }),
  );
}
