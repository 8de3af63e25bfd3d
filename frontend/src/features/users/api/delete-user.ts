import type { UserView } from '@crm/projections/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { usersQueryKey } from './get-users';

export async function deleteUser(userId: string): Promise<void> {
  await apiFetch<void>(`/api/admin/users/${encodeURIComponent(userId)}`, { method: 'DELETE' });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_result, userId) => {
      queryClient.setQueryData<UserView[]>(usersQueryKey, (list) => list?.filter((user) => user.id !== userId));
    },
  });
}
