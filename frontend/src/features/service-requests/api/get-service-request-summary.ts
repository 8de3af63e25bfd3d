import { serviceRequestSummarySchema } from '@crm/projections/contract';
import type { ServiceRequestSummary } from '@crm/projections/service-requests';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { serviceRequestsApiPath, serviceRequestsQueryKey } from './service-requests-api-path';

export const serviceRequestSummaryQueryKey = (instance: string) => [...serviceRequestsQueryKey(instance), 'summary'] as const;

/** Open requests and new public ones (the navigation badge). */
export async function getServiceRequestSummary(instance: string, signal?: AbortSignal): Promise<ServiceRequestSummary> {
  return serviceRequestSummarySchema.parse(await apiFetch(serviceRequestsApiPath(instance, 'summary'), { signal }));
}

/** How often the badge asks again while a screen stays open: a customer may send a request any time. */
const SUMMARY_REFRESH_MS = 60_000;

/** Off (no request) when the instance has service requests off or the user may not read them. */
export function useServiceRequestSummary(instance: string, enabled: boolean) {
  return useQuery({
    queryKey: serviceRequestSummaryQueryKey(instance),
    queryFn: ({ signal }) => getServiceRequestSummary(instance, signal),
    enabled,
    refetchInterval: SUMMARY_REFRESH_MS,
    // A failed count only leaves the badge off; the screens report their own errors.
    retry: false,
  });
}
