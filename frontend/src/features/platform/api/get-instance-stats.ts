import { instanceStatsListSchema, type InstanceStats } from '@crm/projections/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export const instanceStatsQueryKey = ['crm-instances', 'stats'] as const;

/** Users, jobs, customers and last activity of every instance (the provider dashboard; super admin). */
export async function getInstanceStats(signal?: AbortSignal): Promise<InstanceStats[]> {
  return instanceStatsListSchema.parse(await apiFetch('/api/crm-instances/stats', { signal }));
}

export function useInstanceStats() {
  return useQuery({ queryKey: instanceStatsQueryKey, queryFn: ({ signal }) => getInstanceStats(signal) });
}
