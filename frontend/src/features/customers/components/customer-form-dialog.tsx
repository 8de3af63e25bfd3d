import type { CustomerView } from '@crm/projections/domain';
import { type ReactNode, useCallback, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useCustomer } from '../api/get-customer';
import { ConfirmDiscardDialog } from './confirm-discard-dialog';
import { CustomerForm } from './customer-form';
import { isEscapeClaimed } from './vehicle-chips-input';

/** Which customer the dialog works on: a new one, or an existing one by id. */
export type CustomerDialogTarget = { mode: 'create' } | { mode: 'edit'; id: string; name: string };

/**
 * The add/edit customer modal (spec §2). An edit reads the customer first: lists carry
 * masked phones, the form needs the whole number. Closing with unsaved changes asks first.
 */
export function CustomerFormDialog({
  instance,
  target,
  onClose,
  onSaved,
}: {
  instance: string;
  /** Null: closed. */
  target: CustomerDialogTarget | null;
  onClose: () => void;
  onSaved?: (customer: CustomerView) => void;
}) {
  const [dirty, setDirty] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const editId = target?.mode === 'edit' ? target.id : '';
  const customer = useCustomer(instance, editId, { enabled: editId !== '' });

  const close = useCallback(() => {
    setConfirmOpen(false);
    setDirty(false);
    onClose();
  }, [onClose]);

  const requestClose = () => {
    if (dirty) setConfirmOpen(true);
    else close();
  };

  const title = target?.mode === 'edit' ? 'Edit Customer' : 'Add New Customer';
  const formKey = target ? (target.mode === 'edit' ? `edit-${target.id}` : 'create') : 'closed';

  let body: ReactNode = null;
  if (target?.mode === 'create') {
    body = (
      <CustomerForm
        key={formKey}
        instance={instance}
        idPrefix="customer-dialog"
        onSaved={(saved) => {
          close();
          onSaved?.(saved);
        }}
        onCancel={requestClose}
        onDirtyChange={setDirty}
      />
    );
  } else if (target?.mode === 'edit') {
    if (customer.isError)
      body = (
        <div className="grid gap-3">
          <Alert>{errorMessage(customer.error, 'Could not load the customer.')}</Alert>
          <div className="flex justify-end">
            <Button variant="outline" onClick={close}>
              Close
            </Button>
          </div>
        </div>
      );
    // Wait for a fresh read: a form filled from an older copy would send stale values back.
    else if (!customer.isFetchedAfterMount || !customer.data) body = <Spinner label="Loading customer..." className="py-6" />;
    else
      body = (
        <CustomerForm
          key={formKey}
          instance={instance}
          customer={customer.data}
          idPrefix="customer-dialog"
          onSaved={(saved) => {
            close();
            onSaved?.(saved);
          }}
          onCancel={requestClose}
          onDirtyChange={setDirty}
        />
      );
  }

  return (
    <>
      <Dialog open={target !== null} onOpenChange={(next) => (next ? undefined : requestClose())}>
        <DialogContent
          className="max-h-[90vh] max-w-2xl"
          onEscapeKeyDown={(event) => {
            // Escape in the vehicles field cancels the typed vehicle, not the dialog.
            if (isEscapeClaimed(event.target)) event.preventDefault();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              {target?.mode === 'edit' ? `Update the details of ${target.name}.` : 'Fill out at least one field to add a customer.'}
            </DialogDescription>
          </DialogHeader>
          {body}
        </DialogContent>
      </Dialog>
      <ConfirmDiscardDialog open={confirmOpen} onKeepEditing={() => setConfirmOpen(false)} onDiscard={close} />
    </>
  );
}
