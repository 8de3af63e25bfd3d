import { INITIAL_STAGE, jobInput, type JobChangesInput, type Stage } from '@crm/projections/pipeline';
import { formatPhoneAsTyped, phoneDigits } from '@crm/projections/shared';
import type { JobView } from '@crm/projections/pipeline';
import { fromDateTimeLocalValue, toDateTimeLocalValue } from './date-time';

/** The entry dialog's fields as the inputs hold them. */
export interface EntryForm {
  jobNumber: string;
  name: string;
  /** Grouped 3-3-4 as typed. */
  phone: string;
  part: string;
  makeModel: string;
  vin: string;
  /** Digits only. */
  quote: string;
  stage: Stage;
  /** ISO; read-only. */
  createdAt: string;
  csr: string;
  jobType: string;
  /** A `datetime-local` value. */
  appointment: string;
  /** Minutes, '' for none. */
  duration: string;
  tech: string;
  notes: string;
  customerId: string | null;
  /** The vehicle record the job is on (null: none). */
  vehicleId: string | null;
  /** As typed ('' for none). */
  mileageIn: string;
  mileageOut: string;
  /** What confirms a reading lower than the vehicle's last one (sent only then). */
  mileageLowerReason: string;
}

export type EntryTextField = Exclude<keyof EntryForm, 'stage' | 'createdAt' | 'customerId' | 'vehicleId'>;

/** A new entry: empty, stage Quote, created now, CSR the signed-in user. */
export function emptyEntryForm(csr: string, now: Date = new Date()): EntryForm {
  return {
    jobNumber: '',
    name: '',
    phone: '',
    part: '',
    makeModel: '',
    vin: '',
    quote: '',
    stage: INITIAL_STAGE,
    createdAt: now.toISOString(),
    csr,
    jobType: '',
    appointment: '',
    duration: '',
    tech: '',
    notes: '',
    customerId: null,
    vehicleId: null,
    mileageIn: '',
    mileageOut: '',
    mileageLowerReason: '',
  };
}

/** The form for a job read on its own (whole phone); never for a list row, whose phone is masked. */
export function entryFormFromJob(job: JobView): EntryForm {
  return {
    jobNumber: job.jobNumber,
    name: job.name,
    phone: formatPhoneAsTyped(job.phone),
    part: job.part,
    makeModel: job.makeModel,
    vin: job.vin,
    quote: job.quote,
    stage: job.stage,
    createdAt: job.createdAt,
    csr: job.csr,
    jobType: job.jobType,
    appointment: toDateTimeLocalValue(job.appointment),
    duration: job.duration === null ? '' : String(job.duration),
    tech: job.tech,
    notes: job.notes,
    customerId: job.customerId,
    vehicleId: job.vehicleId ?? null,
    mileageIn: job.mileageIn == null ? '' : String(job.mileageIn),
    mileageOut: job.mileageOut == null ? '' : String(job.mileageOut),
    mileageLowerReason: '',
  };
}

/**
 * Whether two versions of a job look the same in the entry form: a change the form does not
 * show (a line, the customer's approval of the estimate, a payment that leaves stage and
 * quote alone) is no change to what is being edited, so it asks nothing of the user.
 */
export function sameEntryFields(a: JobView, b: JobView): boolean {
  const left = entryFormFromJob(a);
  const right = entryFormFromJob(b);
  return (Object.keys(left) as Array<keyof EntryForm>).every((field) => left[field] === right[field]);
}

/**
 * The whole entry as the API takes it. An appointment the user did not touch is sent as it
 * was (the minute-precision input would otherwise shift seconds and record a reschedule).
 */
export function entryPayload(form: EntryForm, original?: JobView | null): JobChangesInput {
  const untouchedAppointment = original && form.appointment === toDateTimeLocalValue(original.appointment);
  return {
    jobNumber: form.jobNumber.trim(),
    name: form.name,
    phone: phoneDigits(form.phone),
    part: form.part,
    makeModel: form.makeModel,
    vin: form.vin.toUpperCase(),
    quote: form.quote,
    stage: form.stage,
    csr: form.csr,
    jobType: form.jobType,
    appointment: untouchedAppointment ? original.appointment : fromDateTimeLocalValue(form.appointment),
    duration: form.duration,
    tech: form.tech,
    notes: form.notes,
    customerId: form.customerId,
    vehicleId: form.vehicleId,
    mileageIn: form.mileageIn,
    mileageOut: form.mileageOut,
    ...(form.mileageLowerReason.trim() ? { mileageLowerReason: form.mileageLowerReason } : {}),
  };
}

/** The first problem the server would report for this entry (the shared schema), or null. */
export function entryProblem(payload: JobChangesInput): string | null {
  const result = jobInput.safeParse(payload);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid entry');
}
