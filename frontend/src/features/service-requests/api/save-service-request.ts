import { serviceRequestConversionSchema, serviceRequestViewSchema } from '@crm/projections/contract';
import type { JobChangesInput } from '@crm/projections/pipeline';
import type {
  ServiceRequestChangesInput,
  ServiceRequestConversion,
  ServiceRequestInput,
  ServiceRequestView,
} from '@crm/projections/service-requests';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { conflictCurrent, ifMatch } from '@/lib/concurrency';
import { serviceRequestHistoryQueryKey, serviceRequestQueryKey } from './get-service-request';
import { serviceRequestsApiPath, serviceRequestsQueryKey } from './service-requests-api-path';

/** A saved request is the answer (read-your-writes): keep it, and let lists, history and counts read again. */
function remember(queryClient: QueryClient, instance: string, saved: ServiceRequestView) {
  queryClient.setQueryData(serviceRequestQueryKey(instance, saved.id), saved);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [...serviceRequestsQueryKey(instance), 'list'] }),
    queryClient.invalidateQueries({ queryKey: [...serviceRequestsQueryKey(instance), 'summary'] }),
    queryClient.invalidateQueries({ queryKey: serviceRequestHistoryQueryKey(instance, saved.id) }),
  ]);
}

export async function createServiceRequest(instance: string, input: ServiceRequestInput): Promise<ServiceRequestView> {
  return serviceRequestViewSchema.parse(await apiFetch(serviceRequestsApiPath(instance), { method: 'POST', body: input }));
}

export function useCreateServiceRequest(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ServiceRequestInput) => createServiceRequest(instance, input),
    onSuccess: (saved) => remember(queryClient, instance, saved),
  });
}

export interface UpdateServiceRequestVariables {
  id: string;
  /** Only the fields that changed. */
  changes: ServiceRequestChangesInput;
  /** The revision of the copy being edited (If-Match): a save over someone else's change is a 409. */
  revision: number;
}

export async function updateServiceRequest(instance: string, { id, changes, revision }: UpdateServiceRequestVariables) {
  return serviceRequestViewSchema.parse(
    await apiFetch(serviceRequestsApiPath(instance, id), { method: 'PUT', body: changes, headers: ifMatch(revision) }),
  );
}

/** A 409 on save carries the request as it is now; null for any other error. */
export function conflictingServiceRequest(error: unknown): ServiceRequestView | null {
  return conflictCurrent(error, serviceRequestViewSchema);
}

export function useUpdateServiceRequest(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: UpdateServiceRequestVariables) => updateServiceRequest(instance, variables),
    onSuccess: (saved) => remember(queryClient, instance, saved),
  });
}

export function useArchiveServiceRequest(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, revision }: { id: string; revision: number }) =>
      serviceRequestViewSchema.parse(
        await apiFetch(serviceRequestsApiPath(instance, id, 'archive'), { method: 'POST', body: {}, headers: ifMatch(revision) }),
      ),
    onSuccess: (saved) => remember(queryClient, instance, saved),
  });
}

/**
 * Creates the request's job from the entry dialog's fields and links both (one call; the
 * server answers with the job it already made when the request was converted before).
 */
export async function convertServiceRequest(instance: string, id: string, entry: JobChangesInput): Promise<ServiceRequestConversion> {
  return serviceRequestConversionSchema.parse(
    await apiFetch(serviceRequestsApiPath(instance, id, 'convert'), { method: 'POST', body: entry }),
  );
}

export function useConvertServiceRequest(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, entry }: { id: string; entry: JobChangesInput }) => convertServiceRequest(instance, id, entry),
    onSuccess: (result) => remember(queryClient, instance, result.serviceRequest),
  });
}
