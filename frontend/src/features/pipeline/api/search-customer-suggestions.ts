import { customerSuggestionsSchema, type CustomerSuggestion } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { customersQueryKey } from '@/lib/api/resources';

export const FAILED_TO_SEARCH_CUSTOMERS = 'Failed to search customers';

export async function searchCustomerSuggestions(instance: string, query: string, signal?: AbortSignal): Promise<CustomerSuggestion[]> {
  const path = `/api/${encodeURIComponent(instance)}/customers/search?${new URLSearchParams({ query })}`;
  return customerSuggestionsSchema.parse(await apiFetch(path, { signal }));
}

export function customerSuggestionsQueryOptions(instance: string, query: string) {
  return queryOptions({
    // Customers' own key prefix, so customer changes refresh the suggestions too.
    queryKey: [...customersQueryKey(instance), 'suggestions', query],
    queryFn: ({ signal }) => searchCustomerSuggestions(instance, query, signal),
    staleTime: 30_000,
  });
}

/** Runs only for non-empty text. */
export function useCustomerSuggestions(instance: string, query: string) {
  const trimmed = query.trim();
  return useQuery({ ...customerSuggestionsQueryOptions(instance, trimmed), enabled: trimmed !== '' });
}
