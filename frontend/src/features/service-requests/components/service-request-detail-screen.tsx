import { formatDate, formatDateTime } from '@crm/projections/contract';
import { SERVICE_REQUEST_FIELDS, SERVICE_REQUEST_FIELD_LABELS, type ServiceRequestView } from '@crm/projections/service-requests';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { CustomerMatchOfferPanel, useCustomerMatchOffer } from '@/components/customer-match-offer';
import { SaveErrorMessage } from '@/components/save-error-message';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ArrowLeftIcon, HistoryIcon, PencilIcon, PlusIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { CONFLICT_FALLBACK } from '@/lib/concurrency';
import { reportFailure } from '@/lib/report-failure';
import { toast } from '@/lib/toast';
import { useServiceRequest } from '../api/get-service-request';
import { conflictingServiceRequest, useArchiveServiceRequest, useUpdateServiceRequest } from '../api/save-service-request';
import {
  changedFields,
  type FormErrors,
  formFromRequest,
  requestNumber,
  type ServiceRequestForm,
  validateServiceRequestForm,
} from '../utils/service-request-form';
import { ServiceRequestFieldset } from './service-request-fields';
import { ServiceRequestHistory } from './service-request-history';
import { ServiceRequestStatusBadge } from './service-request-status-badge';

export interface ServiceRequestPermissions {
  canWrite: boolean;
  canDelete: boolean;
}

/**
 * /edit-service/{id}: the request, its edit form, its history, and its way into the
 * pipeline. The job is made by the app (`onCreateJob` opens the pipeline's entry dialog
 * prefilled and converts on save); a converted request says so and opens its job.
 */
export function ServiceRequestDetailScreen({
  instance,
  id,
  listPath,
  permissions,
  onCreateJob,
  onOpenJob,
}: {
  instance: string;
  id: string;
  listPath: string;
  permissions: ServiceRequestPermissions;
  /**
   * Absent when the pipeline is off for the instance: the request cannot become a job then.
   * `customerId`: the existing customer the job is for (offered when one has the request's
   * name, phone or email); without it the job makes a new customer (the offer was answered).
   */
  onCreateJob?: (request: ServiceRequestView, customerId?: string) => void;
  onOpenJob?: (request: ServiceRequestView) => void;
}) {
  const loaded = useServiceRequest(instance, id);
  const [editing, setEditing] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const archive = useArchiveServiceRequest(instance);
  // One customer per person: Create job offers the customers who already have this name,
  // phone or email before the job makes a new one.
  const read = loaded.data;
  const offer = useCustomerMatchOffer(
    instance,
    { name: read?.customerName ?? '', phone: read?.contactPhone ?? '', email: read?.contactEmail ?? '' },
    Boolean(read?.status === 'open' && permissions.canWrite && onCreateJob),
  );

  const back = (
    <Link to={listPath} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeftIcon className="size-4" />
      All service requests
    </Link>
  );

  if (loaded.isPending) return <Spinner label="Loading service request..." />;
  if (loaded.isError) {
    return (
      <div className="grid gap-4">
        {back}
        <h1 className="text-2xl font-semibold">Service Request</h1>
        <Alert>{errorMessage(loaded.error, 'Failed to load the service request')}</Alert>
      </div>
    );
  }

  const request = loaded.data;
  const open = request.status === 'open';
  const archived = request.status === 'archived';

  const handleArchive = () => {
    archive.mutate(
      { id: request.id, revision: request.revision },
      {
        onSuccess: () => {
          setConfirmArchive(false);
          setEditing(false);
          toast({ title: 'Service request archived', description: `${requestNumber(request)} is archived.` });
        },
        onError: (failure) => {
          reportFailure('Archive service request failed', failure);
          setConfirmArchive(false);
          toast({ title: 'Error', description: errorMessage(failure, 'Failed to archive the service request'), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      {back}
      <div className="grid gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
            Service Request <span className="font-mono text-muted-foreground">{requestNumber(request)}</span>
          </h1>
          <p className="text-sm text-muted-foreground">
            {request.source === 'public' ? 'Sent from the public request page' : `Submitted by ${request.createdBy}`} on{' '}
            {formatDateTime(request.createdAt)}
            {request.revision > 0 ? ` · last changed by ${request.lastModifiedBy} on ${formatDateTime(request.lastModifiedAt)}` : ''}
          </p>
          <ServiceRequestStatusBadge request={request} isNew={request.source === 'public' && open && request.revision === 0} />
        </div>
        <div className="flex flex-wrap gap-2">
          {open && permissions.canWrite && onCreateJob ? (
            <Button
              onClick={() => {
                void offer.mustAnswer().then((mustAnswer) => {
                  if (!mustAnswer) onCreateJob(request);
                });
              }}
            >
              <PlusIcon />
              Create job
            </Button>
          ) : null}
          {!archived && permissions.canWrite && !editing ? (
            <Button variant="outline" onClick={() => setEditing(true)}>
              <PencilIcon />
              Edit
            </Button>
          ) : null}
          <Button variant="outline" aria-pressed={showHistory} onClick={() => setShowHistory((on) => !on)}>
            <HistoryIcon />
            {showHistory ? 'Hide history' : 'History'}
          </Button>
        </div>
        {open && permissions.canWrite && onCreateJob ? (
          <CustomerMatchOfferPanel
            offer={offer}
            onUse={(match) => onCreateJob(request, match.id)}
            onCreateNew={() => onCreateJob(request)}
          />
        ) : null}
      </div>

      {request.jobId ? (
        <Alert variant="info" className="flex flex-wrap items-center justify-between gap-2">
          <span>
            Converted to job <strong>#{request.jobNumber}</strong>
            {archived ? ' (request archived)' : ''}.
          </span>
          {onOpenJob ? (
            <Button variant="outline" size="sm" onClick={() => onOpenJob(request)}>
              Open job #{request.jobNumber}
            </Button>
          ) : null}
        </Alert>
      ) : null}
      {archived && !request.jobId ? (
        <Alert variant="info">This request is archived. It is kept with its history and can no longer be changed.</Alert>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>{editing ? 'Edit request' : 'Request'}</CardTitle>
        </CardHeader>
        <CardContent>
          {editing ? (
            <EditForm instance={instance} request={request} onDone={() => setEditing(false)} />
          ) : (
            <RequestDetails request={request} />
          )}
        </CardContent>
      </Card>

      {showHistory ? (
        <Card>
          <CardHeader>
            <CardTitle>History</CardTitle>
          </CardHeader>
          <CardContent>
            <ServiceRequestHistory instance={instance} id={request.id} />
          </CardContent>
        </Card>
      ) : null}

      {!archived && permissions.canDelete ? (
        <div className="flex justify-end">
          <Button variant="ghost" className="text-destructive" onClick={() => setConfirmArchive(true)}>
            Archive request
          </Button>
        </div>
      ) : null}

      <ConfirmDialog
        open={confirmArchive}
        onOpenChange={setConfirmArchive}
        title="Archive this request?"
        description={`${requestNumber(request)} leaves the list of requests. It is kept with its history and can be found under Show archived.`}
        confirmLabel="Archive"
        pendingLabel="Archiving..."
        pending={archive.isPending}
        variant="destructive"
        onConfirm={handleArchive}
      />
    </div>
  );
}

function RequestDetails({ request }: { request: ServiceRequestView }) {
  const value = (field: (typeof SERVICE_REQUEST_FIELDS)[number]): ReactNode => {
    const text = field === 'scheduledDate' ? formatDate(request.scheduledDate) : request[field];
    return text ? text : <span className="text-muted-foreground">—</span>;
  };
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {SERVICE_REQUEST_FIELDS.map((field) => (
        <div key={field} className={field === 'additionalNotes' ? 'grid gap-1 sm:col-span-2' : 'grid gap-1'}>
          <dt className="text-sm text-muted-foreground">{SERVICE_REQUEST_FIELD_LABELS[field]}</dt>
          <dd className="whitespace-pre-wrap">{value(field)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Saves only what changed, over the revision it loaded (If-Match); a 409 offers the current version. */
function EditForm({ instance, request, onDone }: { instance: string; request: ServiceRequestView; onDone: () => void }) {
  const [base, setBase] = useState(request);
  const [form, setForm] = useState<ServiceRequestForm>(() => formFromRequest(request));
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<ServiceRequestView | null>(null);
  const update = useUpdateServiceRequest(instance);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    const found = validateServiceRequestForm(form, []);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const changes = changedFields(form, base);
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    setError(null);
    setConflict(null);
    update.mutate(
      { id: base.id, changes, revision: base.revision },
      {
        onSuccess: () => {
          toast({ title: 'Service request updated' });
          onDone();
        },
        onError: (failure) => {
          reportFailure('Update service request failed', failure);
          const current = conflictingServiceRequest(failure);
          setConflict(current);
          setError(current ? errorMessage(failure, CONFLICT_FALLBACK) : errorMessage(failure, 'Failed to update the service request'));
        },
      },
    );
  };

  const loadCurrent = () => {
    if (!conflict) return;
    setBase(conflict);
    setForm(formFromRequest(conflict));
    setConflict(null);
    setError(null);
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-5">
      <ServiceRequestFieldset
        idPrefix="edit-sr"
        form={form}
        errors={errors}
        required={[]}
        onChange={(patch) => setForm((current) => ({ ...current, ...patch }))}
        disabled={update.isPending}
      />
      <Alert>{error ? <SaveErrorMessage message={error} onLoadCurrent={conflict ? loadCurrent : undefined} /> : null}</Alert>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
