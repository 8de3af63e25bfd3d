import type { Projection } from '../runtime/projection.ts';
import { formatPhone } from '../shared/phone.ts';
import { applyJobEvent, isJobStreamEvent, jobEventChanges, jobHistoryAction } from './events.ts';
import type { JobFields } from './fields.ts';
import { formatQuote, quoteText } from './format.ts';
import { stageOrder, type Stage } from './stages.ts';

/** A row of `jobs` as the database returns it. */
export interface JobRow {
  id: string;
  instance_id: string;
  job_number: string;
  number: number | null;
  customer_id: string | null;
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
 * What `?q=` searches, lower-cased: every field the spec names, the phone both as digits
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

function columnsOf(fields: JobFields) {
  return {
    job_number: fields.jobNumber,
    number: numericJobNumber(fields.jobNumber),
    customer_id: fields.customerId,
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
  };
}

/**
 * `jobs` (the pipeline, the calendar) and `job_history` (one row per job event, with
 * per-field old and new values). Rows are guarded by the stream revision, so a replayed
 * batch changes nothing. Times are when the event store recorded the events: the clock
 * history and time travel go by.
 */
export const pipelineProjection: Projection = {
  name: 'pipeline',
  async apply(event, { table }) {
    if (!isJobStreamEvent(event)) return;
    const instanceId = event.metadata.instanceId;
    if (!instanceId) return;
    await table('job_history')
      .insert({
        event_id: event.id,
        instance_id: instanceId,
        job_id: event.data.jobId,
        revision: event.revision,
        action: jobHistoryAction(event),
        user_display_name: event.metadata.actor.displayName,
        occurred_at: event.metadata.occurredAt,
        // The time history shows: the event store's, the clock time travel (asOf) goes by.
        recorded_at: event.recordedAt,
        changes: JSON.stringify(jobEventChanges(event)),
      })
      .onConflict('event_id')
      .ignore();

    if (event.type === 'JobCreated') {
      const fields = applyJobEvent(null, event)!;
      await table('jobs')
        .insert({
          id: event.data.jobId,
          instance_id: instanceId,
          ...columnsOf(fields),
          created_at: event.recordedAt,
          created_by: event.metadata.actor.displayName,
          updated_at: event.recordedAt,
          revision: event.revision,
        })
        .onConflict('id')
        .ignore();
      return;
    }
    const row = (await table('jobs').where({ id: event.data.jobId }).first()) as JobRow | undefined;
    if (!row || row.revision >= event.revision) return;
    const next = applyJobEvent(fieldsOfRow(row), event);
    if (!next) {
      // A deleted job leaves the lists; its history rows and the activity log keep it.
      await table('jobs').where({ id: row.id }).delete();
      return;
    }
    await table('jobs')
      .where({ id: row.id })
      .update({ ...columnsOf(next), updated_at: event.recordedAt, revision: event.revision });
  },
};
