import { userViewSchema } from '@crm/projections/contract';
import { setLockInput, type UserView } from '@crm/projections/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';
import { replaceUserInList } from './update-user-list';

export interface SetUserLockedInput {
  userId: string;
  isLocked: boolean;
  /** The revision of the user the screen shows (If-Match). */
  revision?: number;
}

/** Locking also ends the user's sessions on the server. */
export async function setUserLocked({ userId, isLocked, revision }: SetUserLockedInput): Promise<UserView | undefined> {
  const body = setLockInput.parse({ isLocked });
  const answer = await apiFetch(`/api/admin/users/${encodeURIComponent(userId)}/lock`, {
    method: 'PATCH',
    body,
    headers: ifMatch(revision),
  });
  return answer === undefined ? undefined : userViewSchema.parse(answer);
}

export function useSetUserLocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserLocked,
    onSuccess: (updated, { userId }) => replaceUserInList(queryClient, userId, updated),
  });
}
