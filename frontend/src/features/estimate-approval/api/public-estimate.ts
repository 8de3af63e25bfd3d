import { publicEstimateSchema, type EstimateDecisionInput, type PublicEstimate } from '@crm/projections/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

const estimatePath = (token: string, ...rest: string[]) => ['/api/public/estimates', encodeURIComponent(token), ...rest].join('/');

const publicEstimateKey = (token: string) => ['public-estimate', token] as const;

/** The estimate exactly as it was sent behind this link (no sign-in). */
export async function getPublicEstimate(token: string, signal?: AbortSignal): Promise<PublicEstimate> {
  return publicEstimateSchema.parse(await apiFetch(estimatePath(token), { signal }));
}

export function usePublicEstimate(token: string) {
  return useQuery({
    queryKey: publicEstimateKey(token),
    queryFn: ({ signal }) => getPublicEstimate(token, signal),
    retry: false,
  });
}

/** The customer's decision on each line, with their name; the answer is the estimate as decided. */
export function useDecideEstimate(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (decision: EstimateDecisionInput) =>
      publicEstimateSchema.parse(await apiFetch(estimatePath(token, 'decision'), { method: 'POST', body: decision })),
    onSuccess: (estimate) => queryClient.setQueryData(publicEstimateKey(token), estimate),
  });
}
