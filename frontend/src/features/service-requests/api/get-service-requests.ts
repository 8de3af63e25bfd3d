import { serviceRequestPageSchema } from '@crm/projections/contract';
import { SERVICE_REQUEST_PAGE_SIZE, type ServiceRequestPage } from '@crm/projections/service-requests';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { serviceRequestsApiPath, serviceRequestsQueryKey } from './service-requests-api-path';

export interface ServiceRequestListParams {
  /** Server-side search over name, email, vehicle type, service type and notes. */
  q: string;
  /** 'active' (not archived) unless said. */
  status?: 'active' | 'archived';
  limit?: number;
}

export const serviceRequestListQueryKey = (instance: string) => [...serviceRequestsQueryKey(instance), 'list'] as const;

export async function getServiceRequests(
  instance: string,
  { q, status = 'active', limit = SERVICE_REQUEST_PAGE_SIZE, cursor }: ServiceRequestListParams & { cursor?: string | null },
  signal?: AbortSignal,
): Promise<ServiceRequestPage> {
  const params = new URLSearchParams({ limit: String(limit), status });
  if (q.trim()) params.set('q', q.trim());
  if (cursor) params.set('cursor', cursor);
  return serviceRequestPageSchema.parse(await apiFetch(`${serviceRequestsApiPath(instance)}?${params}`, { signal }));
}

/** Newest first, one page at a time: nothing loads the whole table. */
export function useServiceRequests(instance: string, params: ServiceRequestListParams) {
  return useInfiniteQuery({
    ...infiniteQueryOptions({
      queryKey: [...serviceRequestListQueryKey(instance), { q: params.q.trim(), status: params.status ?? 'active', limit: params.limit }],
      queryFn: ({ pageParam, signal }) => getServiceRequests(instance, { ...params, cursor: pageParam }, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (lastPage) => lastPage.nextCursor,
    }),
    // While a new search loads, the previous results stay on screen.
    placeholderData: keepPreviousData,
  });
}
