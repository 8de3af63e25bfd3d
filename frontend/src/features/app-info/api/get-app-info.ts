import type { AppInfo } from '@crm/projections/platform';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api-client';

/** Shown when /api/app-info cannot be read (DECISIONS.md §5: "© 2025 Maven" style). */
export const FALLBACK_PROVIDER_NAME = 'Maven';

const appInfoSchema = z.object({
  version: z.string(),
  providerName: z.string(),
  host: z.string(),
}) satisfies z.ZodType<AppInfo>;

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
