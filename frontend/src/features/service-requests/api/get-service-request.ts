import { serviceRequestHistorySchema, serviceRequestViewSchema } from '@crm/projections/contract';
import type { ServiceRequestHistoryEntry, ServiceRequestView } from '@crm/projections/service-requests';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { serviceRequestsApiPath, serviceRequestsQueryKey } from './service-requests-api-path';

export const serviceRequestQueryKey = (instance: string, id: string) => [...serviceRequestsQueryKey(instance), 'one', id] as const;
export const serviceRequestHistoryQueryKey = (instance: string, id: string) =>
  [...serviceRequestsQueryKey(instance), 'history', id] as const;

/** One request; its `revision` is the ETag an edit sends back as If-Match. */
export async function getServiceRequest(instance: string, id: string, signal?: AbortSignal): Promise<ServiceRequestView> {
  return serviceRequestViewSchema.parse(await apiFetch(serviceRequestsApiPath(instance, id), { signal }));
}

export function useServiceRequest(instance: string, id: string) {
  return useQuery({ queryKey: serviceRequestQueryKey(instance, id), queryFn: ({ signal }) => getServiceRequest(instance, id, signal) });
}

export async function getServiceRequestHistory(instance: string, id: string, signal?: AbortSignal): Promise<ServiceRequestHistoryEntry[]> {
  return serviceRequestHistorySchema.parse(await apiFetch(serviceRequestsApiPath(instance, id, 'history'), { signal }));
}

export function useServiceRequestHistory(instance: string, id: string, enabled: boolean) {
  return useQuery({
    queryKey: serviceRequestHistoryQueryKey(instance, id),
    queryFn: ({ signal }) => getServiceRequestHistory(instance, id, signal),
    enabled,
  });
}
