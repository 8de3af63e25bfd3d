import type { StoredDomainEvent } from '../events.ts';
import { applyJobEvent, isJobStreamEvent, type JobStreamEvent } from '../pipeline/index.ts';
import type { Stage } from '../pipeline/index.ts';
import { chunked, recordsetInsert, type Projection, type ProjectionContext, writeRecordset } from '../runtime/projection.ts';
import { assertNever } from '../shared/never.ts';

export type StoredJobEvent = StoredDomainEvent & JobStreamEvent;

export interface InsightJob {
  instanceId: string;
  jobNumber: string;
  name: string;
  tech: string;
  quote: number | null;
  deleted: boolean;
  revision: number;
  /** The stay the job is in now: its entering event (null when none, e.g. deleted). */
  openInterval: string | null;
  changed: boolean;
}

export type Interval = {
  event_id: string;
  instance_id: string;
  job_id: string;
  stage: Stage;
  entered_at: string;
  entered_revision: number;
  left_at: string | null;
  tech: string;
  quote: number | null;
};

export const JOB_COLUMNS = {
  job_id: 'uuid',
  instance_id: 'uuid',
  job_number: 'text',
  name: 'text',
  tech: 'text',
  quote: 'numeric',
  deleted: 'boolean',
  revision: 'integer',
};

export const INTERVAL_COLUMNS = {
  event_id: 'uuid',
  instance_id: 'uuid',
  job_id: 'uuid',
  stage: 'text',
  entered_at: 'timestamptz',
  entered_revision: 'integer',
  left_at: 'timestamptz',
  tech: 'text',
  quote: 'numeric',
};

/** The insight_jobs row of a job, in JOB_COLUMNS' names: one mapping for the projector and the rebuild. */
export function insightJobRow(jobId: string, job: InsightJob): Record<keyof typeof JOB_COLUMNS, unknown> {
  return {
    job_id: jobId,
    instance_id: job.instanceId,
    job_number: job.jobNumber,
    name: job.name,
    tech: job.tech,
    quote: job.quote,
    deleted: job.deleted,
    revision: job.revision,
  };
}

/** The stage an event moves the job to; null when it moves none. */
function stageAfter(event: StoredJobEvent): Stage | null {
  switch (event.type) {
    case 'JobStageChanged':
      return event.data.to;
    case 'JobCanceled':
      return 'Canceled';
    case 'JobReopened':
      return event.data.stage;
    case 'JobCreated':
    case 'JobUpdated':
    case 'JobRescheduled':
    case 'JobDeleted':
    case 'JobRestored':
      return null;
    default:
      return assertNever(event, 'event');
  }
}

/**
 * The insights read model, from the job events alone: `insight_jobs` (each job's number,
 * name, tech and quote now, and whether it is deleted) and `insight_stage_intervals` (each
 * stay of a job in a stage, entered by one event and left by the next). Times are the
 * events' own (`occurredAt`, the command's clock), so a rebuild from the log gives the very
 * same rows and figures. Set-based: a batch reads the rows of the jobs it touches once,
 * folds its events over them in memory, and writes each table in a few statements. Guarded
 * by the stream revision, so a replayed event changes nothing.
 */
async function applyInsightEvents(all: StoredDomainEvent[], ctx: ProjectionContext): Promise<void> {
  const events = all.filter((event): event is StoredJobEvent => isJobStreamEvent(event) && Boolean(event.metadata.instanceId));
  if (events.length === 0) return;
  const jobIds = [...new Set(events.map((event) => event.data.jobId))];
  if (jobIds.length === events.length && events.every((event) => event.type === 'JobUpdated')) {
    await updateInsightJobs(events as Array<StoredJobEvent & { type: 'JobUpdated' }>, ctx);
    return;
  }
  if (jobIds.length === events.length && events.every((event) => event.type === 'JobCreated')) {
    await insertCreatedJobs(events, ctx);
    return;
  }
  const { table, schema } = ctx;
  const jobs = new Map<string, InsightJob>();
  for (const chunk of chunked(jobIds)) {
    // Each job's row with the stay it is in now, in one statement (one round trip).
    const rows = (await table('insight_jobs')
      .whereRaw('job_id = any(?::uuid[])', [chunk])
      .select(
        '*',
        ctx.trx.raw(
          '(SELECT i.event_id FROM ??.insight_stage_intervals AS i WHERE i.job_id = insight_jobs.job_id AND i.left_at IS NULL LIMIT 1) AS open_interval',
          [schema],
        ),
      )) as Array<{
      job_id: string;
      instance_id: string;
      job_number: string;
      name: string;
      tech: string;
      quote: string | null;
      deleted: boolean;
      revision: number;
      open_interval: string | null;
    }>;
    for (const row of rows) {
      jobs.set(row.job_id, {
        instanceId: row.instance_id,
        jobNumber: row.job_number,
        name: row.name,
        tech: row.tech,
        quote: row.quote === null ? null : Number(row.quote),
        deleted: row.deleted,
        revision: row.revision,
        openInterval: row.open_interval,
        changed: false,
      });
    }
  }

  const inserted = new Map<string, Interval>();
  /** Stays that were open before this batch and end in it: entering event → when. */
  const closed = new Map<string, string>();
  foldInsightEvents(events, jobs, inserted, closed);

  const jobRows = [...jobs.entries()].filter(([, job]) => job.changed).map(([jobId, job]) => insightJobRow(jobId, job));
  const updates = Object.keys(JOB_COLUMNS)
    .filter((column) => column !== 'job_id')
    .map((column) => `"${column}" = excluded."${column}"`)
    .join(', ');
  for (const rows of chunked(jobRows, 5000))
    await writeRecordset(ctx, 'insight_jobs', JOB_COLUMNS, rows, `ON CONFLICT (job_id) DO UPDATE SET ${updates}`);
  for (const rows of chunked([...inserted.values()], 5000))
    await writeRecordset(ctx, 'insight_stage_intervals', INTERVAL_COLUMNS, rows, 'ON CONFLICT (event_id) DO NOTHING');
  for (const rows of chunked(
    [...closed.entries()].map(([eventId, leftAt]) => ({ event_id: eventId, left_at: leftAt })),
    5000,
  )) {
    await ctx.write({
      sql: `UPDATE ??.insight_stage_intervals AS i SET left_at = input.left_at
         FROM jsonb_to_recordset(?::jsonb) AS input(event_id uuid, left_at timestamptz)
        WHERE i.event_id = input.event_id AND i.left_at IS NULL`,
      bindings: [schema, JSON.stringify(rows)],
    });
  }
}

/** The insight_jobs columns a JobUpdated may change, by the job field that changes them. */
const UPDATED_COLUMNS = { jobNumber: 'job_number', name: 'name', tech: 'tech', quote: 'quote' } as const;

/**
 * A batch of field changes alone, one JobUpdated per job (what the shop's edits send most):
 * they change no stay, and each job row takes its event's revision and new values, so one
 * UPDATE writes them without reading the rows first, as foldInsightEvents would (guarded by
 * the revision the same way; a job without a row stays without). The batch saves the round
 * trip of that read.
 */
async function updateInsightJobs(events: ReadonlyArray<StoredJobEvent & { type: 'JobUpdated' }>, ctx: ProjectionContext): Promise<void> {
  const rows = events.map((event) => {
    const changes: Record<string, unknown> = {};
    for (const change of event.data.changes) {
      if (change.field in UPDATED_COLUMNS) changes[UPDATED_COLUMNS[change.field as keyof typeof UPDATED_COLUMNS]] = change.newValue;
    }
    return { job_id: event.data.jobId, revision: event.revision, changes };
  });
  // `changes -> column` is SQL NULL only when the column did not change (a JSON null is not).
  // The ids again as an array: the rows are found by the primary key whatever the planner
  // guesses for the recordset (it cannot know how many rows one holds).
  const set = (column: string, type: string) =>
    `"${column}" = CASE WHEN input.changes -> '${column}' IS NULL THEN target."${column}" ELSE (input.changes ->> '${column}')::${type} END`;
  // Prepared: its text never changes, and planning it cost as much as running it (a few rows).
  for (const chunk of chunked(rows, 5000)) {
    await ctx.write({
      prepared: true,
      sql: `UPDATE ??.insight_jobs AS target
         SET ${Object.values(UPDATED_COLUMNS)
           .map((column) => set(column, JOB_COLUMNS[column]))
           .join(', ')}, revision = input.revision
        FROM jsonb_to_recordset(?::jsonb) AS input(job_id uuid, revision integer, changes jsonb)
       WHERE target.job_id = any(?::uuid[]) AND target.job_id = input.job_id AND target.revision < input.revision`,
      bindings: [ctx.schema, JSON.stringify(chunk), chunk.map((row) => row.job_id)],
    });
  }
}

/** The stays of new jobs, inserted only for the jobs whose row the same statement inserted (insertCreatedJobs). */
const CREATED_INTERVALS_TAIL = 'WHERE input.job_id IN (SELECT job_id FROM carried) ON CONFLICT (event_id) DO NOTHING';

/**
 * A batch of new jobs alone, one JobCreated per job (what creates send): a job's first
 * event, so the job has no row unless that event was applied already, and then it changes
 * nothing (foldInsightEvents skips it, the row's revision being at or past it). One write
 * inserts the rows of the jobs that have none and the stays of just those jobs, without
 * reading the rows first: the rows are what the fold makes of the events over no row, and
 * the batch saves the round trip of that read (its whole transaction is then one message).
 */
async function insertCreatedJobs(events: readonly StoredJobEvent[], ctx: ProjectionContext): Promise<void> {
  const jobs = new Map<string, InsightJob>();
  const inserted = new Map<string, Interval>();
  foldInsightEvents(events, jobs, inserted, new Map());
  const intervals = [...inserted.values()];
  for (const rows of chunked(
    [...jobs.entries()].map(([jobId, job]) => insightJobRow(jobId, job)),
    5000,
  )) {
    const ids = new Set(rows.map((row) => row.job_id));
    await writeRecordset(
      ctx,
      'insight_stage_intervals',
      INTERVAL_COLUMNS,
      intervals.filter((interval) => ids.has(interval.job_id)),
      CREATED_INTERVALS_TAIL,
      { carried: recordsetInsert(ctx, 'insight_jobs', JOB_COLUMNS, rows, 'ON CONFLICT (job_id) DO NOTHING RETURNING job_id') },
    );
  }
}

/**
 * Folds job events over the jobs as they stand (`jobs`, changed in place): stays entered go
 * into `inserted` (left_at set when they end while still there), stays open before and
 * ended here into `closed` (entering event → when). Events at or below a job's revision
 * change nothing (a replay).
 */
export function foldInsightEvents(
  events: readonly StoredJobEvent[],
  jobs: Map<string, InsightJob>,
  inserted: Map<string, Interval>,
  closed: Map<string, string>,
): void {
  for (const event of events) {
    const jobId = event.data.jobId;
    const at = new Date(event.metadata.occurredAt).toISOString();
    let job = jobs.get(jobId);
    if (job && job.revision >= event.revision) continue;
    const leave = (current: InsightJob) => {
      if (!current.openInterval) return;
      const pending = inserted.get(current.openInterval);
      if (pending) pending.left_at = at;
      else closed.set(current.openInterval, at);
      current.openInterval = null;
    };
    const enter = (current: InsightJob, stage: Stage) => {
      inserted.set(event.id, {
        event_id: event.id,
        instance_id: current.instanceId,
        job_id: jobId,
        stage,
        entered_at: at,
        entered_revision: event.revision,
        left_at: null,
        tech: current.tech,
        quote: current.quote,
      });
      current.openInterval = event.id;
    };
    if (event.type === 'JobCreated' || event.type === 'JobRestored') {
      const fields = applyJobEvent(null, event)!;
      if (job) leave(job);
      job = {
        instanceId: event.metadata.instanceId!,
        jobNumber: fields.jobNumber,
        name: fields.name,
        tech: fields.tech,
        quote: fields.quote,
        deleted: false,
        revision: event.revision,
        openInterval: null,
        changed: true,
      };
      jobs.set(jobId, job);
      enter(job, fields.stage);
      continue;
    }
    if (!job) continue;
    job.revision = event.revision;
    job.changed = true;
    if (event.type === 'JobUpdated') {
      const next = job as unknown as Record<string, unknown>;
      for (const change of event.data.changes) {
        if (change.field === 'jobNumber' || change.field === 'name' || change.field === 'tech' || change.field === 'quote') {
          next[change.field] = change.newValue;
        }
      }
      continue;
    }
    if (event.type === 'JobDeleted') {
      leave(job);
      job.deleted = true;
      continue;
    }
    const stage = stageAfter(event);
    if (stage) {
      leave(job);
      enter(job, stage);
    }
  }
}

export const insightsProjection: Projection = {
  name: 'insights',
  // Asynchronous (it reads across records); its readers wait for the projector themselves.
  awaitedByReads: true,
  eventTypes: ['JobCreated', 'JobUpdated', 'JobStageChanged', 'JobCanceled', 'JobReopened', 'JobDeleted', 'JobRestored'],
  async apply(event, ctx) {
    await applyInsightEvents([event], ctx);
  },
  applyBatch: applyInsightEvents,
};
