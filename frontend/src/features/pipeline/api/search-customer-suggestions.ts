import { parseList } from '@crm/projections/customers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api-client';

const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? '' : String(value)));

/** An autocomplete suggestion; vehicles as a list (older answers send the 'a, b' text). */
const suggestionSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    number: z.number().nullish(),
    name: text,
    phone: text,
    vehicles: z.union([z.array(z.string()), z.string()]).nullish(),
    vehicleList: z.array(z.string()).nullish(),
  })
  .transform(({ vehicles, vehicleList, number, ...rest }) => ({
    ...rest,
    number: number ?? null,
    vehicles: vehicleList ?? parseList(vehicles ?? []),
  }));

export type CustomerSuggestionView = z.output<typeof suggestionSchema>;

export const FAILED_TO_SEARCH_CUSTOMERS = 'Failed to search customers';

export async function searchCustomerSuggestions(instance: string, query: string, signal?: AbortSignal): Promise<CustomerSuggestionView[]> {
  const path = `/api/${encodeURIComponent(instance)}/customers/search?${new URLSearchParams({ query })}`;
  return z.array(suggestionSchema).parse(await apiFetch(path, { signal }));
}

export function customerSuggestionsQueryOptions(instance: string, query: string) {
  return queryOptions({
    // Customers' own key prefix, so customer changes refresh the suggestions too.
    queryKey: ['customers', instance, 'suggestions', query],
    queryFn: ({ signal }) => searchCustomerSuggestions(instance, query, signal),
    staleTime: 30_000,
  });
}

/** Runs only for non-empty text (spec §5). */
export function useCustomerSuggestions(instance: string, query: string) {
  const trimmed = query.trim();
  return useQuery({ ...customerSuggestionsQueryOptions(instance, trimmed), enabled: trimmed !== '' });
}
