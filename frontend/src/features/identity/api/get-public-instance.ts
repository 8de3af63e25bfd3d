import type { PublicInstanceView } from '@crm/projections/platform';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api-client';

const publicInstanceSchema = z.object({
  subdomain: z.string(),
  name: z.string(),
  displayName: z.string(),
  isActive: z.boolean(),
}) satisfies z.ZodType<PublicInstanceView>;

export async function getPublicInstance(subdomain: string, signal?: AbortSignal): Promise<PublicInstanceView> {
  return publicInstanceSchema.parse(await apiFetch(`/api/instances/${encodeURIComponent(subdomain)}`, { signal }));
}

export function publicInstanceQueryOptions(subdomain: string) {
  return queryOptions({
    queryKey: ['public-instance', subdomain] as const,
    queryFn: ({ signal }) => getPublicInstance(subdomain, signal),
  });
}

/** The instance a login page belongs to; a 404 means there is no such CRM. */
export function usePublicInstance(subdomain: string) {
  return useQuery({ ...publicInstanceQueryOptions(subdomain), enabled: subdomain !== '' });
}
