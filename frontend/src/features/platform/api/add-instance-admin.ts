import { userViewSchema } from '@crm/projections/contract';
import type { UserView } from '@crm/projections/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { ValidNewAdmin } from '../utils/validate-instance-user';
import { instanceUsersPath, instanceUsersQueryKey } from './get-instance-users';

export interface AddInstanceAdminInput {
  instanceId: string;
  /** Already checked by validateNewAdmin (the server checks it again). */
  admin: ValidNewAdmin;
}

/** The super admin adds an admin to any instance. */
export async function addInstanceAdmin({ instanceId, admin }: AddInstanceAdminInput): Promise<UserView> {
  return userViewSchema.parse(await apiFetch(instanceUsersPath(instanceId), { method: 'POST', body: admin }));
}

export function useAddInstanceAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addInstanceAdmin,
    onSuccess: (created, { instanceId }) => {
      // Show it at once, then re-read the list for the server's order.
      queryClient.setQueryData<UserView[]>(instanceUsersQueryKey(instanceId), (list) =>
        list && !list.some((user) => user.id === created.id) ? [...list, created] : list,
      );
      return queryClient.invalidateQueries({ queryKey: instanceUsersQueryKey(instanceId) });
    },
  });
}
