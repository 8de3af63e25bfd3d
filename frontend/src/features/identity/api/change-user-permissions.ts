import { userViewSchema } from '@crm/projections/contract';
import { changePermissionsInput, type UserView } from '@crm/projections/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';
import { replaceUserInList } from './update-user-list';

export interface ChangeUserPermissionsInput {
  userId: string;
  /** Only the flags that change. */
  changes: z.input<typeof changePermissionsInput>;
  /** The revision of the user the screen shows (If-Match). */
  revision?: number;
}

export async function changeUserPermissions({ userId, changes, revision }: ChangeUserPermissionsInput): Promise<UserView | undefined> {
  const body = changePermissionsInput.parse(changes);
  const answer = await apiFetch(`/api/admin/users/${encodeURIComponent(userId)}/permissions`, {
    method: 'PATCH',
    body,
    headers: ifMatch(revision),
  });
  return answer === undefined ? undefined : userViewSchema.parse(answer);
}

export function useChangeUserPermissions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUserPermissions,
    onSuccess: (updated, { userId }) => replaceUserInList(queryClient, userId, updated),
  });
}
