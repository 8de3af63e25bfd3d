import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useDeleteCustomer } from '../api/delete-customer';
import { CUSTOMER_TEXTS } from '../constants/customer-texts';
import { DELETE_CONFIRMATION_WORD, isDeleteConfirmed } from '../utils/confirm-delete';
import { reportFailure } from '@/lib/report-failure';

export interface CustomerToDelete {
  id: string;
  /** As shown: the name or 'Unnamed Customer'. */
  displayName: string;
  number: number;
}

function DeleteCustomerForm({
  instance,
  customer,
  onDone,
}: {
  instance: string;
  customer: CustomerToDelete;
  onDone: (deleted: boolean) => void;
}) {
  const [typed, setTyped] = useState('');
  const deleteCustomer = useDeleteCustomer(instance);
  const confirmed = isDeleteConfirmed(typed);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!confirmed || deleteCustomer.isPending) return;
    deleteCustomer.mutate(customer.id, {
      onSuccess: () => {
        toast({ title: CUSTOMER_TEXTS.deleted, description: CUSTOMER_TEXTS.deletedDescription });
        onDone(true);
      },
      onError: (error) => {
        reportFailure('Delete customer failed', error);
        toast({ title: 'Error', description: errorMessage(error, CUSTOMER_TEXTS.deleteFailed), variant: 'destructive' });
      },
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-5">
      <Field id="delete-customer-confirm" label={`Type ${DELETE_CONFIRMATION_WORD} to confirm`}>
        <Input
          id="delete-customer-confirm"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={DELETE_CONFIRMATION_WORD}
        />
      </Field>
      {/* On a phone the dialog scrolls; its buttons stay in view at the bottom. */}
      <DialogFooter sticky>
        <Button variant="outline" onClick={() => onDone(false)}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={!confirmed || deleteCustomer.isPending}>
          {deleteCustomer.isPending ? 'Deleting...' : 'Delete Customer'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Deleting a customer also deletes its pipeline jobs, for good: the button is
 * enabled only once the user has typed "delete" (any case).
 */
export function DeleteCustomerDialog({
  instance,
  customer,
  onClose,
  onDeleted,
}: {
  instance: string;
  /** Null: closed. */
  customer: CustomerToDelete | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const [lastCustomer, setLastCustomer] = useState(customer);
  if (customer !== null && customer !== lastCustomer) setLastCustomer(customer);
  const shown = customer ?? lastCustomer;

  return (
    <Dialog open={customer !== null} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent role="alertdialog" className="max-w-md">
        <DialogHeader>
          <DialogTitle>Delete Customer</DialogTitle>
          <DialogDescription>
            This deletes <strong className="font-semibold text-foreground">{shown?.displayName}</strong> (Customer ID: #{shown?.number}) and
            all associated pipeline jobs and vehicle records. An admin can restore the customer with its jobs and vehicles from Admin →
            Deleted records.
          </DialogDescription>
        </DialogHeader>
        {shown ? (
          <DeleteCustomerForm
            key={shown.id}
            instance={instance}
            customer={shown}
            onDone={(deleted) => {
              onClose();
              if (deleted) onDeleted?.();
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
