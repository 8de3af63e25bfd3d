import { formatDuration, type CustomerSuggestion } from '@crm/projections/contract';
import { DEFAULT_CALENDAR_JOB_TYPE, JOB_LIMITS, JOB_TYPES, type JobChangesInput, type JobView } from '@crm/projections/pipeline';
import { formatPhoneAsTyped, revisionETag } from '@crm/projections/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { vehiclePath } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field, fieldControlProps } from '@/components/ui/field';
import { ArrowLeftIcon, HistoryIcon } from '@/components/ui/icons';
import { Textarea } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ChoiceSelect } from '@/components/choice-select';
import { PhoneInput } from '@/components/phone-input';
import { TextField } from '@/components/text-field';
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
import { useUserChoiceNames as useTechnicians } from '@/lib/api/user-choices';
import { getCustomerContact } from '@/lib/api/customer-contact';
import { CALENDAR_DURATIONS, SCHEDULED_STAGE } from '../constants/calendar-constants';
import { fromLocalInput, STEP_MINUTES, toLocalInput } from '../utils/calendar-time';

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

export interface AppointmentForm {
  name: string;
  phone: string;
  part: string;
  makeModel: string;
  jobType: string;
  tech: string;
  /** datetime-local text in the shop's zone. */
  appointment: string;
  duration: string;
  quote: string;
  notes: string;
  customerId: string | null;
}

type FormErrors = Partial<Record<'name' | 'phone' | 'part' | 'appointment', string>>;

export function formFromJob(job: JobView, zone: string): AppointmentForm {
  return {
    name: job.name,
    phone: formatPhoneAsTyped(job.phone),
    part: job.part,
    makeModel: job.makeModel,
    jobType: job.jobType,
    tech: job.tech,
    appointment: job.appointment ? toLocalInput(job.appointment, zone) : '',
    duration: job.duration === null ? '' : String(job.duration),
    quote: job.quote,
    notes: job.notes,
    customerId: job.customerId,
  };
}

export function newForm(start: Date, zone: string, tech = ''): AppointmentForm {
  return {
    name: '',
    phone: '',
    part: '',
    makeModel: '',
    jobType: DEFAULT_CALENDAR_JOB_TYPE,
    tech,
    appointment: toLocalInput(start, zone),
    duration: '60',
    quote: '',
    notes: '',
    customerId: null,
  };
}

/** Create New Appointment requires Customer Name, Phone and Part/Service (spec §5); a time that is no time is refused too. */
export function appointmentFormErrors(form: AppointmentForm, zone: string, creating: boolean): FormErrors {
  const errors: FormErrors = {};
  if (creating && !form.name.trim()) errors.name = 'Customer Name is required';
  if (creating && !form.phone.trim()) errors.phone = 'Phone is required';
  if (creating && !form.part.trim()) errors.part = 'Part/Service is required';
  if (form.appointment.trim() && !fromLocalInput(form.appointment, zone))
    errors.appointment = 'Appointment Date & Time is not a date and time';
  return errors;
}

/** What a save sends: the form's fields; a new appointment starts in Scheduled with its CSR. */
export function appointmentPayload(form: AppointmentForm, zone: string, create: { csr: string } | null): JobChangesInput {
  return {
    name: form.name.trim(),
    phone: form.phone,
    part: form.part.trim(),
    makeModel: form.makeModel.trim(),
    jobType: form.jobType,
    tech: form.tech,
    appointment: fromLocalInput(form.appointment, zone) ?? '',
    duration: form.duration,
    quote: form.quote.trim(),
    notes: form.notes,
    customerId: form.customerId,
    ...(create ? { stage: SCHEDULED_STAGE, csr: create.csr } : {}),
  } as JobChangesInput;
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
  const [errors, setErrors] = useState<FormErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<JobView | null>(null);
  const technicians = useTechnicians(instance);
  const create = useCreateAppointment(instance);
  const update = useUpdateAppointment(instance);
  const saving = create.isPending || update.isPending;
  const id = (field: string) => `appointment-${field}`;

  const change = (patch: Partial<AppointmentForm>) => setForm((current) => ({ ...current, ...patch }));
  const text = (field: keyof AppointmentForm) => (event: { target: { value: string } }) => change({ [field]: event.target.value });

  const chooseCustomer = (customer: CustomerSuggestion) => {
    change({ name: customer.name, customerId: customer.id, makeModel: form.makeModel || customer.vehicles[0] || '' });
    // Suggestions carry the phone masked; the customer read on its own has it whole.
    getCustomerContact(instance, customer.id)
      .then((contact) => {
        if (contact.phoneDigits)
          setForm((current) =>
            current.customerId === contact.id ? { ...current, phone: formatPhoneAsTyped(contact.phoneDigits) } : current,
          );
      })
      .catch((failure: unknown) => reportFailure('Reading the chosen customer failed', failure));
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

  // A resize in the week or day view can leave any quarter hour (1 h 45 min): offered in words, in order.
  const current = Number(form.duration);
  const durationChoices = [...new Set([...CALENDAR_DURATIONS, ...(current > 0 ? [current] : [])])]
    .sort((a, b) => a - b)
    .map((minutes) => ({ value: String(minutes), label: formatDuration(minutes) }));
  const techChoices = (technicians.data ?? []).map((name) => ({ value: name, label: name }));
  const required = (label: string) => (base ? label : `${label} *`);

  return (
    <form onSubmit={submit} noValidate className={hidden ? 'hidden' : 'grid gap-5'}>
      <fieldset disabled={!canWrite} className="grid min-w-0 gap-4 sm:grid-cols-2">
        <Field id={id('name')} label={required('Customer Name')} error={errors.name}>
          {renderCustomerField({
            id: id('name'),
            value: form.name,
            onChange: (name) => change({ name, customerId: name === form.name ? form.customerId : null }),
            onChoose: chooseCustomer,
            error: errors.name,
          })}
        </Field>
        <Field id={id('phone')} label={required('Phone')} error={errors.phone}>
          <PhoneInput
            {...fieldControlProps(id('phone'), { error: errors.phone })}
            value={form.phone}
            onChange={(phone) => change({ phone })}
          />
        </Field>
        <TextField
          id={id('part')}
          label={required('Part/Service')}
          error={errors.part}
          value={form.part}
          onChange={text('part')}
          maxLength={JOB_LIMITS.part}
          autoComplete="off"
        />
        <TextField
          id={id('makeModel')}
          label="Vehicle"
          hint={
            // The appointment's job is on a vehicle record: its page has everything done to it.
            base?.job.vehicleId ? (
              <Link className="font-medium text-primary underline-offset-4 hover:underline" to={vehiclePath(instance, base.job.vehicleId)}>
                Open the vehicle&apos;s page
              </Link>
            ) : undefined
          }
          value={form.makeModel}
          onChange={text('makeModel')}
          maxLength={JOB_LIMITS.makeModel}
          autoComplete="off"
        />
        <Field id={id('jobType')} label="Job Type">
          <ChoiceSelect
            id={id('jobType')}
            value={form.jobType}
            choices={JOB_TYPES.map((type) => ({ value: type, label: type }))}
            noneLabel={null}
            onChange={(jobType) => change({ jobType })}
          />
        </Field>
        <Field id={id('tech')} label="Technician">
          <ChoiceSelect
            id={id('tech')}
            value={form.tech}
            choices={techChoices}
            noneLabel="Unassigned"
            onChange={(tech) => change({ tech })}
          />
        </Field>
        <TextField
          id={id('appointment')}
          label="Appointment Date & Time"
          error={errors.appointment}
          type="datetime-local"
          step={STEP_MINUTES * 60}
          value={form.appointment}
          onChange={text('appointment')}
        />
        <Field id={id('duration')} label="Duration">
          <ChoiceSelect
            id={id('duration')}
            value={form.duration}
            choices={durationChoices}
            noneLabel={null}
            onChange={(duration) => change({ duration: duration || '60' })}
          />
        </Field>
        <TextField
          id={id('quote')}
          label="Quote Amount"
          inputMode="decimal"
          value={form.quote}
          onChange={text('quote')}
          placeholder="0"
          autoComplete="off"
        />
        <Field id={id('notes')} label="Notes" className="sm:col-span-2">
          <Textarea id={id('notes')} value={form.notes} onChange={text('notes')} maxLength={JOB_LIMITS.notes} rows={3} />
        </Field>
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
