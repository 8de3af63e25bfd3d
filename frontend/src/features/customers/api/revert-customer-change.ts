import { customerViewSchema } from '@crm/projections/contract';
import type { CustomerView } from '@crm/projections/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';
import { customerQueryKey, keepSavedCustomer } from './get-customer';
import { customerHistoryQueryKey } from './get-customer-history';
import { customersListQueryKey } from './get-customers';
import { customersApiPath } from './customers-api-path';

/**
 * Undo one change from the customer's history: `POST …/history/{eventId}/revert`, with
 * If-Match naming the revision the screen shows; the answer is the customer after it.
 */
export async function revertCustomerChange(
  instance: string,
  customerId: string,
  eventId: string,
  revision?: number,
): Promise<CustomerView> {
  return customerViewSchema.parse(
    await apiFetch(customersApiPath(instance, customerId, 'history', eventId, 'revert'), { method: 'POST', headers: ifMatch(revision) }),
  );
}

export function useRevertCustomerChange(instance: string, customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (eventId: string) => {
      const shown = queryClient.getQueryData<CustomerView>(customerQueryKey(instance, customerId));
      return revertCustomerChange(instance, customerId, eventId, shown?.revision ?? undefined);
    },
    onSuccess: (updated) => {
      keepSavedCustomer(queryClient, instance, updated);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: customersListQueryKey(instance) }),
        queryClient.invalidateQueries({ queryKey: customerHistoryQueryKey(instance, updated.id) }),
      ]);
    },
  });
}
