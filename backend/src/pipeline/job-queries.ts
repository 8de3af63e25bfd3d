import type { Knex } from 'knex';
import { readableEvents, type StoredDomainEvent } from '@crm/projections/events';
import {
  applyJobEvent,
  CANCELED_STAGE,
  isJobStreamEvent,
  jobApiValue,
  stageOrder,
  type JobFields,
  type JobHistoryEntry,
  type JobListQuery,
  type JobPage,
  type JobSort,
  type JobView,
} from '@crm/projections/pipeline';
import {
  type CursorKey,
  type CursorValue,
  decodeCursor,
  encodeCursor,
  isUuid,
  maskPhone,
  phoneSearchDigits,
} from '@crm/projections/shared';
import type { EventStore } from '@crm/projections/eventstore/port';
import { canRevertEntry, type Reverter } from '@crm/projections/records';
import { fieldsOfRow, type JobRow } from '@crm/projections/pipeline/projection';
import { withListedTotals } from '@crm/projections/repair-orders/list-totals';
import { likeContaining } from '../infra/sql.ts';
import { withTenant } from '../infra/tenant-db.ts';
import { ValidationError } from '../shared/errors.ts';
import { type AsOf, readStreamAsOf } from '../shared/time-travel.ts';
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
  if (!isUuid(target.jobId)) return null;
  const row = (await withTenant(knex, target.instanceId, (db) => jobsOf(db, target.instanceId).where('id', target.jobId).first())) as
    JobRow | undefined;
  return row ? jobViewOfRow(row) : null;
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

// ---- the pipeline list: filters, sorts, keyset pages -----------------------------------

interface SortKey {
  /** SQL expression over `jobs`. */
  sql: string;
  dir: 'asc' | 'desc';
  /** Its value in a row selected with `sort_key_N` aliases. */
  kind: 'number' | 'text' | 'time';
}

const SORT_KEYS: Record<JobSort, SortKey[]> = {
  stage: [
    { sql: 'stage_order', dir: 'asc', kind: 'number' },
    { sql: 'created_at', dir: 'desc', kind: 'time' },
    { sql: 'id', dir: 'desc', kind: 'text' },
  ],
  newest: [
    { sql: 'created_at', dir: 'desc', kind: 'time' },
    { sql: 'id', dir: 'desc', kind: 'text' },
  ],
  oldest: [
    { sql: 'created_at', dir: 'asc', kind: 'time' },
    { sql: 'id', dir: 'asc', kind: 'text' },
  ],
  'name-asc': [
    { sql: 'lower(name)', dir: 'asc', kind: 'text' },
    { sql: 'id', dir: 'asc', kind: 'text' },
  ],
  'name-desc': [
    { sql: 'lower(name)', dir: 'desc', kind: 'text' },
    { sql: 'id', dir: 'desc', kind: 'text' },
  ],
};

const INVALID_CURSOR = 'The cursor is not valid for this list; start again without it';

/** A job list's cursor: its sort, then the last row's values of that sort's keys. */
function jobCursor(sort: JobSort, values: CursorValue[]): string {
  return encodeCursor([sort, ...values]);
}

function decodeJobCursor(sort: JobSort, cursor: string): CursorValue[] {
  const kinds = SORT_KEYS[sort].map((key): CursorKey => (key.sql === 'id' ? 'uuid' : key.kind === 'number' ? 'integer' : key.kind));
  const values = decodeCursor(cursor, ['text', ...kinds]);
  if (!values || values[0] !== sort) throw new ValidationError(INVALID_CURSOR);
  return values.slice(1);
}

/** `(k1, k2, …) after (v1, v2, …)` for keys of mixed directions, as an OR chain. */
function afterCursor(keys: SortKey[], values: CursorValue[]): { sql: string; bindings: CursorValue[] } {
  const clauses: string[] = [];
  const bindings: CursorValue[] = [];
  keys.forEach((key, i) => {
    const parts: string[] = [];
    for (let j = 0; j < i; j++) {
      parts.push(`${keys[j]!.sql} = ?`);
      bindings.push(values[j]!);
    }
    parts.push(`${key.sql} ${key.dir === 'asc' ? '>' : '<'} ?`);
    bindings.push(values[i]!);
    clauses.push(`(${parts.join(' AND ')})`);
  });
  return { sql: `(${clauses.join(' OR ')})`, bindings };
}

/** The stage filter of a list (stage, or the Canceled toggle), on `stage_order`. */
function whereStage(builder: Knex.QueryBuilder, query: JobListQuery): Knex.QueryBuilder {
  if (query.stage) builder.where('stage_order', stageOrder(query.stage));
  else if (query.canceled === 'hide') builder.whereNot('stage_order', stageOrder(CANCELED_STAGE));
  else if (query.canceled === 'only') builder.where('stage_order', stageOrder(CANCELED_STAGE));
  return builder;
}

/**
 * Lists and search read `jobs_of_instance` (migration 0010): the tenant rule without the
 * row-level-security barrier, so LIKE can use the trigram index and a page can stop early
 * on its order's btree.
 */
export function filtered(db: Knex, instanceId: string, query: JobListQuery): Knex.QueryBuilder {
  const builder = whereStage(db.withSchema('rm').from('jobs_of_instance').where('instance_id', instanceId), query);
  if (query.customerId) builder.where('customer_id', query.customerId);
  if (query.q) {
    const needle = query.q.toLowerCase();
    // '(555) 123-45' finds 5551234567: a phone-like search looks for its digits too.
    const digits = phoneSearchDigits(query.q);
    builder.where((w) => {
      w.where('search', 'like', likeContaining(needle));
      if (digits && digits !== needle) w.orWhere('search', 'like', likeContaining(digits));
    });
  }
  return builder;
}

export async function listJobs(knex: Knex, instanceId: string, query: JobListQuery): Promise<JobPage> {
  const keys = SORT_KEYS[query.sort];
  const after = query.cursor ? decodeJobCursor(query.sort, query.cursor) : null;
  return await withTenant(knex, instanceId, async (db) => {
    // The total: without a search or a customer, from the counts the projection keeps;
    // otherwise the matches are counted.
    const count =
      query.q || query.customerId
        ? filtered(db, instanceId, query).count({ total: '*' })
        : whereStage(db.withSchema('rm').from('job_counts').where('instance_id', instanceId), query).select(
            db.raw('coalesce(sum(total), 0) AS total'),
          );
    const page = filtered(db, instanceId, query).select('*');
    keys.forEach((key, i) => {
      page.select(db.raw(`${key.sql} AS ??`, [`sort_key_${i}`]));
    });
    if (after) {
      const { sql, bindings } = afterCursor(keys, after);
      page.whereRaw(sql, bindings);
    }
    for (const key of keys) page.orderByRaw(`${key.sql} ${key.dir}`);
    page.limit(query.limit + 1);
    // One statement for both: the total, and the page beside it (a row of nulls when empty).
    const countSql = count.toSQL();
    const pageSql = page.toSQL();
    const joined = await db.raw<{ rows: Array<JobRow & Record<string, unknown> & { page_total: string | number }> }>(
      `SELECT c.total AS page_total, p.* FROM (${countSql.sql}) c LEFT JOIN LATERAL (${pageSql.sql}) p ON true`,
      [...countSql.bindings, ...pageSql.bindings] as Knex.RawBinding[],
    );
    const total = Number(joined.rows[0]?.page_total ?? 0);
    const rows = joined.rows.filter((row) => row.id !== null);
    const more = rows.length > query.limit;
    const items = rows.slice(0, query.limit);
    const lastRow = items[items.length - 1];
    const nextCursor =
      more && lastRow
        ? jobCursor(
            query.sort,
            keys.map((key, i) => {
              const value = lastRow[`sort_key_${i}`];
              return key.kind === 'time' ? new Date(value as Date).toISOString() : (value as CursorValue);
            }),
          )
        : null;
    // An itemized job's total and balance ride along, for the table, the board and a customer's jobs.
    return {
      items: await withListedTotals(
        db,
        instanceId,
        items.map((row) => masked(jobViewOfRow(row))),
      ),
      nextCursor,
      total,
    };
  });
}

// ---- history ----------------------------------------------------------

interface HistoryRow {
  event_id: string;
  action: JobHistoryEntry['action'];
  user_display_name: string;
  /** When the event store recorded the event (the command's own time for rows from before that was kept). */
  recorded_at: Date;
  changes: JobHistoryEntry['changes'];
  actor_id: string | null;
  revert_of: string | null;
  revision: number;
}

/**
 * Newest first, each at the time the event store recorded it; null when this instance has
 * no such job (and never had). With a reader, each row says whether they may revert it.
 */
export async function jobHistory(
  knex: Knex,
  target: JobTarget,
  reader: Reverter | null = null,
  now = new Date(),
): Promise<JobHistoryEntry[] | null> {
  if (!isUuid(target.jobId)) return null;
  const rows = (await withTenant(knex, target.instanceId, (db) =>
    db
      .withSchema('rm')
      .from('job_history')
      .where({ instance_id: target.instanceId, job_id: target.jobId })
      .orderBy('revision', 'desc')
      .select(
        'event_id',
        'action',
        'user_display_name',
        db.raw('coalesce(recorded_at, occurred_at) AS recorded_at'),
        'changes',
        'actor_id',
        'revert_of',
        'revision',
      ),
  )) as HistoryRow[];
  if (rows.length === 0) return null;
  return rows.map((row) => ({
    id: row.event_id,
    action: row.action,
    userDisplayName: row.user_display_name,
    // The recorded time: `asOf` at a row's time shows the job right after that change.
    timestamp: new Date(row.recorded_at).toISOString(),
    revision: Number(row.revision),
    changes: row.changes,
    revertOf: row.revert_of,
    canRevert: canRevertEntry(reader, { action: row.action, actorId: row.actor_id, recordedAt: new Date(row.recorded_at) }, now),
  }));
}
