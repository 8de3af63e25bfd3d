import { publicInstanceViewSchema, type PublicInstanceView } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export async function getPublicInstance(subdomain: string, signal?: AbortSignal): Promise<PublicInstanceView> {
  return publicInstanceViewSchema.parse(await apiFetch(`/api/instances/${encodeURIComponent(subdomain)}`, { signal }));
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
