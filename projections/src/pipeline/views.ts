import type { JobField, JobFields } from './fields.ts';
import { quoteText } from './format.ts';
import type { Stage } from './stages.ts';

/** What the pipeline's routes answer with. Browser-safe. */

/**
 * A pipeline job. `phone` is whole (digits) on single-job answers and masked
 * ('•••-•••-1234') in lists. `quote` is the digits ('' when empty), `appointment` an ISO
 * time or '', `duration` minutes or null. `revision` is what the ETag carries.
 */
export interface JobView {
  id: string;
  jobNumber: string;
  name: string;
  phone: string;
  part: string;
  makeModel: string;
  quote: string;
  stage: Stage;
  vin: string;
  csr: string;
  jobType: string;
  appointment: string;
  duration: number | null;
  tech: string;
  notes: string;
  customerId: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  revision: number;
}

export interface JobPage {
  items: JobView[];
  /** Opaque; pass back as `cursor` (with the same filters) for the next page. Null on the last page. */
  nextCursor: string | null;
  /** How many jobs match the filters. */
  total: number;
}

/** A field change in the API's representation of the field (quote as digits, appointment ISO or ''). */
export interface JobFieldChange {
  field: JobField;
  oldValue: string | number | null;
  newValue: string | number | null;
}

export const JOB_HISTORY_ACTIONS = ['created', 'updated', 'stage-changed', 'rescheduled', 'canceled', 'reopened', 'deleted'] as const;
export type JobHistoryAction = (typeof JOB_HISTORY_ACTIONS)[number];

export interface JobHistoryEntry {
  /** The event's id. */
  id: string;
  action: JobHistoryAction;
  userDisplayName: string;
  /** ISO time; `GET …/{id}?asOf=` with it shows the job right after this change. */
  timestamp: string;
  changes: JobFieldChange[];
}

/** A job on the calendar: the job plus where its block ends (start + duration, 60 min by default). */
export interface AppointmentView extends JobView {
  appointmentEnd: string;
}

/** A field's value as the API shows it. */
export function jobApiValue(field: JobField, value: JobFields[JobField]): string | number | null {
  switch (field) {
    case 'quote':
      return value === null ? '' : quoteText(value as number);
    case 'appointment':
      return value ?? '';
    default:
      return value;
  }
}
