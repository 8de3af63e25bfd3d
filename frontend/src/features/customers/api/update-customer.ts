import { customerViewSchema } from '@crm/projections/contract';
import type { CustomerChangesInput, CustomerView } from '@crm/projections/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { vehiclesQueryKey } from '@/lib/api/resources';
import { conflictCurrent, ifMatch } from '@/lib/concurrency';
import { keepSavedCustomer } from './get-customer';
import { customerHistoryQueryKey } from './get-customer-history';
import { customersListQueryKey } from './get-customers';
import { customersApiPath } from './customers-api-path';

export interface UpdateCustomerVariables {
  id: string;
  /** Only the fields that changed: a field left out stays as it is on the server. */
  changes: CustomerChangesInput;
  /** The revision of the copy being edited (If-Match): a save over someone else's change is a 409. */
  revision?: number;
}

export async function updateCustomer(instance: string, { id, changes, revision }: UpdateCustomerVariables): Promise<CustomerView> {
  return customerViewSchema.parse(
    await apiFetch(customersApiPath(instance, id), { method: 'PUT', body: changes, headers: ifMatch(revision) }),
  );
}

/** A 409 on save carries the customer as it is now; null for any other error. */
export function conflictingCustomer(error: unknown): CustomerView | null {
  return conflictCurrent(error, customerViewSchema);
}

export function useUpdateCustomer(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: UpdateCustomerVariables) => updateCustomer(instance, variables),
    onSuccess: (updated) => {
      keepSavedCustomer(queryClient, instance, updated);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: customersListQueryKey(instance) }),
        queryClient.invalidateQueries({ queryKey: customerHistoryQueryKey(instance, updated.id) }),
        // A vehicle added on the form is a vehicle record of the customer now.
        queryClient.invalidateQueries({ queryKey: vehiclesQueryKey(instance) }),
      ]);
    },
  });
}
