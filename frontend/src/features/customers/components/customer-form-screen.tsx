import { useRef, useState } from 'react';
import { useBlocker, useNavigate } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { usePageTitle } from '@/lib/use-page-title';
import { useCustomer } from '../api/get-customer';
import { customerDisplayName } from '../utils/customer-display';
import type { CustomerPaths } from '../utils/customer-paths';
import { loadErrorMessage } from '../utils/load-error-message';
import { ConfirmDiscardDialog } from './confirm-discard-dialog';
import { CustomerForm } from './customer-form';
import { BackLink } from '@/components/back-link';

/**
 * The standalone customer form: /customers/new and /customers/{id}/edit, the
 * same form as the modal. Success returns to the customers list; leaving with unsaved
 * changes (Cancel, Back, a nav link) asks first.
 */
export function CustomerFormScreen({ instance, id, paths }: { instance: string; id?: string; paths: CustomerPaths }) {
  const navigate = useNavigate();
  const editing = id !== undefined;
  const customer = useCustomer(instance, id ?? '', { enabled: editing });
  const [dirty, setDirty] = useState(false);
  // Set when saved: the navigation that follows must not ask.
  const leaving = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  const title = editing ? 'Edit Customer' : 'Add New Customer';
  usePageTitle(title);

  const backToList = () => void navigate(paths.list);
  const handleSaved = () => {
    leaving.current = true;
    backToList();
  };

  let body;
  if (!editing) {
    body = (
      <CustomerForm instance={instance} idPrefix="customer-page" onSaved={handleSaved} onCancel={backToList} onDirtyChange={setDirty} />
    );
  } else if (customer.isError) {
    body = <Alert>Error loading customer: {loadErrorMessage(customer.error)}</Alert>;
  } else if (!customer.isFetchedAfterMount || !customer.data) {
    body = <Spinner label="Loading customer..." />;
  } else {
    body = (
      <CustomerForm
        instance={instance}
        customer={customer.data}
        idPrefix="customer-page"
        onSaved={handleSaved}
        onCancel={backToList}
        onDirtyChange={setDirty}
      />
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <BackLink to={paths.list}>Back to Customers</BackLink>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        <p className="text-muted-foreground">
          {editing && customer.data
            ? `Customer ID: #${customer.data.number} · ${customerDisplayName(customer.data)}`
            : 'Fill out at least one field to add a customer.'}
        </p>
      </div>
      <Card>
        <CardContent className="pt-5 sm:pt-6">{body}</CardContent>
      </Card>
      {editing && customer.isError ? (
        <div>
          <Button variant="outline" onClick={() => void customer.refetch()} disabled={customer.isFetching}>
            Try again
          </Button>
        </div>
      ) : null}
      <ConfirmDiscardDialog
        open={blocker.state === 'blocked'}
        onKeepEditing={() => blocker.reset?.()}
        onDiscard={() => blocker.proceed?.()}
      />
    </div>
  );
}
