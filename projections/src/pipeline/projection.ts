import type { StoredDomainEvent } from '../events.ts';
import {
  carry,
  chunked,
  insertRecordset,
  recordsetInsert,
  writeRecordset,
  type CarriedStatement,
  type Projection,
  type ProjectionContext,
} from '../runtime/projection.ts';
import { applyJobEvent, isJobStreamEvent, JOB_STREAM_EVENT_TYPES } from './events.ts';
import { isRepairOrderJobEvent, REPAIR_ORDER_JOB_EVENT_TYPES } from '../repair-orders/index.ts';
import { stageOrder } from './stages.ts';
import {
  fieldsOfRow,
  HISTORY_COLUMNS,
  JOB_COLUMNS,
  jobHistoryRow,
  jobRow,
  repairOrderHistoryRow,
  type FoldedJob,
  type JobRow,
  type StoredJobEvent,
  type StoredRepairOrderEvent,
} from './job-rows.ts';

/** A job as the batch has it: folded, and what the batch must write back. */
interface JobState extends FoldedJob {
  /** An event of this batch changed it: it is written back. */
  changed: boolean;
  /** The row as it was before the batch (null: none), for the counts. */
  before: { instanceId: string; stageOrder: number } | null;
}

/**
 * `jobs` (the pipeline, the calendar), `job_history` (one row per job event, with per-field
 * old and new values) and `job_counts` (rows per instance and stage, only counts above
 * zero). Rows are guarded by the stream revision, so a replayed batch changes nothing.
 * Times are when the event store recorded the events: the clock history and time travel go
 * by. Set-based: a batch reads the rows of the jobs it touches once, folds its events over
 * them in memory (the same rules as one event at a time), and writes each table with
 * multi-row statements.
 */
async function applyJobEvents(all: StoredDomainEvent[], ctx: ProjectionContext): Promise<void> {
  const { table, trx, schema } = ctx;
  const streamEvents = all.filter(
    (event): event is StoredJobEvent | StoredRepairOrderEvent =>
      (isJobStreamEvent(event) || isRepairOrderJobEvent(event)) && Boolean(event.metadata.instanceId),
  );
  if (streamEvents.length === 0) return;
  const events = streamEvents.filter((event): event is StoredJobEvent => isJobStreamEvent(event));
  const orderEvents = streamEvents.filter((event): event is StoredRepairOrderEvent => isRepairOrderJobEvent(event));

  const history = events.map(jobHistoryRow);
  history.push(...orderEvents.map(repairOrderHistoryRow));
  const historyChunks = chunked(history, 5000);
  // The last history rows go with the next statement below (a WITH clause): one round trip
  // less for every command. Nothing here reads them back.
  const lastHistory = historyChunks.pop();
  let carried: CarriedStatement | null = lastHistory
    ? recordsetInsert(ctx, 'job_history', HISTORY_COLUMNS, lastHistory, 'ON CONFLICT (event_id) DO NOTHING')
    : null;
  const takeCarried = () => {
    const taken = carried;
    carried = null;
    return taken;
  };
  for (const rows of historyChunks) await insertRecordset(ctx, 'job_history', HISTORY_COLUMNS, rows, 'ON CONFLICT (event_id) DO NOTHING');

  const { fresh, toRead } = jobsToRead(streamEvents);
  const states = new Map<string, JobState>();
  const readRows = async (chunk: string[]): Promise<JobRow[]> => {
    const read = jobRowsRead(schema, chunk);
    const withHistory = takeCarried();
    const statement = withHistory ? carry(withHistory, read) : read;
    return (await trx.raw<{ rows: JobRow[] }>(statement.sql, statement.bindings)).rows;
  };
  const rowChunks: JobRow[][] = [];
  // In an append's own transaction the rows were read with the append (prefetch below).
  if (ctx.prefetched) rowChunks.push((ctx.prefetched as unknown as readonly JobRow[]).filter((row) => toRead.has(row.id)));
  else for (const chunk of chunked([...toRead])) rowChunks.push(await readRows(chunk));
  for (const rows of rowChunks) {
    for (const row of rows) {
      states.set(row.id, {
        fields: fieldsOfRow(row),
        instanceId: row.instance_id,
        createdAt: row.created_at,
        createdBy: row.created_by,
        updatedAt: row.updated_at,
        revision: row.revision,
        present: true,
        changed: false,
        before: { instanceId: row.instance_id, stageOrder: row.stage_order },
      });
    }
  }

  // A row must follow its stream: before a job's first event of this batch, the row takes
  // the events between its revision and that event's (a row that trails its stream: events
  // from before inline projection started that the projector has still to apply, or no row
  // yet). Applied over such a row, the event would move it past events it never took, and
  // the revision guard would then skip them for good. Only where the stream can be read in
  // the append's transaction (ctx.streamEventsBetween); the projector applies in order.
  const caughtUp: Array<StoredJobEvent | StoredRepairOrderEvent> = [];
  if (ctx.streamEventsBetween) {
    for (const jobId of toRead) {
      const first = streamEvents.find((event) => event.data.jobId === jobId)!;
      // A restore carries the whole job: it needs nothing before it.
      if (first.type === 'JobRestored') continue;
      const state = states.get(jobId);
      const after = state ? state.revision : -1;
      if (after >= first.revision - 1) continue;
      const missing = (await ctx.streamEventsBetween(first.streamId, after, first.revision)).filter(
        (event): event is StoredJobEvent | StoredRepairOrderEvent =>
          (isJobStreamEvent(event) || isRepairOrderJobEvent(event)) && Boolean(event.metadata.instanceId),
      );
      for (const event of missing) foldJobEvent(states, event);
      caughtUp.push(...missing);
    }
  }
  for (const event of streamEvents) foldJobEvent(states, event);
  // Their history rows too (the projector would write them later; nothing reads them back).
  const caughtUpHistory = caughtUp.map((event) => (isRepairOrderJobEvent(event) ? repairOrderHistoryRow(event) : jobHistoryRow(event)));
  for (const rows of chunked(caughtUpHistory, 5000))
    await ctx.write(recordsetInsert(ctx, 'job_history', HISTORY_COLUMNS, rows, 'ON CONFLICT (event_id) DO NOTHING'));

  const changed = [...states.entries()].filter(([, state]) => state.changed);
  const gone = changed.filter(([, state]) => !state.present && state.before).map(([id]) => id);
  for (const chunk of chunked(gone)) await ctx.write(table('jobs').whereRaw('id = any(?::uuid[])', [chunk]).delete());
  const rowOf = ([id, state]: [string, JobState]) => jobRow(id, state);
  const created: Array<{ instance_id: string; stage_order: number }> = [];
  const inserted = changed.filter(([id, state]) => state.present && fresh.has(id)).map(rowOf);
  // In an append's own transaction the rows as stored are the command's answer (ctx.written).
  const { written } = ctx;
  for (const rows of chunked(inserted, 5000)) {
    const returned = await insertRecordset<JobRow & Record<string, unknown>>(
      ctx,
      'jobs',
      JOB_COLUMNS,
      rows,
      `ON CONFLICT (id) DO NOTHING RETURNING ${written ? '*' : 'instance_id, stage_order'}`,
      takeCarried(),
    );
    written?.('jobs', returned);
    created.push(...returned);
  }
  const updated = changed.filter(([id, state]) => state.present && !fresh.has(id)).map(rowOf);
  const updates = Object.keys(JOB_COLUMNS)
    .filter((column) => column !== 'id')
    .map((column) => `"${column}" = excluded."${column}"`)
    .join(', ');
  for (const rows of chunked(updated, 5000))
    await writeRecordset(
      ctx,
      'jobs',
      JOB_COLUMNS,
      rows,
      `ON CONFLICT (id) DO UPDATE SET ${updates}${written ? ' RETURNING *' : ''}`,
      takeCarried(),
      written && ((stored) => written('jobs', stored)),
    );
  // No row to write (events of jobs that are gone): the history rows go alone.
  const unsent = takeCarried();
  if (unsent) await ctx.write(unsent);

  // The counts move by what the rows did: before the batch against after it.
  const deltas = new Map<string, { instanceId: string; stageOrder: number; delta: number }>();
  const move = (instanceId: string, stageOrder: number, delta: number) => {
    const key = `${instanceId}:${stageOrder}`;
    const entry = deltas.get(key) ?? { instanceId, stageOrder, delta: 0 };
    entry.delta += delta;
    deltas.set(key, entry);
  };
  for (const [id, state] of changed) {
    if (fresh.has(id)) continue;
    if (state.before) move(state.before.instanceId, state.before.stageOrder, -1);
    if (state.present) move(state.instanceId, stageOrder(state.fields.stage), +1);
  }
  for (const row of created) move(row.instance_id, row.stage_order, +1);
  // In one order everywhere (instance, stage): concurrent appends writing these counts in the
  // same transaction as their events lock the rows in the same order, so never in a cycle.
  const moved = [...deltas.values()]
    .filter((entry) => entry.delta !== 0)
    .sort((a, b) => (a.instanceId === b.instanceId ? a.stageOrder - b.stageOrder : a.instanceId < b.instanceId ? -1 : 1));
  if (moved.length > 0) {
    const values = moved.map(() => '(?::uuid, ?::smallint, ?::integer)').join(', ');
    await ctx.write(
      trx.raw(
        `INSERT INTO ??.job_counts AS c (instance_id, stage_order, total) VALUES ${values}
           ON CONFLICT (instance_id, stage_order) DO UPDATE SET total = c.total + excluded.total`,
        [schema, ...moved.flatMap((entry) => [entry.instanceId, entry.stageOrder, entry.delta])],
      ),
    );
    // Only counts above zero are kept, so the table does not depend on how events were batched.
    if (moved.some((entry) => entry.delta < 0)) {
      await ctx.write(
        trx.raw('DELETE FROM ??.job_counts WHERE instance_id = any(?::uuid[]) AND total <= 0', [
          schema,
          [...new Set(moved.map((entry) => entry.instanceId))],
        ]),
      );
    }
  }
}

/** One event folded into the batch's jobs (by the same rules event by event or set-based). */
function foldJobEvent(states: Map<string, JobState>, event: StoredJobEvent | StoredRepairOrderEvent): void {
  const jobId = event.data.jobId;
  const state = states.get(jobId);
  if (isRepairOrderJobEvent(event)) {
    if (!state?.present || state.revision >= event.revision) return;
    state.changed = true;
    state.updatedAt = event.recordedAt;
    state.revision = event.revision;
    return;
  }
  if (event.type === 'JobCreated') {
    // A row that exists stays as it is (a replay).
    if (state?.present) return;
    states.set(jobId, {
      fields: applyJobEvent(null, event)!,
      instanceId: event.metadata.instanceId!,
      createdAt: event.recordedAt,
      createdBy: event.metadata.actor.displayName,
      updatedAt: event.recordedAt,
      revision: event.revision,
      present: true,
      changed: true,
      before: state?.before ?? null,
    });
    return;
  }
  if (event.type === 'JobRestored') {
    // Back on the lists with the fields it was deleted with (a row that exists is a replay).
    if (state?.present) return;
    states.set(jobId, {
      fields: applyJobEvent(null, event)!,
      instanceId: event.metadata.instanceId!,
      createdAt: new Date(event.data.createdAt),
      createdBy: event.data.createdBy,
      updatedAt: event.recordedAt,
      revision: event.revision,
      present: true,
      changed: true,
      before: state?.before ?? null,
    });
    return;
  }
  if (!state?.present || state.revision >= event.revision) return;
  const next = applyJobEvent(state.fields, event);
  state.changed = true;
  // A deleted job leaves the lists; its history rows and the activity log keep it.
  if (!next) {
    state.present = false;
    return;
  }
  state.fields = next;
  state.updatedAt = event.recordedAt;
  state.revision = event.revision;
}

/**
 * Rows are read only for jobs whose first event in a batch is not their creation: a job
 * created in the batch is inserted with ON CONFLICT DO NOTHING (a replay leaves its row as it
 * is, as the revision guard would) and counted by what the insert returns.
 */
function jobsToRead(events: ReadonlyArray<{ data: unknown; type: string }>): { fresh: Set<string>; toRead: Set<string> } {
  const fresh = new Set<string>();
  const toRead = new Set<string>();
  for (const event of events) {
    const jobId = (event.data as { jobId?: unknown } | null)?.jobId;
    if (typeof jobId !== 'string' || fresh.has(jobId) || toRead.has(jobId)) continue;
    if (event.type === 'JobCreated') fresh.add(jobId);
    else toRead.add(jobId);
  }
  return { fresh, toRead };
}

function jobRowsRead(schema: string, ids: readonly string[]): CarriedStatement {
  return { sql: 'SELECT * FROM ??.jobs WHERE id = any(?::uuid[])', bindings: [schema, [...ids]] };
}

export const pipelineProjection: Projection = {
  name: 'pipeline',
  // The record's own rows: written with its events (runtime/inline.ts).
  inline: true,
  // A job's own events, and the repair-order events that change its totals on the board.
  eventTypes: [...JOB_STREAM_EVENT_TYPES, ...REPAIR_ORDER_JOB_EVENT_TYPES],
  async apply(event, ctx) {
    await applyJobEvents([event], ctx);
  },
  applyBatch: applyJobEvents,
  // The rows an append's batch reads, read in the append's own round trip.
  prefetch(events, schema) {
    const { toRead } = jobsToRead(events.filter((event) => event.metadata.instanceId));
    return toRead.size > 0 ? jobRowsRead(schema, [...toRead]) : null;
  },
};
