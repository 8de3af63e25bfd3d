import type { CustomerSuggestion } from '@crm/projections/contract';
import type { JobView } from '@crm/projections/pipeline';
import { revisionETag } from '@crm/projections/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { vehiclePath } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ArrowLeftIcon, HistoryIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { fillWholePhone, JobFields, type JobFieldValues } from '@/components/job-form';
import { SaveErrorMessage } from '@/components/save-error-message';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { toast } from '@/lib/toast';
import {
  conflictingJob,
  type LoadedAppointment,
  useAppointmentJob,
  useCreateAppointment,
  useUpdateAppointment,
} from '../api/appointment-api';
import { CALENDAR_DURATIONS } from '../constants/calendar-constants';
import {
  type AppointmentForm,
  type AppointmentFormErrors,
  appointmentFormErrors,
  appointmentPayload,
  formFromJob,
  newForm,
} from '../utils/appointment-form';

export type AppointmentTarget = { kind: 'new'; start: Date; tech?: string } | { kind: 'edit'; jobId: string };

/** The Customer Name box the app composes in (the entry dialog's customer autocomplete). */
export interface CustomerFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onChoose: (customer: CustomerSuggestion) => void;
  /** Shown under the box by the dialog; the box is marked invalid with it. */
  error?: string | undefined;
}

/**
 * Create New Appointment (clicking an empty day or slot) and Edit Appointment (clicking one):
 * the fields the calendar specifies, History and the full entry for a saved one.
 */
export function AppointmentDialog({
  instance,
  zone,
  target,
  currentUserName,
  canWrite,
  renderCustomerField,
  renderHistory,
  onOpenFullEntry,
  onClose,
}: {
  instance: string;
  zone: string;
  target: AppointmentTarget;
  currentUserName: string;
  canWrite: boolean;
  renderCustomerField: (props: CustomerFieldProps) => ReactNode;
  renderHistory: (jobId: string) => ReactNode;
  onOpenFullEntry: (jobId: string) => void;
  onClose: () => void;
}) {
  const jobId = target.kind === 'edit' ? target.jobId : null;
  const loadedJob = useAppointmentJob(instance, jobId);
  const [view, setView] = useState<'form' | 'history'>('form');
  // A copy cached from an earlier visit may be stale: edit only what was read just now.
  const fresh = loadedJob.data && loadedJob.isFetchedAfterMount ? loadedJob.data : null;

  const title = view === 'history' ? 'History' : jobId ? 'Edit Appointment' : 'Create New Appointment';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="sm:max-h-[90dvh] sm:max-w-2xl"
        onEscapeKeyDown={(event) => {
          // Escape closes the open autocomplete list first, not the dialog.
          if (document.activeElement?.getAttribute('aria-expanded') === 'true') event.preventDefault();
        }}
      >
        <DialogHeader>
          {view === 'history' ? (
            <Button variant="ghost" size="sm" className="-ml-2 self-start" onClick={() => setView('form')}>
              <ArrowLeftIcon />
              Back
            </Button>
          ) : null}
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {view === 'history'
              ? 'Newest first. Choose a change to see the whole entry as it was right after it.'
              : `Times are in the shop's time zone (${zone}).`}
          </DialogDescription>
        </DialogHeader>
        {jobId && !fresh && !loadedJob.isError ? <Spinner label="Loading appointment..." className="py-8" /> : null}
        {jobId && loadedJob.isError ? <Alert>{errorMessage(loadedJob.error, 'Failed to load appointment')}</Alert> : null}
        {!jobId || fresh ? (
          <AppointmentEditor
            key={jobId ?? 'new'}
            instance={instance}
            zone={zone}
            initial={fresh}
            start={target.kind === 'new' ? target.start : null}
            tech={target.kind === 'new' ? target.tech : undefined}
            currentUserName={currentUserName}
            canWrite={canWrite}
            hidden={view !== 'form'}
            renderCustomerField={renderCustomerField}
            onShowHistory={() => setView('history')}
            onOpenFullEntry={onOpenFullEntry}
            onClose={onClose}
          />
        ) : null}
        {jobId && view === 'history' ? renderHistory(jobId) : null}
      </DialogContent>
    </Dialog>
  );
}

/** The job's boxes the calendar shows, in its order. */
const APPOINTMENT_LAYOUT = ['name', 'phone', 'part', 'makeModel', 'jobType', 'tech', 'appointment', 'duration', 'quote', 'notes'] as const;

function AppointmentEditor({
  instance,
  zone,
  initial,
  start,
  tech,
  currentUserName,
  canWrite,
  hidden,
  renderCustomerField,
  onShowHistory,
  onOpenFullEntry,
  onClose,
}: {
  instance: string;
  zone: string;
  initial: LoadedAppointment | null;
  start: Date | null;
  tech: string | undefined;
  currentUserName: string;
  canWrite: boolean;
  hidden: boolean;
  renderCustomerField: (props: CustomerFieldProps) => ReactNode;
  onShowHistory: () => void;
  onOpenFullEntry: (jobId: string) => void;
  onClose: () => void;
}) {
  const [base, setBase] = useState<LoadedAppointment | null>(initial);
  const [form, setForm] = useState<AppointmentForm>(() =>
    initial ? formFromJob(initial.job, zone) : newForm(start ?? new Date(), zone, tech),
  );
  const [errors, setErrors] = useState<AppointmentFormErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<JobView | null>(null);
  const create = useCreateAppointment(instance);
  const update = useUpdateAppointment(instance);
  const saving = create.isPending || update.isPending;

  const change = (patch: Partial<AppointmentForm>) => setForm((current) => ({ ...current, ...patch }));

  const chooseCustomer = (customer: CustomerSuggestion) => {
    change({ name: customer.name, customerId: customer.id, makeModel: form.makeModel || customer.vehicles[0] || '' });
    fillWholePhone(instance, customer.id, setForm);
  };

  const loadCurrent = () => {
    if (!conflict) return;
    setBase({ job: conflict, etag: revisionETag(conflict.revision) });
    setForm(formFromJob(conflict, zone));
    setConflict(null);
    setSaveError(null);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const found = appointmentFormErrors(form, zone, !base);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaveError(null);
    setConflict(null);
    const entry = appointmentPayload(form, zone, base ? null : { csr: currentUserName });
    if (!base) {
      create.mutate(entry, {
        onSuccess: () => {
          toast({ title: 'Appointment created' });
          onClose();
        },
        onError: (failure) => {
          reportFailure('Create appointment failed', failure);
          setSaveError(errorMessage(failure, 'Failed to create appointment'));
        },
      });
      return;
    }
    update.mutate(
      { jobId: base.job.id, entry, etag: base.etag },
      {
        onSuccess: () => {
          toast({ title: 'Appointment updated' });
          onClose();
        },
        onError: (failure) => {
          reportFailure('Update appointment failed', failure);
          setConflict(conflictingJob(failure));
          setSaveError(errorMessage(failure, 'Failed to update appointment'));
        },
      },
    );
  };

  const required = (label: string) => (base ? label : `${label} *`);

  return (
    <form onSubmit={submit} noValidate className={hidden ? 'hidden' : 'grid gap-5'}>
      <fieldset disabled={!canWrite} className="grid min-w-0 gap-4 sm:grid-cols-2">
        <JobFields
          instance={instance}
          idPrefix="appointment"
          values={form}
          onChange={(patch: Partial<JobFieldValues>) =>
            // The duration cannot be cleared: an appointment always takes some time.
            change(patch.duration === '' ? { ...patch, duration: '60' } : patch)
          }
          layout={APPOINTMENT_LAYOUT}
          labels={{
            name: required('Customer Name'),
            phone: required('Phone'),
            part: required('Part/Service'),
            makeModel: 'Vehicle',
            jobType: 'Job Type',
            tech: 'Technician',
            appointment: 'Appointment Date & Time',
            duration: 'Duration',
            quote: 'Quote Amount',
            notes: 'Notes',
          }}
          errors={errors}
          hints={{
            // The appointment's job is on a vehicle record: its page has everything done to it.
            makeModel: base?.job.vehicleId ? (
              <Link className="font-medium text-primary underline-offset-4 hover:underline" to={vehiclePath(instance, base.job.vehicleId)}>
                Open the vehicle&apos;s page
              </Link>
            ) : undefined,
          }}
          nameControl={({ id, error }) =>
            renderCustomerField({
              id,
              value: form.name,
              onChange: (name) => change({ name, customerId: name === form.name ? form.customerId : null }),
              onChoose: chooseCustomer,
              error,
            })
          }
          durations={CALENDAR_DURATIONS}
          empty={{ jobType: { noneLabel: null }, tech: { noneLabel: 'Unassigned' }, duration: { noneLabel: null } }}
          quote={{ placeholder: '0' }}
        />
      </fieldset>

      {saveError ? (
        <Alert>
          <SaveErrorMessage message={saveError} onLoadCurrent={conflict ? loadCurrent : undefined} />
        </Alert>
      ) : null}

      <DialogFooter sticky>
        {base ? (
          <div className="flex flex-wrap gap-2 sm:mr-auto">
            <Button type="button" variant="outline" onClick={onShowHistory}>
              <HistoryIcon />
              History
            </Button>
            <Button type="button" variant="link" onClick={() => onOpenFullEntry(base.job.id)}>
              Open full entry
            </Button>
          </div>
        ) : null}
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        {canWrite ? (
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : base ? 'Save Changes' : 'Create Appointment'}
          </Button>
        ) : null}
      </DialogFooter>
    </form>
  );
}
