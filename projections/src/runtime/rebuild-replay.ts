import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { comparePositions, positionToString, START, type EventStore, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { parseStoredEvent, type StoredDomainEvent } from '../events.ts';
import { copyRows, type TableRows } from './copy.ts';
import type { DeferredIndex } from './rebuild-compare.ts';
import { createProjectionContext, takenBy, type BulkRebuilder, type Projection } from './projection.ts';

/** How long a rebuild waits for events it knows exist to become visible. */
const HELD_BACK_LIMIT_MS = 60_000;
/**
 * Events read per page while the fresh tables are filled (phase 1). The fresh schema's
 * preparation shares this event loop with the first page's read, parse and fold, so a
 * smaller first page lets it finish sooner; pages of 20,000 held it back about twice as long.
 */
export const PARALLEL_BATCH = 5_000;
/** Pages read ahead of the slowest projection. */
const PAGES_AHEAD = 2;
/** Events parsed or folded at a time while the fresh schema is still being prepared. */
const PREPARING_SLICE = 250;

/**
 * Reads the log after `from` up to `upTo` in pages of `batchSize`, the next page read while
 * `apply` works on this one. Answers the last position applied.
 */
export async function replay(
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

export interface ParallelReplay {
  knex: Knex;
  store: EventStore;
  schema: string;
  upTo: GlobalPosition;
  batchSize: number;
  projections: Projection[];
  skip: (event: RecordedEvent) => boolean;
  /** Told each page once every projection has applied it. */
  onApplied: (count: number) => void;
  /** Milliseconds each projection spent (they overlap: together more than the replay). */
  busy: Record<string, number>;
  /** Shared by every statement of the rebuild's phase 1: at most this many connections at once. */
  limit: Semaphore;
  /**
   * Told, outside any slot of `limit`, when a projection with a bulk path has written all its
   * rows, with the tables it wrote: their indexes can be built while other projections still
   * replay, where PostgreSQL would otherwise wait for this process.
   */
  tablesComplete(tables: ReadonlySet<string>): Promise<void>;
  /** Settles once the fresh tables exist: every write waits for it, the reads and folds do not. */
  ready: Promise<void>;
  /** Called after the first pass, before the projections that read others' tables replay (if any do). */
  beforeHeldPass(): Promise<void>;
}

/**
 * Phase 1: every projection fills its own tables on its own connection, in transactions of
 * its own, fed the events it takes in global order. Projections keep to their own tables,
 * so running them side by side gives what one after the other gives. Each event is read and
 * parsed once; the next pages are read while the slowest projection applies this one. No
 * checkpoint per page: a rebuild that fails starts again from fresh tables. A projection
 * with a bulk path turns each page into rows written with COPY, and its folded rows at the
 * end; the others apply each page as the projector would. One that reads the tables of a
 * projection with a bulk path (`readsFrom`) finds them complete only at the end, so it
 * replays in a second pass over the log, when it takes any event. Answers the last event read.
 */
export async function replayInParallel(options: ParallelReplay): Promise<GlobalPosition> {
  const bulkNames = new Set(options.projections.filter((projection) => projection.bulk).map((projection) => projection.name));
  const held = options.projections.filter((projection) => projection.readsFrom?.some((name) => bulkNames.has(name)));
  let heldEvents = 0;
  const position = await replayPass(
    options,
    START,
    options.upTo,
    (projection, count) => {
      if (held.includes(projection)) heldEvents += count;
    },
    held,
  );
  if (heldEvents > 0) {
    // The held projections read other projections' tables row by row (a customer's vehicle
    // records): without those tables' indexes each read scans a whole table.
    await options.beforeHeldPass();
    await replayPass({ ...options, projections: held, onApplied: () => {} }, START, position, () => {}, []);
  }
  return position;
}

/** One pass over the log up to `upTo` for the projections of `options` but `leftOut` (only counted, through `taken`). */
async function replayPass(
  options: ParallelReplay,
  from: GlobalPosition,
  upTo: GlobalPosition,
  taken: (projection: Projection, count: number) => void,
  leftOut: readonly Projection[],
): Promise<GlobalPosition> {
  const { knex, store, schema, skip, busy, limit } = options;
  const projections = options.projections;
  // The tables each projection with a bulk path wrote.
  const written = projections.map(() => new Set<string>());
  const write = async (i: number, tables: TableRows[]) => {
    for (const table of tables) written[i]!.add(table.table);
    await writeRows(knex, schema, tables);
  };
  const bulk: Array<BulkRebuilder | undefined> = projections.map((projection) =>
    leftOut.includes(projection) ? undefined : projection.bulk?.(),
  );
  const lanes = projections.map(() => options.ready);
  // The fresh schema is prepared on this event loop too, one round trip after another (about
  // 220), each waiting for the loop: parsing and folding a whole page in one go held each
  // round trip up until it was done (the preparation took 0.36 s of a quick rebuild instead
  // of 0.15 s). Until the schema is ready, the page is parsed and folded a slice at a time,
  // the loop let through between slices; smaller pages give the same rows.
  let preparing = true;
  options.ready.then(
    () => (preparing = false),
    () => (preparing = false),
  );
  const letPreparationThrough = () => (preparing ? setImmediate() : undefined);
  const foldLettingPreparationThrough = async (rebuilder: BulkRebuilder, taking: StoredDomainEvent[]) => {
    if (!preparing) return rebuilder.page(taking);
    const rows: TableRows[] = [];
    for (let start = 0; start < taking.length; start += PREPARING_SLICE) {
      await letPreparationThrough();
      rows.push(...rebuilder.page(taking.slice(start, start + PREPARING_SLICE)));
    }
    return mergedByTable(rows);
  };
  const timed = async (name: string, work: () => Promise<void>) => {
    const started = performance.now();
    await work();
    busy[name] = (busy[name] ?? 0) + performance.now() - started;
  };
  const pages: Promise<unknown>[] = [];
  let failure: unknown;
  const position = await replay(store, from, upTo, options.batchSize, async (events) => {
    if (failure !== undefined) throw failure;
    const perProjection = projections.map(() => [] as StoredDomainEvent[]);
    for (let e = 0; e < events.length; e++) {
      if (e % PREPARING_SLICE === 0) await letPreparationThrough();
      const event = events[e]!;
      if (skip(event)) continue;
      let parsed: StoredDomainEvent | null | undefined;
      projections.forEach((projection, i) => {
        if (!takenBy(projection, event)) return;
        if (parsed === undefined) parsed = parseStoredEvent(event);
        if (parsed && (!projection.takes || projection.takes(parsed))) perProjection[i]!.push(parsed);
      });
    }
    const folds: Array<TableRows[] | undefined> = [];
    for (const [i, rebuilder] of bulk.entries()) {
      const taking = perProjection[i]!;
      if (!rebuilder || taking.length === 0) continue;
      // A bulk path folds each page as it is read, in order (while the tables are prepared,
      // or the page before is written); its rows wait for the lane.
      folds[i] = await foldLettingPreparationThrough(rebuilder, taking);
    }
    const page = Promise.all(
      projections.map((projection, i) => {
        const events = perProjection[i]!;
        taken(projection, events.length);
        if (events.length === 0 || leftOut.includes(projection)) return lanes[i];
        const folded = folds[i];
        lanes[i] = lanes[i]!.then(() =>
          limit(() =>
            timed(projection.name, async () => {
              if (folded) await write(i, folded);
              else await applyToRebuild(knex, schema, projection, events);
            }),
          ),
        );
        return lanes[i];
      }),
    ).then(() => options.onApplied(events.length));
    page.catch((error: unknown) => {
      failure ??= error;
    });
    pages.push(page);
    // Reads stay at most a few pages ahead of the slowest projection (memory).
    if (pages.length > PAGES_AHEAD) await pages.shift();
    // Until the fresh tables exist, no page past the one being read: each of the preparation's
    // round trips waits for this event loop, which parsing and folding more pages would hold
    // (with three pages read ahead, the preparation took 7-13 s instead of 0.2-0.4 s).
    await options.ready;
  });
  // Each projection's rows folded over the whole log once it has applied every page, on its
  // own connection, not waiting for the slower ones; then the indexes of its tables.
  await Promise.all(
    projections.map((projection, i) => {
      const rebuilder = bulk[i];
      if (!rebuilder) return lanes[i];
      return lanes[i]!.then(() => limit(() => timed(projection.name, () => write(i, rebuilder.finish())))).then(() =>
        options.tablesComplete(written[i]!),
      );
    }),
  );
  await Promise.all(pages);
  return position;
}

/** Fresh tables nobody reads yet: a crash loses the rebuild anyway, so no commit waits for the disk. */
async function inRebuildTransaction(knex: Knex, work: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL synchronous_commit = off');
    await work(trx);
  });
}

/** Rows of the same table (and columns) in one COPY, in their order. */
function mergedByTable(tables: readonly TableRows[]): TableRows[] {
  const merged = new Map<string, TableRows & { rows: Readonly<Record<string, unknown>>[] }>();
  for (const table of tables) {
    const key = `${table.table}\u0000${table.columns.join('\u0000')}`;
    const into = merged.get(key);
    if (into) into.rows.push(...table.rows);
    else merged.set(key, { ...table, rows: [...table.rows] });
  }
  return [...merged.values()];
}

async function writeRows(knex: Knex, schema: string, tables: TableRows[]): Promise<void> {
  const filled = tables.filter((table) => table.rows.length > 0);
  if (filled.length === 0) return;
  await inRebuildTransaction(knex, async (trx) => {
    for (const table of filled) await copyRows(trx, schema, table);
  });
}

async function applyToRebuild(knex: Knex, schema: string, projection: Projection, events: StoredDomainEvent[]): Promise<void> {
  await inRebuildTransaction(knex, async (trx) => {
    const ctx = createProjectionContext(trx, schema);
    if (projection.applyBatch && events.length > 1) await projection.applyBatch(events, ctx);
    else for (const event of events) await projection.apply(event, ctx);
  });
}

/** Connections a rebuild may hold at once: all but one of the pool's (the phase-2 lock, the app), at most four. */
export function concurrencyOf(knex: Knex): number {
  const max = (knex.client as { pool?: { max?: number } }).pool?.max ?? 2;
  return Math.max(1, Math.min(4, max - 1));
}

/** Runs the task given to it, at most so many at a time. */
export type Semaphore = <T>(task: () => Promise<T>) => Promise<T>;

/** Runs `task` at most `concurrency` at a time. */
export function semaphore(concurrency: number): Semaphore {
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

/** Memory for each index build after the load (up to four run at once). */
const INDEX_BUILD_MEMORY = '256MB';

/**
 * Builds `indexes` of the fresh tables, each in a slot of `limit`; a table's primary key is
 * attached once all of that table's indexes are built.
 */
export async function buildIndexes(knex: Knex, limit: Semaphore, indexes: readonly DeferredIndex[]): Promise<void> {
  const build = (definition: string) =>
    limit(() =>
      knex.transaction(async (trx) => {
        // A trigram GIN index is built in about half the time with room for its entries
        // (PostgreSQL's default is 64 MB). A few indexes are built at once, each B-tree by its
        // own backend alone: parallel workers for each build as well only added their
        // coordination (the index step took 4.9-6.2 s of PostgreSQL's CPU without them, 6.4-10.4 s
        // with two). A trigram GIN index of a large table (PostgreSQL 18 builds those in parallel;
        // before, the setting is ignored for them) is the last build left running, so one worker
        // gives it the second core.
        const workers = / USING gin /.test(definition) ? 1 : 0;
        await trx.raw(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'; SET LOCAL max_parallel_maintenance_workers = ${workers}`);
        await trx.raw(definition);
      }),
    );
  const tables = [...new Set(indexes.map((index) => index.table))];
  await Promise.all(
    tables.map(async (table) => {
      const own = indexes.filter((index) => index.table === table);
      await Promise.all(own.map((index) => build(index.definition)));
      const attach = own.flatMap((index) => (index.attach ? [index.attach] : []));
      if (attach.length > 0) await limit(() => knex.raw(attach.join('; ')));
    }),
  );
}
