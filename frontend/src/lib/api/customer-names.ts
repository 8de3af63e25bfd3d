import { useQueries } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { getCustomerContact } from './customer-contact';

/**
 * Names of the customers a history (a job's, the audit log) links to, by id: the name, null for one that has
 * been deleted since (404), absent while loading or when it could not be read.
 */
export function useCustomerNames(instance: string, customerIds: readonly string[]): ReadonlyMap<string, string | null> {
  const unique = [...new Set(customerIds)];
  const results = useQueries({
    queries: unique.map((id) => ({
      queryKey: ['customer-name', instance, id],
      queryFn: async () => {
        try {
          return (await getCustomerContact(instance, id)).name;
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      },
      staleTime: 60_000,
      retry: false,
    })),
  });
  const names = new Map<string, string | null>();
  unique.forEach((id, i) => {
    const result = results[i];
    if (result?.isSuccess) names.set(id, result.data);
  });
  return names;
}
