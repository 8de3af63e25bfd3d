import type { StoredDomainEvent } from '../events.ts';
import { formatPhone } from '../shared/phone.ts';
import { storedFieldChange } from '../shared/timeline.ts';
import { jobEventChanges, jobHistoryAction, type JobStreamEvent } from './events.ts';
import type { JobFields } from './fields.ts';
import { formatQuote, quoteText } from './format.ts';
import { repairOrderEventChanges, repairOrderHistoryAction, type RepairOrderJobEvent } from '../repair-orders/index.ts';
import { DEFAULT_DURATION_MINUTES, stageOrder, type Stage } from './stages.ts';

/**
 * The pipeline's rows: `jobs` and `job_history` as columns, a job's fields to and from its row,
 * and the row of each job event. Shared by the live projection, the rebuild and the queries.
 */
/** A row of `jobs` as the database returns it. */
export interface JobRow {
  id: string;
  instance_id: string;
  job_number: string;
  number: number | null;
  customer_id: string | null;
  vehicle_id: string | null;
  mileage_in: number | null;
  mileage_out: number | null;
  name: string;
  phone: string;
  part: string;
  make_model: string;
  /** numeric(14, 2): pg hands it over as text. */
  quote: string | number | null;
  stage: Stage;
  stage_order: number;
  vin: string;
  csr: string;
  job_type: string;
  appointment: Date | null;
  /** Where the calendar block ends: appointment + duration (60 minutes when none). */
  appointment_end: Date | null;
  duration: number | null;
  tech: string;
  notes: string;
  created_at: Date;
  created_by: string;
  updated_at: Date;
  revision: number;
  search: string;
}

const INT4_MAX = 2_147_483_647;

/** The job number as an integer when it is one (sorting, "next number" checks). */
export function numericJobNumber(jobNumber: string): number | null {
  if (!/^\d{1,10}$/.test(jobNumber)) return null;
  const value = Number(jobNumber);
  return value <= INT4_MAX ? value : null;
}

/**
 * What `?q=` searches, lower-cased: every field listed below, the phone both as digits
 * and formatted, the quote both as digits and as '$1,234'.
 */
export function jobSearchText(fields: JobFields): string {
  const parts = [
    fields.jobNumber,
    fields.name,
    fields.phone,
    fields.phone ? formatPhone(fields.phone) : '',
    fields.part,
    fields.makeModel,
    fields.quote === null ? '' : `${quoteText(fields.quote)} ${formatQuote(fields.quote)}`,
    fields.stage,
    fields.vin,
    fields.csr,
    fields.jobType,
    fields.tech,
    fields.notes,
  ];
  return parts
    .filter((part) => part !== '')
    .join('\n')
    .toLowerCase();
}

/** The end of the job's calendar block (the calendar's range queries overlap with it). */
export function appointmentEnd(fields: Pick<JobFields, 'appointment' | 'duration'>): string | null {
  if (!fields.appointment) return null;
  return new Date(Date.parse(fields.appointment) + (fields.duration ?? DEFAULT_DURATION_MINUTES) * 60_000).toISOString();
}

export function columnsOf(fields: JobFields) {
  return {
    job_number: fields.jobNumber,
    number: numericJobNumber(fields.jobNumber),
    customer_id: fields.customerId,
    vehicle_id: fields.vehicleId,
    mileage_in: fields.mileageIn,
    mileage_out: fields.mileageOut,
    name: fields.name,
    phone: fields.phone,
    part: fields.part,
    make_model: fields.makeModel,
    quote: fields.quote,
    stage: fields.stage,
    stage_order: stageOrder(fields.stage),
    vin: fields.vin,
    csr: fields.csr,
    job_type: fields.jobType,
    appointment: fields.appointment,
    appointment_end: appointmentEnd(fields),
    duration: fields.duration,
    tech: fields.tech,
    notes: fields.notes,
    search: jobSearchText(fields),
  };
}

export function fieldsOfRow(row: JobRow): JobFields {
  return {
    jobNumber: row.job_number,
    name: row.name,
    phone: row.phone,
    part: row.part,
    makeModel: row.make_model,
    quote: row.quote === null ? null : Number(row.quote),
    stage: row.stage,
    vin: row.vin,
    csr: row.csr,
    jobType: row.job_type,
    appointment: row.appointment ? new Date(row.appointment).toISOString() : null,
    duration: row.duration,
    tech: row.tech,
    notes: row.notes,
    customerId: row.customer_id,
    vehicleId: row.vehicle_id ?? null,
    mileageIn: row.mileage_in ?? null,
    mileageOut: row.mileage_out ?? null,
  };
}

export const HISTORY_COLUMNS = {
  event_id: 'uuid',
  instance_id: 'uuid',
  job_id: 'uuid',
  revision: 'integer',
  action: 'text',
  user_display_name: 'text',
  occurred_at: 'timestamptz',
  recorded_at: 'timestamptz',
  changes: 'jsonb',
  actor_id: 'text',
  revert_of: 'text',
};

export const JOB_COLUMNS = {
  id: 'uuid',
  instance_id: 'uuid',
  job_number: 'text',
  number: 'integer',
  customer_id: 'uuid',
  vehicle_id: 'uuid',
  mileage_in: 'integer',
  mileage_out: 'integer',
  name: 'text',
  phone: 'text',
  part: 'text',
  make_model: 'text',
  quote: 'numeric',
  stage: 'text',
  stage_order: 'smallint',
  vin: 'text',
  csr: 'text',
  job_type: 'text',
  appointment: 'timestamptz',
  appointment_end: 'timestamptz',
  duration: 'integer',
  tech: 'text',
  notes: 'text',
  created_at: 'timestamptz',
  created_by: 'text',
  updated_at: 'timestamptz',
  revision: 'integer',
  search: 'text',
};

/**
 * `job_counts` keeps each instance's count per stage in this many rows (shards), summed when
 * read: every create adds 1 to a count row inside its append's transaction, and with one row
 * per stage the creates of one instance waited on that row's lock until each committed.
 */
export const JOB_COUNT_SHARDS = 32;

/**
 * The count row (shard) a job counts in: from its id (the last byte of the uuid), so the same
 * job always counts in the same row and a rebuild makes exactly the rows the projection keeps.
 */
export function jobCountShard(jobId: string): number {
  return Number.parseInt(jobId.slice(-2), 16) % JOB_COUNT_SHARDS;
}

/** jobCountShard in SQL, for a uuid column or expression. */
export function jobCountShardSql(id: string): string {
  return `(get_byte(uuid_send(${id}), 15) % ${JOB_COUNT_SHARDS})::smallint`;
}

/** The columns of `job_counts`. */
export const JOB_COUNT_COLUMNS = { instance_id: 'uuid', stage_order: 'smallint', shard: 'smallint', total: 'integer' };

/** A job as the events applied so far leave it: its columns and whether its row exists. */
export interface FoldedJob {
  fields: JobFields;
  instanceId: string;
  createdAt: Date;
  createdBy: string;
  updatedAt: Date;
  revision: number;
  /** The row exists (a deleted job's does not). */
  present: boolean;
}

/** The jobs row of a folded job: one mapping for the projector and the rebuild. */
export function jobRow(id: string, job: FoldedJob) {
  return {
    id,
    instance_id: job.instanceId,
    ...columnsOf(job.fields),
    created_at: job.createdAt,
    created_by: job.createdBy,
    updated_at: job.updatedAt,
    revision: job.revision,
  };
}

export type StoredJobEvent = StoredDomainEvent & JobStreamEvent;
export type StoredRepairOrderEvent = StoredDomainEvent & RepairOrderJobEvent;

/** A job event's row of `job_history`. */
export function jobHistoryRow(event: StoredJobEvent) {
  return {
    event_id: event.id,
    instance_id: event.metadata.instanceId!,
    job_id: event.data.jobId,
    revision: event.revision,
    action: jobHistoryAction(event),
    user_display_name: event.metadata.actor.displayName,
    occurred_at: event.metadata.occurredAt,
    // The time history shows: the event store's, the clock time travel (asOf) goes by.
    recorded_at: event.recordedAt,
    // Compact: [field, oldValue, newValue] per whole change (read back by fieldChangeFromStored).
    changes: jobEventChanges(event).map(storedFieldChange),
    actor_id: event.metadata.actor.id,
    revert_of: ('revertOf' in event.data ? event.data.revertOf : undefined) ?? null,
  };
}

/**
 * A job's repair-order events (lines, estimate, invoice, payments) share its stream: they
 * move its revision and time, and are rows of its history; their money is the
 * repair-orders slice's read model.
 */
export function repairOrderHistoryRow(event: StoredRepairOrderEvent) {
  return {
    event_id: event.id,
    instance_id: event.metadata.instanceId!,
    job_id: event.data.jobId,
    revision: event.revision,
    action: repairOrderHistoryAction(event),
    user_display_name: event.metadata.actor.displayName,
    occurred_at: event.metadata.occurredAt,
    recorded_at: event.recordedAt,
    changes: repairOrderEventChanges(event).map(storedFieldChange),
    actor_id: event.metadata.actor.id,
    revert_of: ('revertOf' in event.data ? event.data.revertOf : undefined) ?? null,
  };
}
