import type { CustomerView } from '@crm/projections/customers';
import { useCallback, useState } from 'react';
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

interface BodyProps {
  instance: string;
  onSaved: (customer: CustomerView) => void;
  onCancel: () => void;
  onDirtyChange: (dirty: boolean) => void;
  actionsClassName: string;
}

/** The buttons stay in view while the form scrolls inside the dialog. */
const STICKY_ACTIONS = 'sticky -bottom-5 sm:-bottom-6 z-10 -mx-5 -mb-5 border-t bg-card px-5 py-4 sm:-mx-6 sm:-mb-6 sm:px-6';

/**
 * An edit reads the customer first: lists carry masked phones and the form needs the
 * whole number. Mounted only while the dialog is open, so each opening reads afresh.
 */
function EditCustomerBody({ id, onClose, ...props }: BodyProps & { id: string; onClose: () => void }) {
  const customer = useCustomer(props.instance, id);
  if (customer.isError) {
    return (
      <div className="grid gap-3">
        <Alert>{errorMessage(customer.error, 'Could not load the customer.')}</Alert>
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    );
  }
  // A form filled from an older cached copy would send stale values back.
  if (!customer.isFetchedAfterMount || !customer.data) return <Spinner label="Loading customer..." className="py-6" />;
  return <CustomerForm idPrefix="customer-dialog" customer={customer.data} {...props} />;
}

/**
 * The add/edit customer modal: at most 90% of the viewport high, scrolling
 * inside. Closing it with unsaved changes (X, Escape, outside click, Cancel) asks first.
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
  // While the dialog animates out, it keeps showing what it showed.
  const [lastTarget, setLastTarget] = useState(target);
  if (target !== null && target !== lastTarget) setLastTarget(target);
  const shown = target ?? lastTarget;

  const close = useCallback(() => {
    setConfirmOpen(false);
    setDirty(false);
    onClose();
  }, [onClose]);

  const requestClose = () => {
    if (dirty) setConfirmOpen(true);
    else close();
  };

  const bodyProps: BodyProps = {
    instance,
    onSaved: (saved) => {
      close();
      onSaved?.(saved);
    },
    onCancel: requestClose,
    onDirtyChange: setDirty,
    actionsClassName: STICKY_ACTIONS,
  };

  return (
    <>
      <Dialog open={target !== null} onOpenChange={(next) => (next ? undefined : requestClose())}>
        {/* 90vh must beat the base dialog's max height, hence the important mark; the width
            is a breakpoint class so it comes after the base max-w-lg in the stylesheet. */}
        <DialogContent
          className="max-h-[90vh]! sm:max-w-2xl"
          onEscapeKeyDown={(event) => {
            // Escape in the vehicles field cancels the typed vehicle, not the dialog.
            if (isEscapeClaimed(event.target)) event.preventDefault();
          }}
        >
          <DialogHeader>
            <DialogTitle>{shown?.mode === 'edit' ? 'Edit Customer' : 'Add New Customer'}</DialogTitle>
            <DialogDescription>
              {shown?.mode === 'edit' ? `Update the details of ${shown.name}.` : 'Fill out at least one field to add a customer.'}
            </DialogDescription>
          </DialogHeader>
          {shown?.mode === 'edit' ? (
            <EditCustomerBody key={shown.id} id={shown.id} onClose={close} {...bodyProps} />
          ) : shown?.mode === 'create' ? (
            <CustomerForm idPrefix="customer-dialog" {...bodyProps} />
          ) : null}
        </DialogContent>
      </Dialog>
      <ConfirmDiscardDialog open={confirmOpen} onKeepEditing={() => setConfirmOpen(false)} onDiscard={close} />
    </>
  );
}
