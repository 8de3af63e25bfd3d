import type { CustomerChangesInput, CustomerView } from '@crm/projections/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { customerViewSchema } from '../types/customer-schema';
import { customerQueryKey } from './get-customer';
import { customerHistoryQueryKey } from './get-customer-history';
import { customersListQueryKey } from './get-customers';
import { customersApiPath } from './customers-api-path';

export interface UpdateCustomerVariables {
  id: string;
  /** Only the fields that changed: a field left out stays as it is on the server. */
  changes: CustomerChangesInput;
}

export async function updateCustomer(instance: string, { id, changes }: UpdateCustomerVariables): Promise<CustomerView> {
  return customerViewSchema.parse(await apiFetch(customersApiPath(instance, id), { method: 'PUT', body: changes }));
}

export function useUpdateCustomer(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: UpdateCustomerVariables) => updateCustomer(instance, variables),
    onSuccess: (updated) => {
      queryClient.setQueryData(customerQueryKey(instance, updated.id), updated);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: customersListQueryKey(instance) }),
        queryClient.invalidateQueries({ queryKey: customerHistoryQueryKey(instance, updated.id) }),
      ]);
    },
  });
}
