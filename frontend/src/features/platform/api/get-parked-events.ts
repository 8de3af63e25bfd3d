import { parkedEventListSchema, type ParkedEventView } from '@crm/projections/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** Whose parked events a list shows: every shop's (the provider) or the signed-in admin's own shop's. */
export type ParkedEventsScope = 'provider' | 'shop';

const PARKED_EVENTS_URL: Record<ParkedEventsScope, string> = {
  provider: '/api/crm-instances/parked-events',
  shop: '/api/admin/parked-events',
};

/** Parked events, newest first: every shop's (super admin) or the signed-in admin's shop's. */
export async function getParkedEvents(scope: ParkedEventsScope, signal?: AbortSignal): Promise<ParkedEventView[]> {
  return parkedEventListSchema.parse(await apiFetch(PARKED_EVENTS_URL[scope], { signal }));
}

export function useParkedEvents(scope: ParkedEventsScope = 'provider') {
  return useQuery({ queryKey: ['parked-events', scope], queryFn: ({ signal }) => getParkedEvents(scope, signal) });
}
