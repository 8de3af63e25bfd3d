import { userChoicesSchema } from '@crm/projections/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** The instance's active users (the Technician choices and the day view's lanes), by the name jobs record. */
export function useTechnicians(instance: string) {
  return useQuery(
    queryOptions({
      // The users' own key: user changes refresh it; the select shares the cache with the pipeline's.
      queryKey: ['users', instance, 'choices'],
      queryFn: async ({ signal }) =>
        userChoicesSchema.parse(await apiFetch(`/api/${encodeURIComponent(instance)}/users/choices`, { signal })),
      staleTime: 60_000,
      select: (users) => users.map((user) => user.displayName.trim() || user.username),
    }),
  );
}
