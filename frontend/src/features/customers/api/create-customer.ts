import { customerViewSchema } from '@crm/projections/contract';
import type { CustomerInput, CustomerView } from '@crm/projections/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { vehiclesQueryKey } from '@/lib/api/resources';
import { keepSavedCustomer } from './get-customer';
import { customersListQueryKey } from './get-customers';
import { customersApiPath } from './customers-api-path';

/** Takes input already checked by validateCustomerForm (the server checks it again). */
export async function createCustomer(instance: string, input: CustomerInput): Promise<CustomerView> {
  return customerViewSchema.parse(await apiFetch(customersApiPath(instance), { method: 'POST', body: input }));
}

export function useCreateCustomer(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CustomerInput) => createCustomer(instance, input),
    onSuccess: (created) => {
      // The answer is the projected record (read-your-writes): no need to ask again.
      keepSavedCustomer(queryClient, instance, created);
      // Each vehicle typed on the form is a vehicle record of the customer now.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: customersListQueryKey(instance) }),
        queryClient.invalidateQueries({ queryKey: vehiclesQueryKey(instance) }),
      ]);
    },
  });
}
