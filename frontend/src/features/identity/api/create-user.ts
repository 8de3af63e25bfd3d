import { userViewSchema } from '@crm/projections/contract';
import { createUserInput, type UserView } from '@crm/projections/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '@/lib/api-client';
import { usersQueryKey } from './get-users';

export type CreateUserInput = z.input<typeof createUserInput>;

export async function createUser(input: CreateUserInput): Promise<UserView> {
  const body = createUserInput.parse(input);
  return userViewSchema.parse(await apiFetch('/api/admin/users', { method: 'POST', body }));
}

/** A created user joins the end of the list. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: (created) => {
      queryClient.setQueryData<UserView[]>(usersQueryKey, (list) =>
        list && !list.some((user) => user.id === created.id) ? [...list, created] : list,
      );
    },
  });
}
