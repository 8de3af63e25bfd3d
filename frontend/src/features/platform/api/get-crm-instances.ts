import { crmInstanceListSchema } from '@crm/projections/contract';
import type { CrmInstanceView } from '@crm/projections/platform';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export const crmInstancesQueryKey = ['crm-instances'] as const;

export async function getCrmInstances(signal?: AbortSignal): Promise<CrmInstanceView[]> {
  return crmInstanceListSchema.parse(await apiFetch('/api/crm-instances', { signal }));
}

export function crmInstancesQueryOptions() {
  return queryOptions({
    queryKey: crmInstancesQueryKey,
    queryFn: ({ signal }) => getCrmInstances(signal),
  });
}

/** Super admin only: call it behind the super admin guard. */
export function useCrmInstances() {
  return useQuery(crmInstancesQueryOptions());
}
