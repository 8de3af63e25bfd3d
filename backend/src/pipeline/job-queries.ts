import type { Knex } from 'knex';
import { readableEvents, type StoredDomainEvent } from '@crm/projections/events';
import { applyJobEvent, isJobStreamEvent, jobApiValue, type JobFields, type JobView } from '@crm/projections/pipeline';
import { isUuid, maskPhone } from '@crm/projections/shared';
import type { EventStore } from '@crm/projections/eventstore/port';
import { fieldsOfRow, type JobRow } from '@crm/projections/pipeline/job-rows';
import { withTenant } from '../infra/tenant-db.ts';
import { type AsOf, readStreamAsOf } from '../shared/time-travel.ts';
import { isoTimeSql, maskedPhoneSql } from '../shared/json-sql.ts';
import { jobStream } from './job-decider.ts';

/** A job of one instance. */
export interface JobTarget {
  instanceId: string;
  jobId: string;
}

function toJobView(
  jobId: string,
  fields: JobFields,
  meta: { createdAt: string; createdBy: string; updatedAt: string; revision: number },
): JobView {
  return {
    id: jobId,
    jobNumber: fields.jobNumber,
    name: fields.name,
    phone: fields.phone,
    part: fields.part,
    makeModel: fields.makeModel,
    quote: jobApiValue('quote', fields.quote) as string,
    stage: fields.stage,
    vin: fields.vin,
    csr: fields.csr,
    jobType: fields.jobType,
    appointment: jobApiValue('appointment', fields.appointment) as string,
    duration: fields.duration,
    tech: fields.tech,
    notes: fields.notes,
    customerId: fields.customerId,
    vehicleId: fields.vehicleId,
    mileageIn: fields.mileageIn,
    mileageOut: fields.mileageOut,
    createdAt: meta.createdAt,
    createdBy: meta.createdBy,
    updatedAt: meta.updatedAt,
    revision: meta.revision,
  };
}

export function jobViewOfRow(row: JobRow): JobView {
  return toJobView(row.id, fieldsOfRow(row), {
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
    updatedAt: new Date(row.updated_at).toISOString(),
    revision: row.revision,
  });
}

/** Lists show the last 4 digits of a phone only. */
export function masked<T extends JobView>(view: T): T {
  return { ...view, phone: maskPhone(view.phone) };
}

/**
 * A jobs row `alias` as its list view's JSON text, built by PostgreSQL as
 * `masked(jobViewOfRow(row))` builds it (same keys in the same order, the phone masked),
 * with `extra` (`, <expression> AS "<key>"`, …) appended as further keys. The quote reads as
 * jobApiValue writes it: '' for none, whole dollars without cents, else two decimals.
 */
export function jobListViewJsonSql(alias: string, extra = ''): string {
  const j = alias;
  return `(SELECT row_to_json(v)::text FROM (SELECT ${j}.id, ${j}.job_number AS "jobNumber", ${j}.name,
    ${maskedPhoneSql(`${j}.phone`)} AS phone, ${j}.part, ${j}.make_model AS "makeModel",
    CASE WHEN ${j}.quote IS NULL THEN '' WHEN ${j}.quote = trunc(${j}.quote) THEN trunc(${j}.quote)::text
         ELSE round(${j}.quote, 2)::text END AS quote,
    ${j}.stage, ${j}.vin, ${j}.csr, ${j}.job_type AS "jobType", coalesce(${isoTimeSql(`${j}.appointment`)}, '') AS appointment,
    ${j}.duration, ${j}.tech, ${j}.notes, ${j}.customer_id AS "customerId", ${j}.vehicle_id AS "vehicleId",
    ${j}.mileage_in AS "mileageIn", ${j}.mileage_out AS "mileageOut", ${isoTimeSql(`${j}.created_at`)} AS "createdAt",
    ${j}.created_by AS "createdBy", ${isoTimeSql(`${j}.updated_at`)} AS "updatedAt", ${j}.revision${extra}) v)`;
}

/**
 * The job its events describe, folded in order; null when the stream holds no job of
 * this instance or the job is deleted by the last event given.
 */
export function jobViewFromEvents(events: StoredDomainEvent[], instanceId: string): JobView | null {
  let fields: JobFields | null = null;
  let created: (StoredDomainEvent & { data: { jobId: string } }) | null = null;
  let last: StoredDomainEvent | null = null;
  for (const event of events) {
    // Repair-order events share the stream: they move the job's revision and time, not its fields.
    if (!isJobStreamEvent(event)) {
      if (fields) last = event;
      continue;
    }
    if (event.type === 'JobCreated') {
      if (event.data.instanceId !== instanceId) return null;
      created = event;
    }
    fields = applyJobEvent(fields, event);
    last = event;
  }
  if (!fields || !created || !last) return null;
  // The recorded times, as the read model has them.
  return toJobView(created.data.jobId, fields, {
    createdAt: created.recordedAt.toISOString(),
    createdBy: created.metadata.actor.displayName,
    updatedAt: last.recordedAt.toISOString(),
    revision: last.revision,
  });
}

/**
 * Time travel: the job as it was at `asOf` (null: now), folded from its own events as the
 * event store recorded them by then; the time of a history row (the recorded time too)
 * shows the job right after that change.
 */
export async function jobAsOf(store: EventStore, target: JobTarget, asOf: AsOf | null): Promise<JobView | null> {
  if (!isUuid(target.jobId)) return null;
  const recorded = await readStreamAsOf(store, jobStream(target.jobId), asOf);
  const events = readableEvents(recorded).events;
  return jobViewFromEvents(events, target.instanceId);
}

const jobsOf = (db: Knex, instanceId: string) => db.withSchema('rm').from('jobs').where('instance_id', instanceId);

/** A job of this instance as the read model has it; null for an unknown id or one of another instance. */
export async function findJob(knex: Knex, target: JobTarget): Promise<JobView | null> {
  const row = await findJobRow(knex, target);
  return row ? jobViewOfRow(row) : null;
}

/** The jobs row of a job of this instance (one round trip); null for an unknown id, a deleted job or one of another instance. */
export async function findJobRow(knex: Knex, target: JobTarget): Promise<JobRow | null> {
  if (!isUuid(target.jobId)) return null;
  const row = (await withTenant(knex, target.instanceId, (db) => jobsOf(db, target.instanceId).where('id', target.jobId).first())) as
    JobRow | undefined;
  return row ?? null;
}

/**
 * The highest numeric job number of an instance as the read model has it (0 for none):
 * where the job-number allocator starts. It may trail the event store; the allocator's
 * reservations make up for that.
 */
export async function highestJobNumber(knex: Knex, instanceId: string): Promise<number> {
  const row = (await knex.withSchema('rm').from('jobs').where('instance_id', instanceId).max({ n: 'number' }).first()) as
    { n: number | null } | undefined;
  return row?.n ?? 0;
}
