import { customerMatchesSchema } from '@crm/projections/contract';
import type { CustomerMatch } from '@crm/projections/customers';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { customersQueryKey } from '@/lib/api/resources';

/**
 * Existing customers who may be the person behind a request (the same name or email), so a
 * conversion links one of them instead of making a duplicate.
 */
export async function getCustomerMatches(
  instance: string,
  criteria: { name: string; email: string },
  signal?: AbortSignal,
): Promise<CustomerMatch[]> {
  const query = new URLSearchParams({ name: criteria.name, email: criteria.email });
  const path = `/api/${encodeURIComponent(instance)}/customers/matches?${query.toString()}`;
  return customerMatchesSchema.parse(await apiFetch(path, { signal })).items;
}

export function useCustomerMatches(instance: string, criteria: { name: string; email: string }, enabled: boolean) {
  const name = criteria.name.trim();
  const email = criteria.email.trim();
  return useQuery({
    queryKey: [...customersQueryKey(instance), 'matches', name.toLowerCase(), email.toLowerCase()] as const,
    queryFn: ({ signal }) => getCustomerMatches(instance, { name, email }, signal),
    enabled: enabled && Boolean(name || email),
  });
}
