import type { UserView } from '@crm/projections/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';
import { usersQueryKey } from './get-users';

export interface DeleteUserInput {
  userId: string;
  /** The revision of the user the screen shows (If-Match). */
  revision?: number;
}

export async function deleteUser({ userId, revision }: DeleteUserInput): Promise<void> {
  await apiFetch<void>(`/api/admin/users/${encodeURIComponent(userId)}`, { method: 'DELETE', headers: ifMatch(revision) });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_result, { userId }) => {
      queryClient.setQueryData<UserView[]>(usersQueryKey, (list) => list?.filter((user) => user.id !== userId));
    },
  });
}
