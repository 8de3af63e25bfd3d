import type { StoredDomainEvent } from '../events.ts';
import {
  asPrepared,
  carry,
  chunked,
  insertRecordset,
  recordsetInsert,
  type CarriedStatement,
  type Projection,
  type ProjectionContext,
  writeRecordset,
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
  // In an append's own transaction the rows as stored are the command's answer (ctx.written).
  const { written } = ctx;

  // The counts move by what the rows did: before the batch against after it; a created row
  // counts only when its insert made it (not a replay), which the insert's statement says.
  const moved = new Map<string, CountMove>();
  for (const [id, state] of changed) {
    if (fresh.has(id)) continue;
    if (state.before) moveCount(moved, state.before.instanceId, state.before.stageOrder, -1);
    if (state.present) moveCount(moved, state.instanceId, stageOrder(state.fields.stage), +1);
  }
  const deltas = [...moved.values()].filter((entry) => entry.delta !== 0);

  const inserted = changed.filter(([id, state]) => state.present && fresh.has(id)).map(rowOf);
  const insertChunks = chunked(inserted, 5000);
  const updated = changed.filter(([id, state]) => state.present && !fresh.has(id)).map(rowOf);
  // A command's row statements go prepared where the write is held back in the append's own
  // transaction: planning was about 40 % of their PostgreSQL time. Their texts depend only on
  // the schema and on which parts they have, not on the rows (they are JSON values).
  for (const rows of chunked(updated, 5000)) {
    await writeRecordset(ctx, 'jobs', JOB_COLUMNS, rows, written ? JOB_UPSERT_RETURNING : JOB_UPSERT, {
      carried: takeCarried(),
      onRows: written && ((stored) => written('jobs', stored)),
      prepared: true,
    });
  }
  // Each insert and the counts in one statement that nothing waits for: in an append it goes
  // with the COMMIT (one round trip less for a create). The counts of the rows it made and
  // every other move are one INSERT, its rows in one order everywhere (instance, stage), so
  // concurrent appends lock count rows in the same order and never in a cycle.
  for (const [i, rows] of insertChunks.entries()) {
    const statement = insertWithCounts(ctx, rows, i === 0 ? deltas : [], takeCarried(), Boolean(written));
    await ctx.write(asPrepared(statement), written && ((stored) => written('jobs', stored)));
  }
  if (insertChunks.length === 0 && deltas.length > 0) await ctx.write(asPrepared(countsMove(schema, deltas)));
  // No row to write (events of jobs that are gone): the history rows go alone.
  const unsent = takeCarried();
  if (unsent) await ctx.write(asPrepared(unsent));
  // Only counts above zero are kept, so the table does not depend on how events were batched.
  if (deltas.some((entry) => entry.delta < 0)) {
    await ctx.write(
      asPrepared({
        sql: 'DELETE FROM ??.job_counts WHERE instance_id = any(?::uuid[]) AND total <= 0',
        bindings: [schema, [...new Set(deltas.map((entry) => entry.instanceId))]],
      }),
    );
  }
}

interface CountMove {
  instanceId: string;
  stageOrder: number;
  delta: number;
}

function moveCount(moved: Map<string, CountMove>, instanceId: string, stageOrder: number, delta: number): void {
  const key = `${instanceId}:${stageOrder}`;
  const entry = moved.get(key) ?? { instanceId, stageOrder, delta: 0 };
  entry.delta += delta;
  moved.set(key, entry);
}

/**
 * The moves as one JSON parameter, `moves(instance_id, stage_order, delta)`: the statement's
 * text is the same for any number of moves, so it is planned once per connection (prepared).
 */
function movesValues(deltas: readonly CountMove[]): CarriedStatement {
  return {
    sql: 'SELECT * FROM jsonb_to_recordset(?::jsonb) AS moves(instance_id uuid, stage_order smallint, delta integer)',
    bindings: [
      JSON.stringify(deltas.map((entry) => ({ instance_id: entry.instanceId, stage_order: entry.stageOrder, delta: entry.delta }))),
    ],
  };
}

/** The columns a command's row statements answer, named: a `*` would change the prepared plan's result type when a migration adds a column. */
const JOB_LIST = Object.keys(JOB_COLUMNS)
  .map((name) => `"${name}"`)
  .join(', ');
/** The jobs rows' statement tails, made once (a text built afresh per statement is hashed afresh by every cache it is looked up in). */
const JOB_INSERT_TAIL = `ON CONFLICT (id) DO NOTHING RETURNING ${JOB_LIST}`;
const JOB_UPSERT = `ON CONFLICT (id) DO UPDATE SET ${Object.keys(JOB_COLUMNS)
  .filter((column) => column !== 'id')
  .map((column) => `"${column}" = excluded."${column}"`)
  .join(', ')}`;
const JOB_UPSERT_RETURNING = `${JOB_UPSERT} RETURNING ${JOB_LIST}`;

const COUNTS_UPSERT = `INSERT INTO ??.job_counts AS c (instance_id, stage_order, total)`;
const COUNTS_CONFLICT = 'ON CONFLICT (instance_id, stage_order) DO UPDATE SET total = c.total + excluded.total';

function countsMove(schema: string, deltas: readonly CountMove[]): CarriedStatement {
  const values = movesValues(deltas);
  return {
    sql: `${COUNTS_UPSERT} SELECT instance_id, stage_order, sum(delta)::integer FROM (${values.sql}) AS moves(instance_id, stage_order, delta)
            GROUP BY instance_id, stage_order ORDER BY instance_id, stage_order ${COUNTS_CONFLICT}`,
    bindings: [schema, ...values.bindings],
  };
}

/**
 * New jobs' rows (ON CONFLICT DO NOTHING: a replay inserts nothing) and the counts: one for
 * each row the insert made, plus `deltas`; answers the rows made (all columns when `all`).
 */
function insertWithCounts(
  ctx: ProjectionContext,
  rows: readonly Record<string, unknown>[],
  deltas: readonly CountMove[],
  carried: CarriedStatement | null,
  all: boolean,
): CarriedStatement {
  const insert = recordsetInsert(ctx, 'jobs', JOB_COLUMNS, rows, JOB_INSERT_TAIL);
  const values = movesValues(deltas);
  const sql = insertWithCountsText(carried?.sql ?? '', insert.sql, values.sql, all);
  return { sql, bindings: [...(carried?.bindings ?? []), ...insert.bindings, ctx.schema, ...values.bindings] };
}

/**
 * insertWithCounts' texts by their parts, so a create's statement is the same string every
 * time: built afresh (several kilobytes) it was flattened and hashed again by each cache that
 * looks statements up by text (toNativeStatement's), on every create. Its parts are the same
 * few strings each time (recordsetInsertText's, carry's, movesValues'), whose hashes the
 * lookups here reuse: keyed by each part in turn, never by a string joined from them.
 */
const insertWithCountsTexts = new Map<string, Map<string, Map<string, { all?: string; id?: string }>>>();
/** A schema's few statements; a bound in case a caller varies them. */
const MAX_INSERT_WITH_COUNTS_TEXTS = 64;

function insertWithCountsText(carried: string, insert: string, moves: string, all: boolean): string {
  let byInsert = insertWithCountsTexts.get(carried);
  if (!byInsert) {
    if (insertWithCountsTexts.size >= MAX_INSERT_WITH_COUNTS_TEXTS) insertWithCountsTexts.clear();
    insertWithCountsTexts.set(carried, (byInsert = new Map()));
  }
  let byMoves = byInsert.get(insert);
  if (!byMoves) {
    if (byInsert.size >= MAX_INSERT_WITH_COUNTS_TEXTS) byInsert.clear();
    byInsert.set(insert, (byMoves = new Map()));
  }
  let texts = byMoves.get(moves);
  if (!texts) {
    if (byMoves.size >= MAX_INSERT_WITH_COUNTS_TEXTS) byMoves.clear();
    byMoves.set(moves, (texts = {}));
  }
  const known = all ? texts.all : texts.id;
  if (known !== undefined) return known;
  const text = `WITH ${carried ? `carried AS (${carried}), ` : ''}made AS (${insert}),
    counted AS (${COUNTS_UPSERT}
      SELECT instance_id, stage_order, sum(delta)::integer FROM (
        SELECT instance_id, stage_order, 1 AS delta FROM made
        UNION ALL SELECT * FROM (${moves}) AS moves(instance_id, stage_order, delta)
      ) AS all_moves GROUP BY instance_id, stage_order ORDER BY instance_id, stage_order ${COUNTS_CONFLICT})
    SELECT ${all ? JOB_LIST : 'id'} FROM made`;
  if (all) texts.all = text;
  else texts.id = text;
  return text;
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
