import { appInfoSchema, type AppInfo } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** Shown when /api/app-info cannot be read. */
export const FALLBACK_PROVIDER_NAME = 'Maven';

export const appInfoQueryKey = ['app-info'] as const;

export async function getAppInfo(signal?: AbortSignal): Promise<AppInfo> {
  return appInfoSchema.parse(await apiFetch('/api/app-info', { signal }));
}

export function appInfoQueryOptions() {
  return queryOptions({
    queryKey: appInfoQueryKey,
    queryFn: ({ signal }) => getAppInfo(signal),
    // Server configuration: read once per visit.
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useAppInfo() {
  return useQuery(appInfoQueryOptions());
}
