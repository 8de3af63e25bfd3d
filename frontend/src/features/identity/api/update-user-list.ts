import { userViewSchema } from '@crm/projections/contract';
import type { UserView } from '@crm/projections/identity';
import type { QueryClient } from '@tanstack/react-query';
import { conflictCurrent } from '@/lib/concurrency';
import { usersQueryKey } from './get-users';

/** Puts the server's answer for one user into the cached list (read-your-writes), or re-reads it. */
export function replaceUserInList(queryClient: QueryClient, userId: string, updated: UserView | undefined): Promise<void> {
  if (!updated) return queryClient.invalidateQueries({ queryKey: usersQueryKey });
  queryClient.setQueryData<UserView[]>(usersQueryKey, (list) => list?.map((user) => (user.id === userId ? updated : user)));
  return Promise.resolve();
}

/** A 409 on a user change carries the user as it is now; null for any other error. */
export function conflictingUser(error: unknown): UserView | null {
  return conflictCurrent(error, userViewSchema);
}
