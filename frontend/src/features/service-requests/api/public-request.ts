import { publicRequestPageSchema, publicRequestReceiptSchema } from '@crm/projections/contract';
import type { PublicRequestPage, PublicServiceRequestInput } from '@crm/projections/service-requests';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

const publicPath = (subdomain: string, what: string) => `/api/public/${encodeURIComponent(subdomain)}/${what}`;

/** Whether the shop takes requests online, and its name (no sign-in). */
export async function getPublicRequestPage(subdomain: string, signal?: AbortSignal): Promise<PublicRequestPage> {
  return publicRequestPageSchema.parse(await apiFetch(publicPath(subdomain, 'request-page'), { signal }));
}

export function usePublicRequestPage(subdomain: string) {
  return useQuery({
    queryKey: ['public-request-page', subdomain],
    queryFn: ({ signal }) => getPublicRequestPage(subdomain, signal),
    retry: false,
  });
}

export function useSubmitPublicRequest(subdomain: string) {
  return useMutation({
    mutationFn: async (input: PublicServiceRequestInput) =>
      publicRequestReceiptSchema.parse(await apiFetch(publicPath(subdomain, 'service-requests'), { method: 'POST', body: input })),
  });
}
