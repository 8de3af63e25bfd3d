import { parkedEventListSchema, type ParkedEventView } from '@crm/projections/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** Every shop's parked events, newest first (super admin). */
export async function getParkedEvents(signal?: AbortSignal): Promise<ParkedEventView[]> {
  return parkedEventListSchema.parse(await apiFetch('/api/crm-instances/parked-events', { signal }));
}

export function useParkedEvents() {
  return useQuery({ queryKey: ['crm-instances', 'parked-events'], queryFn: ({ signal }) => getParkedEvents(signal) });
}
