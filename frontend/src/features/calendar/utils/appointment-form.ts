import { DEFAULT_CALENDAR_JOB_TYPE, type JobChangesInput, type JobView } from '@crm/projections/pipeline';
import { formatPhoneAsTyped } from '@crm/projections/shared';
import type { JobFieldValues } from '@/components/job-form';
import { SCHEDULED_STAGE } from '../constants/calendar-constants';
import { fromLocalInput, toLocalInput } from './calendar-time';

/** The appointment dialog's boxes as typed (the appointment as datetime-local text in the shop's zone), and the linked customer. */
export interface AppointmentForm extends JobFieldValues {
  customerId: string | null;
}

export type AppointmentFormErrors = Partial<Record<'name' | 'phone' | 'part' | 'appointment', string>>;

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

/** Create New Appointment requires Customer Name, Phone and Part/Service; a time that is no time is refused too. */
export function appointmentFormErrors(form: AppointmentForm, zone: string, creating: boolean): AppointmentFormErrors {
  const errors: AppointmentFormErrors = {};
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
