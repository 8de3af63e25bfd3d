import { ParkedChangesNotice } from '@/components/parked-changes-notice';
import { formatDateTime } from '@crm/projections/contract';
import type { CustomerRecord } from '@crm/projections/customers';
import { type ReactNode, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { HistoryIcon, PencilIcon, TrashIcon, UsersIcon } from '@/components/ui/icons';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { usePageTitle } from '@/lib/use-page-title';
import { useCustomer, useCustomerAsOf } from '../api/get-customer';
import { customerDisplayName } from '../utils/customer-display';
import type { CustomerPaths, CustomerPermissions } from '../utils/customer-paths';
import { loadErrorMessage } from '../utils/load-error-message';
import { CustomerDetails } from './customer-details';
import { type CustomerDialogTarget, CustomerFormDialog } from './customer-form-dialog';
import { CustomerHistory } from './customer-history';
import { CustomerJobs } from './customer-jobs';
import { MessageList } from '@/components/messages/message-list';
import { type CustomerToDelete, DeleteCustomerDialog } from './delete-customer-dialog';
import { MergeCustomerDialog } from './merge-customer-dialog';
import { MergedAwayNotice, UndoMergeButton } from './merge-history';
import { BackLink } from '@/components/back-link';

/** The customer "as of" a history row: the details of that moment, fetched by time. */
function CustomerAsOf({ instance, id, asOf, onBack }: { instance: string; id: string; asOf: string; onBack: () => void }) {
  const then = useCustomerAsOf(instance, id, asOf);
  return (
    <div className="grid gap-3">
      <Alert variant="info" className="flex flex-wrap items-center justify-between gap-2">
        <span>
          Showing this customer as it was on <strong className="font-semibold">{formatDateTime(asOf, { seconds: true })}</strong>.
        </span>
        <Button variant="outline" size="sm" onClick={onBack}>
          Back to current
        </Button>
      </Alert>
      {then.isPending ? <Spinner label="Loading that version..." /> : null}
      {then.isError ? <Alert>Could not load that version: {loadErrorMessage(then.error)}</Alert> : null}
      {then.data ? <CustomerDetails customer={then.data} /> : null}
    </div>
  );
}

/**
 * The customer page (new): details with the whole phone, the customer's
 * pipeline jobs, and the field history; choosing a history row shows the customer as it
 * was at that moment (kept in the address as ?asOf=).
 */
export function CustomerDetailScreen({
  instance,
  id,
  paths,
  pipelinePath,
  permissions,
  vehicles,
}: {
  instance: string;
  id: string;
  paths: CustomerPaths;
  pipelinePath: string;
  permissions: CustomerPermissions;
  /**
   * The customer's vehicles (the vehicles feature's card, given by the page), drawn for the
   * customer as it is now; when given, the details leave their Vehicles row to it.
   */
  vehicles?: (customer: CustomerRecord) => ReactNode;
}) {
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const asOf = searchParams.get('asOf');
  const customer = useCustomer(instance, id);
  const [dialog, setDialog] = useState<CustomerDialogTarget | null>(null);
  const [toDelete, setToDelete] = useState<CustomerToDelete | null>(null);
  const [merging, setMerging] = useState(false);
  const name = customer.data ? customerDisplayName(customer.data) : 'Customer';
  usePageTitle(name);

  const showAsOf = (timestamp: string | null) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (timestamp && timestamp !== asOf) next.set('asOf', timestamp);
        else next.delete('asOf');
        return next;
      },
      { replace: true },
    );

  // On a phone the history sits below the details: bring the version chosen into view.
  const handleSelectHistory = (timestamp: string) => {
    showAsOf(timestamp);
    const details = document.getElementById('customer-details');
    if (details && details.getBoundingClientRect().top < 0) details.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  const backLink = <BackLink to={paths.list}>Back to Customers</BackLink>;

  if (customer.isPending) return <PageSpinner label="Loading customer..." />;

  const notFound = customer.isError && customer.error instanceof ApiError && customer.error.status === 404;
  if (customer.isError && !notFound) {
    return (
      <div className="grid gap-6">
        {backLink}
        <div className="flex flex-wrap items-center gap-3">
          <Alert className="flex-1">Error loading customer: {loadErrorMessage(customer.error)}</Alert>
          <Button variant="outline" onClick={() => void customer.refetch()} disabled={customer.isFetching}>
            Try again
          </Button>
        </div>
      </div>
    );
  }

  const history = (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 [&_svg]:size-5">
          <HistoryIcon aria-hidden="true" />
          History
        </CardTitle>
        <CardDescription>Every change, newest first. Choose one to see the customer as it was then.</CardDescription>
      </CardHeader>
      <CardContent className="lg:max-h-[36rem] lg:overflow-y-auto">
        <CustomerHistory
          instance={instance}
          customerId={id}
          selected={asOf}
          onSelect={(entry) => handleSelectHistory(entry.timestamp)}
          mergeUndo={
            permissions.canMerge
              ? (entry) => (entry.merge ? <UndoMergeButton instance={instance} merge={entry.merge} paths={paths} /> : null)
              : undefined
          }
        />
      </CardContent>
    </Card>
  );

  if (notFound || !customer.data) {
    // A deleted customer keeps its history: show it under the notice.
    return (
      <div className="grid gap-6">
        {backLink}
        <MergedAwayNotice instance={instance} customerId={id} paths={paths} />
        {history}
      </div>
    );
  }

  const current = customer.data;
  return (
    <div className="grid gap-6">
      {backLink}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid min-w-0 gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{name}</h1>
          <p className="text-muted-foreground">Customer ID: #{current.number}</p>
        </div>
        {permissions.canWrite || permissions.canDelete || permissions.canMerge ? (
          <div className="flex flex-wrap gap-2">
            {permissions.canWrite ? (
              <Button variant="outline" onClick={() => setDialog({ mode: 'edit', id: current.id, name })}>
                <PencilIcon />
                Edit
              </Button>
            ) : null}
            {permissions.canDelete ? (
              <Button
                variant="outline"
                className="text-destructive hover:text-destructive"
                onClick={() => setToDelete({ id: current.id, displayName: name, number: current.number })}
              >
                <TrashIcon />
                Delete
              </Button>
            ) : null}
            {permissions.canMerge ? (
              <Button variant="outline" onClick={() => setMerging(true)}>
                <UsersIcon />
                Merge into…
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>

      <ParkedChangesNotice instance={instance} recordId={id} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid gap-6">
          <Card id="customer-details" className="scroll-mt-20">
            <CardHeader>
              <CardTitle>Details</CardTitle>
            </CardHeader>
            <CardContent>
              {asOf ? (
                <CustomerAsOf key={asOf} instance={instance} id={id} asOf={asOf} onBack={() => showAsOf(null)} />
              ) : (
                <CustomerDetails customer={current} withVehicles={!vehicles} />
              )}
            </CardContent>
          </Card>
          {vehicles?.(current)}
          <Card>
            <CardHeader>
              <CardTitle>Jobs</CardTitle>
              <CardDescription>Pipeline jobs linked to this customer.</CardDescription>
            </CardHeader>
            <CardContent>
              <CustomerJobs instance={instance} customer={current} pipelinePath={pipelinePath} asOf={asOf} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Messages</CardTitle>
              <CardDescription>E-mail and texts to this customer, newest first.</CardDescription>
            </CardHeader>
            <CardContent>
              <MessageList
                instance={instance}
                filter={{ customerId: id }}
                canRetry={permissions.canWrite}
                emptyText="No messages to this customer yet."
              />
            </CardContent>
          </Card>
        </div>
        {history}
      </div>

      <CustomerFormDialog instance={instance} target={dialog} onClose={() => setDialog(null)} />
      <MergeCustomerDialog
        instance={instance}
        customer={merging ? current : null}
        onClose={() => setMerging(false)}
        onMerged={(intoId) => void navigate(paths.detail(intoId), { replace: true })}
      />
      <DeleteCustomerDialog
        instance={instance}
        customer={toDelete}
        onClose={() => setToDelete(null)}
        onDeleted={() => void navigate(paths.list, { replace: true })}
      />
    </div>
  );
}
