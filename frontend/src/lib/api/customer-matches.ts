import { customerMatchesSchema } from '@crm/projections/contract';
import type { CustomerMatch } from '@crm/projections/customers';
import { phoneDigits } from '@crm/projections/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { customersApiPath, customersQueryKey } from './resources';

/** What a screen about to make a customer knows of the person. */
export interface MatchCriteria {
  name: string;
  phone: string;
  email: string;
}

/**
 * Existing customers who may be the person about to be made a customer again: the same name,
 * phone digits or email (the server compares without case and spaces).
 */
export async function getCustomerMatches(instance: string, criteria: MatchCriteria, signal?: AbortSignal): Promise<CustomerMatch[]> {
  const query = new URLSearchParams({ name: criteria.name, phone: criteria.phone, email: criteria.email });
  return customerMatchesSchema.parse(await apiFetch(`${customersApiPath(instance, 'matches')}?${query.toString()}`, { signal })).items;
}

/**
 * Only what could match: a name of two letters or more, a phone of seven digits or more (a
 * half-typed one would match nobody or the wrong person), an email with an @.
 */
export function usableCriteria(criteria: MatchCriteria): MatchCriteria {
  const name = criteria.name.trim().replace(/\s+/g, ' ');
  const phone = phoneDigits(criteria.phone);
  const email = criteria.email.trim();
  return {
    name: name.length >= 2 ? name : '',
    phone: phone.length >= 7 ? phone : '',
    email: email.includes('@') ? email : '',
  };
}

/** The matches for what is being typed (asked once typing pauses); none while `enabled` is false. */
export function useCustomerMatches(instance: string, criteria: MatchCriteria, enabled: boolean) {
  // Debounced as one string: a new object each render would never settle.
  const key = useDebouncedValue(JSON.stringify(usableCriteria(criteria)), 350);
  const usable = JSON.parse(key) as MatchCriteria;
  const { name, phone, email } = usable;
  return useQuery({
    queryKey: [...customersQueryKey(instance), 'matches', name.toLowerCase(), phone, email.toLowerCase()] as const,
    queryFn: ({ signal }) => getCustomerMatches(instance, usable, signal),
    enabled: enabled && Boolean(name || phone || email),
  });
}
