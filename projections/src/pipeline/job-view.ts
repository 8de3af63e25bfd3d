import { z } from 'zod';
import { recordPageSchema } from '../shared/list-query.ts';
import { JOB_FIELDS, type JobField, type JobFields } from './fields.ts';
import { jobTotalsSchema } from './totals-schema.ts';
import { quoteText } from './format.ts';
import { STAGES } from './stages.ts';

/** What a job's routes answer: the job, a page of jobs, its history, an appointment. */

/**
 * A pipeline job. `phone` is whole (digits) on single-job answers and masked
 * ('•••-•••-1234') in lists. `quote` is the digits ('' when empty), `appointment` an ISO
 * time or '', `duration` minutes or null. `revision` is what the ETag carries.
 */
export const jobViewSchema = z.object({
  id: z.string(),
  jobNumber: z.string(),
  name: z.string(),
  phone: z.string(),
  part: z.string(),
  makeModel: z.string(),
  quote: z.string(),
  stage: z.enum(STAGES),
  vin: z.string(),
  csr: z.string(),
  /** A JobType, or '' for none (free text in events written before the vocabulary grew). */
  jobType: z.string(),
  appointment: z.string(),
  duration: z.number().int().nullable(),
  tech: z.string(),
  notes: z.string(),
  customerId: z.string().nullable(),
  /** The vehicle record and the odometer in/out (the server always sends them; optional for clients' own fixtures). */
  vehicleId: z.string().nullable().optional(),
  mileageIn: z.number().int().nullable().optional(),
  mileageOut: z.number().int().nullable().optional(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  revision: z.number().int().nonnegative(),
  /** The repair order's money (lines, tax, payments); absent on answers written before repair orders. */
  totals: jobTotalsSchema.optional(),
});
export type JobView = z.infer<typeof jobViewSchema>;

/** `total`: how many jobs match the filters. */
export const jobPageSchema = recordPageSchema(jobViewSchema);
export type JobPage = z.infer<typeof jobPageSchema>;

const changeValue = z.union([z.string(), z.number(), z.null()]);

/**
 * A field change in the API's representation of the field (quote as digits, appointment ISO
 * or ''). `field` is a job field, or for repair-order changes a line's field ("Brake pads
 * (part): quantity") or what the event recorded ("payment", "invoice").
 */
export const jobFieldChangeSchema = z.object({
  field: z.union([z.enum(JOB_FIELDS), z.string()]),
  oldValue: changeValue,
  newValue: changeValue,
});
export type JobFieldChange = z.infer<typeof jobFieldChangeSchema>;

/**
 * The repair order's history actions (lines, estimate, invoice, payments): its events are on the
 * job's own stream, so the job's history lists them. Named here, where the history is; the
 * repair-orders slice maps its events onto them.
 */
export const REPAIR_ORDER_HISTORY_ACTIONS = [
  'line-added',
  'line-changed',
  'line-removed',
  'lines-reordered',
  'estimate-sent',
  'estimate-revoked',
  'estimate-approved',
  'estimate-declined',
  'invoice-issued',
  'payment-recorded',
  'refund-recorded',
] as const;
export type RepairOrderHistoryAction = (typeof REPAIR_ORDER_HISTORY_ACTIONS)[number];

export const JOB_HISTORY_ACTIONS = [
  'created',
  'updated',
  'stage-changed',
  'rescheduled',
  'canceled',
  'reopened',
  'deleted',
  'restored',
  ...REPAIR_ORDER_HISTORY_ACTIONS,
  // A change whose recorded event fails its schema; listed without its values.
  'unshowable',
] as const;
export type JobHistoryAction = (typeof JOB_HISTORY_ACTIONS)[number];

export const jobHistoryEntrySchema = z.object({
  /** The event's id. */
  id: z.string(),
  action: z.enum(JOB_HISTORY_ACTIONS),
  userDisplayName: z.string(),
  /** ISO time; `GET …/{id}?asOf=` with it shows the job as of that instant. */
  timestamp: z.string(),
  /** The job's revision this change made; `GET …/{id}?asOfRevision=` with it shows the job right after this change. */
  revision: z.number().int(),
  changes: z.array(jobFieldChangeSchema),
  /** This change undid the change with this id (a revert from the history). */
  revertOf: z.string().nullable().optional(),
  /**
   * Whether the caller may revert this change now (`POST …/history/{id}/revert` accepts it
   * unless the job changes in between): the revert command's own rule. False for a change of
   * fields set again later, a line frozen by an invoice, a quote change of a job with
   * repair-order lines (its quote is their total; undo the line change instead).
   */
  canRevert: z.boolean().optional(),
  /** Why a revert the caller could otherwise make would be refused now (the 409's words). */
  revertRefused: z.string().optional(),
});
export type JobHistoryEntry = z.infer<typeof jobHistoryEntrySchema>;

export const jobHistorySchema = z.array(jobHistoryEntrySchema);

/** A job on the calendar: the job plus where its block ends (start + duration, 60 min by default). */
export const appointmentViewSchema = jobViewSchema.extend({ appointmentEnd: z.string() });
export type AppointmentView = z.infer<typeof appointmentViewSchema>;

export const appointmentListSchema = z.object({ items: z.array(appointmentViewSchema) });

/** A field's value as the API shows it. */
export function jobApiValue(field: JobField, value: JobFields[JobField]): string | number | null {
  // Only two fields read differently; every other is shown as stored.
  if (field === 'quote') return value === null ? '' : quoteText(value as number);
  if (field === 'appointment') return value ?? '';
  return value;
}
