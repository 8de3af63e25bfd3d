import { CUSTOMER_LIMITS } from '../customers/index.ts';
import { isBlankText } from '../shared/blank-text.ts';
import { INITIAL_STAGE, type Stage } from './stages.ts';

/** A job's fields as events and read models record them, their limits and messages. Browser-safe. */

/**
 * A job's fields as recorded in events and read models. Phone is digits only; quote in
 * dollars with at most two decimals (null when empty); appointment an ISO time (null when none); duration minutes.
 */
export interface JobFields {
  jobNumber: string;
  name: string;
  phone: string;
  part: string;
  makeModel: string;
  quote: number | null;
  stage: Stage;
  vin: string;
  csr: string;
  /** A JobType, or '' for none. */
  jobType: string;
  appointment: string | null;
  duration: number | null;
  tech: string;
  notes: string;
  customerId: string | null;
  /** The vehicle record the job is on (null for none: older jobs keep their free text in makeModel/vin). */
  vehicleId: string | null;
  /** Odometer readings when the vehicle came in and went out (null when not read). */
  mileageIn: number | null;
  mileageOut: number | null;
}

export type JobField = keyof JobFields;

/** In entry-form order. */
export const JOB_FIELDS = [
  'jobNumber',
  'name',
  'phone',
  'part',
  'makeModel',
  'vin',
  'quote',
  'stage',
  'csr',
  'jobType',
  'appointment',
  'duration',
  'tech',
  'notes',
  'customerId',
  'vehicleId',
  'mileageIn',
  'mileageOut',
] as const satisfies readonly JobField[];

/** Field names in words (history, audit log, forms). */
export const JOB_FIELD_LABELS: Record<JobField, string> = {
  jobNumber: 'Job Number',
  name: 'Name',
  phone: 'Phone',
  part: 'Part',
  makeModel: 'Vehicle',
  quote: 'Quote',
  stage: 'Stage',
  vin: 'VIN',
  csr: 'CSR',
  jobType: 'Job Type',
  appointment: 'Appointment',
  duration: 'Duration',
  tech: 'Tech',
  notes: 'Notes',
  customerId: 'Customer',
  vehicleId: 'Vehicle record',
  mileageIn: 'Mileage in',
  mileageOut: 'Mileage out',
};

export const EMPTY_JOB_FIELDS: JobFields = {
  jobNumber: '',
  name: '',
  phone: '',
  part: '',
  makeModel: '',
  quote: null,
  stage: INITIAL_STAGE,
  vin: '',
  csr: '',
  jobType: '',
  appointment: null,
  duration: null,
  tech: '',
  notes: '',
  customerId: null,
  vehicleId: null,
  mileageIn: null,
  mileageOut: null,
};

/** Name and vehicle fit a customer's (a new entry's name creates its customer). */
export const JOB_LIMITS = {
  jobNumber: 50,
  name: CUSTOMER_LIMITS.name,
  part: 200,
  makeModel: CUSTOMER_LIMITS.vehicle,
  vin: 32,
  csr: 100,
  tech: 100,
  notes: 5000,
  quoteMax: 999_999_999,
  durationMax: 1440,
} as const;

export const JOB_MESSAGES = {
  atLeastOne: 'At least one field must be filled out',
  quoteFormat: 'Quote must be an amount in dollars, like 1250, 1,250.50 or 89.95 (at most 2 decimals)',
  quoteTooLarge: `Quote must be at most ${JOB_LIMITS.quoteMax.toLocaleString('en-US')} dollars`,
  appointment: 'Appointment must be an ISO date and time with a time zone, e.g. 2025-03-01T09:00:00Z',
  duration: `Duration must be a whole number of minutes from 1 to ${JOB_LIMITS.durationMax}`,
  customerId: 'customerId must be the id of a customer',
  vehicleId: 'vehicleId must be the id of a vehicle',
  notFound: 'Job not found',
  reopenOnlyCanceled: 'Only a canceled job can be reopened',
  numberInUse: (jobNumber: string) => `Job number ${jobNumber} is already in use`,
} as const;

/**
 * Fields that count as "filled out": everything but the stage, which always has a value,
 * and the CSR, which the entry dialog fills in with the signed-in user.
 */
export function isBlankJob(fields: Partial<JobFields>): boolean {
  return JOB_FIELDS.every((field) => {
    if (field === 'stage' || field === 'csr') return true;
    const value = fields[field];
    return value === undefined || value === null || (typeof value === 'string' && isBlankText(value));
  });
}
