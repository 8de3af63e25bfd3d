import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { migrateReadModels, READ_MODEL_SCHEMA } from '../db/migrate.ts';
import { comparePositions, positionToString, START, type EventStore, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { createProjectionContext, takenBy, type Projection } from './projection.ts';
import { parseStoredEvent, type StoredDomainEvent } from '../events.ts';
import { applyBatch } from './projector.ts';
import { ensureCheckpoint, MAIN_CHECKPOINT, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { newestCommittedPosition, readInlineSince, STOP_APPENDS_SQL } from './inline.ts';
import { parkedPositions, parkedReasons } from './parked.ts';

const REBUILD_SCHEMA = 'rm_rebuild';
const REBUILD_CHECKPOINT = 'rebuild';
const RETIRED_SCHEMA = 'rm_retired';

export interface TableComparison {
  table: string;
  liveRows: number;
  rebuiltRows: number;
  identical: boolean;
}

export interface RebuildReport {
  eventsReplayed: number;
  position: GlobalPosition;
  tables: TableComparison[];
  /**
   * Events the live projector parked, which the rebuild skipped too: changes the read
   * models do not show. Any of them makes the report a difference, never "identical".
   */
  parked: SkippedEvent[];
  identical: boolean;
  /** Milliseconds per step (prepare, replay, indexes, finish, compare, swap): where a rebuild's time goes. */
  timings: Record<string, number>;
}

export interface SkippedEvent {
  eventId: string;
  streamId: string;
  type: string;
  error: string;
}

export interface RebuildOptions {
  store: EventStore;
  knex: Knex;
  projections: Projection[];
  batchSize?: number;
  onProgress?: (progress: { replayed: number; total: number | null }) => void;
}

/**
 * Replays every event into fresh tables, compares them with the live ones at the same
 * checkpoint, and swaps them in. The live projector keeps running: the swap holds its
 * checkpoint row, which every projector batch takes first, so no batch lands mid-swap.
 */
export async function rebuildReadModels(options: RebuildOptions): Promise<RebuildReport> {
  const { knex, store, projections } = options;
  const batchSize = options.batchSize ?? 5000;
  await ensureCheckpoint(knex, MAIN_CHECKPOINT);
  const liveAtStart = (await readCheckpoint(knex, MAIN_CHECKPOINT)) ?? START;
  const timings: Record<string, number> = {};
  let stepStarted = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - stepStarted);
    stepStarted = now;
  };

  await knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [REBUILD_SCHEMA]);
  await migrateReadModels(knex, REBUILD_SCHEMA);
  await knex('projection_checkpoints').where({ name: REBUILD_CHECKPOINT }).delete();
  await ensureCheckpoint(knex, REBUILD_CHECKPOINT);

  const total = store.kind === 'postgres' ? await countEventsUpTo(knex, liveAtStart) : null;
  // What the live projector parked, the rebuild skips too: the result matches the live tables.
  const parked = await parkedPositions(knex, MAIN_CHECKPOINT);
  const skip = (event: RecordedEvent) => parked.has(positionToString(event.position));
  const skipped = new Map<string, RecordedEvent>();
  const skipAndCount = (event: RecordedEvent) => {
    if (!skip(event)) return false;
    skipped.set(event.id, event);
    return true;
  };
  let replayed = 0;
  const apply = async (db: Knex, events: RecordedEvent[]) => {
    await applyBatch(db, { schema: REBUILD_SCHEMA, checkpointName: REBUILD_CHECKPOINT, projections, skip: skipAndCount }, events);
    replayed += events.length;
    options.onProgress?.({ replayed, total: total === null ? null : Math.max(total, replayed) });
  };

  // Phase 1, without locks: catch up to where the live projector was when we started. The
  // fresh tables' secondary indexes are built after it, in one pass each, instead of row by
  // row (trigram GIN indexes above all); keys and unique indexes stay, the projections rely on them.
  const deferred = await dropSecondaryIndexes(knex, REBUILD_SCHEMA);
  step('prepare');
  // Time each projection spent applying its events (they overlap: together more than the replay).
  const busy: Record<string, number> = {};
  let position = await replayInParallel(
    knex,
    store,
    liveAtStart,
    Math.max(batchSize, PARALLEL_BATCH),
    projections,
    skipAndCount,
    (count) => {
      replayed += count;
      options.onProgress?.({ replayed, total: total === null ? null : Math.max(total, replayed) });
    },
    busy,
  );
  await knex.transaction((trx) => writeCheckpoint(trx, REBUILD_CHECKPOINT, position));
  step('replay');
  for (const [name, ms] of Object.entries(busy)) timings[`replay:${name}`] = Math.round(ms);
  await inParallel(deferred, concurrencyOf(knex), (definition) => knex.raw(definition));
  step('indexes');

  // Phase 2, holding the live checkpoint: finish to exactly its position, compare, swap.
  return await knex.transaction(async (trx) => {
    // No append writes inline rows until the swap (they would go with the retired tables).
    await trx.raw(STOP_APPENDS_SQL);
    let live = (await readCheckpoint(trx, MAIN_CHECKPOINT, true)) ?? START;
    const inlineUpTo = await readInlineSince(trx);
    if (inlineUpTo) {
      // The inline tables hold every committed event; the projector's may be behind them.
      // Holding its checkpoint, bring them to the same event, so both sides compare at one point.
      const head = await newestCommittedPosition(trx);
      if (comparePositions(head, live) > 0) {
        const liveOptions = { schema: READ_MODEL_SCHEMA, checkpointName: MAIN_CHECKPOINT, projections, inlineUpTo, skip };
        await replay(store, live, head, batchSize, async (events) => {
          await applyBatch(trx as unknown as Knex, liveOptions, events);
        });
        live = head;
      }
    }
    position = await replay(store, position, live, batchSize, (events) => apply(trx as unknown as Knex, events));
    step('finish');
    const tables = await compareSchemas(trx, READ_MODEL_SCHEMA, REBUILD_SCHEMA);
    step('compare');
    await trx.raw('ALTER SCHEMA ?? RENAME TO ??', [READ_MODEL_SCHEMA, RETIRED_SCHEMA]);
    await trx.raw('ALTER SCHEMA ?? RENAME TO ??', [REBUILD_SCHEMA, READ_MODEL_SCHEMA]);
    await trx.raw('DROP SCHEMA ?? CASCADE', [RETIRED_SCHEMA]);
    await trx('projection_checkpoints').where({ name: REBUILD_CHECKPOINT }).delete();
    step('swap');
    const reasons = await parkedReasons(trx, MAIN_CHECKPOINT, [...skipped.keys()]);
    const skippedEvents = [...skipped.values()].map((e) => ({
      eventId: e.id,
      streamId: e.streamId,
      type: e.type,
      error: reasons.get(e.id) ?? '',
    }));
    return {
      eventsReplayed: replayed,
      position: live,
      tables,
      parked: skippedEvents,
      identical: tables.every((t) => t.identical) && skippedEvents.length === 0,
      timings,
    };
  });
}

async function replay(
  store: EventStore,
  from: GlobalPosition,
  upTo: GlobalPosition,
  batchSize: number,
  apply: (events: RecordedEvent[]) => Promise<void>,
): Promise<GlobalPosition> {
  let position = from;
  const read = (after: GlobalPosition) => {
    if (comparePositions(after, upTo) >= 0) return Promise.resolve([] as RecordedEvent[]);
    const reading = store.readAll(after, batchSize).then((events) => events.filter((e) => comparePositions(e.position, upTo) <= 0));
    reading.catch(() => undefined); // awaited below; a failure while applying must not go unhandled
    return reading;
  };
  // The next batch is read while this one is applied.
  let next = read(position);
  let waitedMs = 0;
  for (;;) {
    const events = await next;
    if (events.length === 0) {
      if (comparePositions(position, upTo) >= 0) break;
      // `upTo` is an event the live projector has applied, so it exists: a reader sees it
      // once the transactions that hold the visibility horizon back have ended.
      if (waitedMs >= HELD_BACK_LIMIT_MS) throw new Error(`rebuild: events up to ${positionToString(upTo)} did not become visible`);
      await sleep(20);
      waitedMs += 20;
      next = read(position);
      continue;
    }
    waitedMs = 0;
    const last = events[events.length - 1]!.position;
    next = read(last);
    await apply(events);
    position = last;
  }
  return position;
}

/** Events read per page while the fresh tables are filled (phase 1). */
const PARALLEL_BATCH = 20_000;
/** Pages read ahead of the slowest projection. */
const PAGES_AHEAD = 2;

/**
 * Phase 1: every projection fills its own tables on its own connection, in transactions of
 * its own, fed the events it takes in global order. Projections keep to their own tables,
 * so running them side by side gives what one after the other gives. Each event is read and
 * parsed once; the next pages are read while the slowest projection applies this one. No
 * checkpoint per page: a rebuild that fails starts again from fresh tables. Answers the last
 * event read; `onApplied` is told each page once every projection has applied it.
 */
async function replayInParallel(
  knex: Knex,
  store: EventStore,
  upTo: GlobalPosition,
  batchSize: number,
  projections: Projection[],
  skip: (event: RecordedEvent) => boolean,
  onApplied: (count: number) => void,
  busy: Record<string, number>,
): Promise<GlobalPosition> {
  const limit = semaphore(concurrencyOf(knex));
  const lanes = projections.map(() => Promise.resolve());
  const pages: Promise<unknown>[] = [];
  let failure: unknown;
  const position = await replay(store, START, upTo, batchSize, async (events) => {
    if (failure !== undefined) throw failure;
    const perProjection = projections.map(() => [] as StoredDomainEvent[]);
    for (const event of events) {
      if (skip(event)) continue;
      let parsed: StoredDomainEvent | null | undefined;
      projections.forEach((projection, i) => {
        if (!takenBy(projection, event)) return;
        if (parsed === undefined) parsed = parseStoredEvent(event);
        if (parsed && (!projection.takes || projection.takes(parsed))) perProjection[i]!.push(parsed);
      });
    }
    const page = Promise.all(
      projections.map((projection, i) => {
        const taken = perProjection[i]!;
        if (taken.length === 0) return lanes[i];
        lanes[i] = lanes[i]!.then(() =>
          limit(async () => {
            const started = performance.now();
            await applyToRebuild(knex, projection, taken);
            busy[projection.name] = (busy[projection.name] ?? 0) + performance.now() - started;
          }),
        );
        return lanes[i];
      }),
    ).then(() => onApplied(events.length));
    page.catch((error: unknown) => {
      failure ??= error;
    });
    pages.push(page);
    // Reads stay at most a few pages ahead of the slowest projection (memory).
    if (pages.length > PAGES_AHEAD) await pages.shift();
  });
  await Promise.all(pages);
  return position;
}

async function applyToRebuild(knex: Knex, projection: Projection, events: StoredDomainEvent[]): Promise<void> {
  await knex.transaction(async (trx) => {
    // Fresh tables nobody reads yet: a crash loses the rebuild anyway, so no commit waits for the disk.
    await trx.raw('SET LOCAL synchronous_commit = off');
    const ctx = createProjectionContext(trx, REBUILD_SCHEMA);
    if (projection.applyBatch && events.length > 1) await projection.applyBatch(events, ctx);
    else for (const event of events) await projection.apply(event, ctx);
  });
}

/** Connections a rebuild may hold at once: all but one of the pool's (the phase-2 lock, the app), at most four. */
function concurrencyOf(knex: Knex): number {
  const max = (knex.client as { pool?: { max?: number } }).pool?.max ?? 2;
  return Math.max(1, Math.min(4, max - 1));
}

/** Runs `task` at most `concurrency` at a time. */
function semaphore(concurrency: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    // A finished task hands its slot straight to the next waiting one.
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

async function inParallel<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<unknown>): Promise<void> {
  const limit = semaphore(concurrency);
  await Promise.all(items.map((item) => limit(() => task(item))));
}

/** How long a rebuild waits for events it knows exist to become visible. */
const HELD_BACK_LIMIT_MS = 60_000;

/** Drops the schema's indexes that are neither keys, constraints nor unique; answers their definitions. */
async function dropSecondaryIndexes(knex: Knex, schema: string): Promise<string[]> {
  const result = await knex.raw<{ rows: Array<{ name: string; definition: string }> }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ? AND NOT i.indisunique AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [schema],
  );
  for (const { name } of result.rows) await knex.raw('DROP INDEX ??.??', [schema, name]);
  return result.rows.map((row) => row.definition);
}

async function countEventsUpTo(knex: Knex, upTo: GlobalPosition): Promise<number> {
  const result = await knex.raw<{ rows: { count: string }[] }>(
    `SELECT count(*) FROM events WHERE (tx_id, seq) <= (?::text::xid8, ?::bigint)`,
    [upTo.commit < 0n ? '0' : upTo.commit.toString(), upTo.prepare.toString()],
  );
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Row-by-row comparison through an order-independent digest of each table's rows: the
 * count and the sums of two 64-bit halves of each row's md5, so no table is sorted (sorting
 * every row's text took about half of a large rebuild).
 */
async function compareSchemas(trx: Knex.Transaction, live: string, rebuilt: string): Promise<TableComparison[]> {
  const tables = await trx('information_schema.tables')
    .where({ table_schema: rebuilt, table_type: 'BASE TABLE' })
    .whereNot('table_name', 'like', 'knex_migrations%')
    .orderBy('table_name')
    .pluck('table_name');
  const digest = async (schema: string, table: string) => {
    // Each row's 64-bit hash from its columns' own hash functions (no text, no md5: a
    // third of the time), summed two ways with different seeds. A table with a column type
    // that has no hash function falls back to the md5 of each row's text.
    try {
      const result = await trx.transaction((savepoint) =>
        savepoint.raw<{ rows: { rows: string; digest: string | null }[] }>(
          `SELECT count(*) AS rows,
                  coalesce(sum(hash_record_extended(t, 0)::numeric), 0)::text || ':' ||
                  coalesce(sum(hash_record_extended(t, 1)::numeric), 0)::text AS digest
             FROM ??.?? t`,
          [schema, table],
        ),
      );
      return result.rows[0]!;
    } catch {
      const result = await trx.raw<{ rows: { rows: string; digest: string | null }[] }>(
        `SELECT count(*) AS rows,
                coalesce(sum(('x' || substr(h, 1, 16))::bit(64)::bigint::numeric), 0)::text || ':' ||
                coalesce(sum(('x' || substr(h, 17, 16))::bit(64)::bigint::numeric), 0)::text AS digest
           FROM (SELECT md5(t::text) AS h FROM ??.?? t) hashed`,
        [schema, table],
      );
      return result.rows[0]!;
    }
  };
  const comparisons: TableComparison[] = [];
  for (const table of tables as string[]) {
    const a = await digest(live, table);
    const b = await digest(rebuilt, table);
    comparisons.push({
      table,
      liveRows: Number(a.rows),
      rebuiltRows: Number(b.rows),
      identical: a.digest === b.digest && a.rows === b.rows,
    });
  }
  return comparisons;
}
