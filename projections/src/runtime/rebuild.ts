import type { Knex } from 'knex';
import { migrateReadModels, READ_MODEL_SCHEMA } from '../db/migrate.ts';
import { comparePositions, positionToString, START, type EventStore, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import type { Projection } from './projection.ts';
import { applyBatch } from './projector.ts';
import {
  compareSchemas,
  countEventsUpTo,
  dropDeferredIndexes,
  tablesOf,
  type DeferredIndex,
  type TableComparison,
} from './rebuild-compare.ts';
import { buildIndexes, concurrencyOf, PARALLEL_BATCH, replay, replayInParallel, semaphore } from './rebuild-replay.ts';
import { ensureCheckpoint, MAIN_CHECKPOINT, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { newestCommittedPosition, readInlineSince, STOP_APPENDS_SQL } from './inline.ts';
import { parkedPositions, parkedReasons } from './parked.ts';

const REBUILD_SCHEMA = 'rm_rebuild';
const REBUILD_CHECKPOINT = 'rebuild';
const RETIRED_SCHEMA = 'rm_retired';
/**
 * The statistics target of the rebuild's own ANALYZE: PostgreSQL samples 300 rows per unit of
 * it (9,000 a table) and keeps up to 30 common values and 30 histogram buckets a column,
 * instead of the default 100 (30,000 rows, 100 of each), a quarter of the CPU (1.33 against
 * 0.37 s over the bench's full store). Enough to plan the first reads (an instance's rows, a
 * stage, a range of dates); autovacuum analyzes at the default target once a tenth of a
 * table's rows has changed, as it does any table.
 */
export const REBUILD_STATISTICS_TARGET = 30;

export type { TableComparison };

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
  /** Milliseconds per step (prepare, replay, indexes, analyze, finish, compare, swap): where a rebuild's time goes. */
  timings: Record<string, number>;
  /**
   * This process's CPU milliseconds (user and system) per step. On a busy machine the wall
   * time of a step grows with the load; the CPU it took does not.
   */
  processCpu: Record<string, number>;
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
  const processCpu: Record<string, number> = {};
  let stepStarted = performance.now();
  let cpuAtStepStart = process.cpuUsage();
  const step = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - stepStarted);
    stepStarted = now;
    const used = process.cpuUsage(cpuAtStepStart);
    processCpu[name] = Math.round((used.user + used.system) / 1000);
    cpuAtStepStart = process.cpuUsage();
  };

  // The fresh schema: about 200 DDL statements, each a round trip and most of them a commit,
  // which took 0.3-1.3 s of a rebuild while this process waited. They run while the first
  // pages are read, parsed and folded; no write to the fresh tables starts before they are done.
  const preparing = performance.now();
  let pending: DeferredIndex[] = [];
  const prepared = (async () => {
    await knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [REBUILD_SCHEMA]);
    await migrateReadModels(knex, REBUILD_SCHEMA);
    // The fresh tables' secondary indexes are built after their rows are in, in one pass each,
    // instead of row by row (trigram GIN indexes above all). Keys and unique indexes stay (the
    // projections' upserts rely on them), but for the primary keys of the tables only a bulk
    // path's COPY writes (`keysAfterLoad`): those are back, under their own names, before
    // phase 2, whose inserts skip rows already present.
    pending = await dropDeferredIndexes(
      knex,
      REBUILD_SCHEMA,
      projections.flatMap((projection) => projection.keysAfterLoad ?? []),
    );
    timings['replay:prepare'] = Math.round(performance.now() - preparing);
  })();
  prepared.catch(() => undefined); // awaited by every write of phase 1 and below
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

  // Phase 1, without locks: catch up to where the live projector was when we started. A
  // table a projection fills in bulk gets its indexes as soon as that projection is done,
  // while the others still replay; the rest after the replay.
  step('prepare');
  // Time each projection spent applying its events (they overlap: together more than the replay).
  const busy: Record<string, number> = {};
  const limit = semaphore(concurrencyOf(knex));
  // Fresh tables have no planner statistics until autovacuum's analyze, about a minute after
  // the swap: until then the first reads of the new tables could plan without them. Each table
  // is analyzed once its rows and indexes are in (an expression index's statistics need the
  // index), so the swapped-in tables are planned like the ones they replace; on a smaller
  // sample (REBUILD_STATISTICS_TARGET), set for its own transaction only.
  const analyzed = new Set<string>();
  const analyze = async (tables: readonly string[]) => {
    const started = performance.now();
    await Promise.all(
      tables
        .filter((table) => !analyzed.has(table))
        .map((table) => {
          analyzed.add(table);
          return limit(() =>
            knex.transaction(async (trx) => {
              await trx.raw(`SET LOCAL default_statistics_target = ${REBUILD_STATISTICS_TARGET}`);
              await trx.raw('ANALYZE ??.??', [REBUILD_SCHEMA, table]);
            }),
          );
        }),
    );
    busy.analyze = (busy.analyze ?? 0) + performance.now() - started;
  };
  const indexesOf = async (tables: ReadonlySet<string>) => {
    const now = pending.filter((index) => tables.has(index.table));
    pending = pending.filter((index) => !tables.has(index.table));
    const started = performance.now();
    await buildIndexes(knex, limit, now);
    busy.indexes = (busy.indexes ?? 0) + performance.now() - started;
    await analyze([...tables]);
  };
  let position = await replayInParallel({
    knex,
    store,
    schema: REBUILD_SCHEMA,
    upTo: liveAtStart,
    batchSize: Math.max(batchSize, PARALLEL_BATCH),
    projections,
    skip: skipAndCount,
    onApplied: (count) => {
      replayed += count;
      options.onProgress?.({ replayed, total: total === null ? null : Math.max(total, replayed) });
    },
    busy,
    limit,
    tablesComplete: indexesOf,
    ready: prepared,
    // The first pass has written the other projections' tables; the held projections read
    // them row by row through their indexes (a customer's vehicle records by customer): built
    // after the replay instead, a page took 5-45 s over the bench's full store, one scan of
    // the table for each customer.
    beforeHeldPass: async () => {
      const now = pending;
      pending = [];
      const started = performance.now();
      await buildIndexes(knex, limit, now);
      busy.indexes = (busy.indexes ?? 0) + performance.now() - started;
    },
  });
  await prepared;
  await knex.transaction((trx) => writeCheckpoint(trx, REBUILD_CHECKPOINT, position));
  step('replay');
  for (const [name, ms] of Object.entries(busy)) timings[`replay:${name}`] = Math.round(ms);
  await buildIndexes(knex, limit, pending);
  step('indexes');
  // The tables no bulk path wrote are analyzed now; the few rows phase 2 may add below (the
  // events appended since the start) do not change their statistics materially.
  await analyze(await tablesOf(knex, REBUILD_SCHEMA));
  step('analyze');

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
      processCpu,
    };
  });
}
