import { userViewSchema } from '@crm/projections/contract';
import type { UserView } from '@crm/projections/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';
import { replaceUserInList } from './update-user-list';

/** Ends a lockout after failed sign-ins before it runs out. */
export async function clearSignInLock({ userId, revision }: { userId: string; revision?: number }): Promise<UserView> {
  const answer = await apiFetch(`/api/admin/users/${encodeURIComponent(userId)}/sign-in-lock`, {
    method: 'DELETE',
    headers: ifMatch(revision),
  });
  return userViewSchema.parse(answer);
}

export function useClearSignInLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearSignInLock,
    onSuccess: (updated, { userId }) => replaceUserInList(queryClient, userId, updated),
  });
}
