import { crmInstanceViewSchema } from '@crm/projections/contract';
import type { CrmInstanceView } from '@crm/projections/platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { ValidCreateInstanceInput } from '../utils/validate-create-instance';
import { crmInstancesQueryKey } from './get-crm-instances';

/** Takes input already checked by validateCreateInstance (the server checks it again). */
export async function createCrmInstance(input: ValidCreateInstanceInput): Promise<CrmInstanceView> {
  return crmInstanceViewSchema.parse(await apiFetch('/api/crm-instances', { method: 'POST', body: input }));
}

export function useCreateCrmInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCrmInstance,
    onSuccess: (created) => {
      // Show it at once, then re-read the list for the server's order and anything else new.
      queryClient.setQueryData<CrmInstanceView[]>(crmInstancesQueryKey, (list) =>
        list && !list.some((instance) => instance.id === created.id) ? [...list, created] : list,
      );
      return queryClient.invalidateQueries({ queryKey: crmInstancesQueryKey });
    },
  });
}
