import { userViewSchema } from '@crm/projections/contract';
import { changeRoleInput, type Role, type UserView } from '@crm/projections/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';
import { replaceUserInList } from './update-user-list';

export interface ChangeUserRoleInput {
  userId: string;
  role: Role;
  /** The revision of the user the screen shows (If-Match). */
  revision?: number;
}

export async function changeUserRole({ userId, role, revision }: ChangeUserRoleInput): Promise<UserView | undefined> {
  const body = changeRoleInput.parse({ role });
  const answer = await apiFetch(`/api/admin/users/${encodeURIComponent(userId)}/role`, {
    method: 'PATCH',
    body,
    headers: ifMatch(revision),
  });
  return answer === undefined ? undefined : userViewSchema.parse(answer);
}

export function useChangeUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUserRole,
    onSuccess: (updated, { userId }) => replaceUserInList(queryClient, userId, updated),
  });
}
