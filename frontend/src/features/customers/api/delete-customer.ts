import { customerDeletedSchema } from '@crm/projections/contract';
import type { CustomerDeletedView } from '@crm/projections/customers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { pipelineQueryKey } from '@/lib/api/resources';
import { customerHistoryQueryKey } from './get-customer-history';
import { customersListQueryKey } from './get-customers';
import { customersApiPath } from './customers-api-path';

/** Deletes the customer and every pipeline job linked to it. */
export async function deleteCustomer(instance: string, id: string): Promise<CustomerDeletedView> {
  return customerDeletedSchema.parse(await apiFetch(customersApiPath(instance, id), { method: 'DELETE' }));
}

export function useDeleteCustomer(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteCustomer(instance, id),
    onSuccess: (_deleted, id) => {
      // The record itself is left alone: a screen showing it is about to leave, and a
      // later visit reads it again (and finds it gone). Not waited for: the caller's own
      // success (the toast, leaving the page) runs at once. Waiting let the live update of
      // this very delete read the record again while its page was still open; the page then
      // showed "Customer not found" in place of the dialog and never left (a busy CI run).
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: customersListQueryKey(instance) }),
        queryClient.invalidateQueries({ queryKey: customerHistoryQueryKey(instance, id) }),
        // Its jobs went with it.
        queryClient.invalidateQueries({ queryKey: pipelineQueryKey(instance) }),
      ]);
    },
  });
}
