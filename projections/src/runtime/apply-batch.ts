import type { Knex } from 'knex';
import { parseStoredEvent, type StoredDomainEvent } from '../events.ts';
import { comparePositions, START, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { createProjectionContext, takenBy, type Projection, type ProjectionContext } from './projection.ts';
import {
  checkpointWrite,
  deferCheckpointLock,
  isCheckpointPassed,
  lockCheckpointForBatch,
  readCheckpoint,
  writeCheckpoint,
} from './checkpoints.ts';
import { pipelinedTransaction, type PipelinedConnection } from './pipelined-transaction.ts';
import { projectsEvent } from './inline.ts';
import { recordParkedEvent } from './parked.ts';

export interface ApplyOptions {
  schema: string;
  checkpointName: string;
  projections: Projection[];
  /** Events to pass over (a rebuild skips what the live projector parked). */
  skip?: (event: RecordedEvent) => boolean;
  /**
   * Set when appends write the inline projections themselves: those then take only events
   * at or before this position (appended before inline projection started; null: none).
   * Undefined (a rebuild, EventStoreDB): every projection takes every event.
   */
  inlineUpTo?: GlobalPosition | null;
  /**
   * Commit once this much time has gone into the batch (checked after each event, so at
   * least one is applied): the events are then applied one by one, each to every projection
   * that takes it, and the position returned is the last one applied; the caller applies
   * the rest in a next transaction. Every transaction that has written holds back what the
   * log's global readers see (the visibility horizon of the PostgreSQL event store), so a
   * reactor whose events each cost several round trips keeps its transactions short.
   */
  budgetMs?: number;
}

/**
 * Applies events to a set of read models inside one PostgreSQL transaction per batch,
 * together with the checkpoint, so each event takes effect exactly once even after a crash.
 * A handler that throws rolls the whole batch back: nothing of it is applied.
 *
 * The checkpoint's row is taken first in the transaction, which serialises us with any other
 * writer of this set (a rebuild's swap, a second projector that lost its lock). A batch of up
 * to PIPELINED_BATCH_MAX events is pipelined: BEGIN and that lock go with the batch's first
 * read (or its writes), and what the projections write without reading it back (ctx.write:
 * the timeline's and the insights' inserts, the checkpoint) goes with their next read or with
 * the COMMIT, so a batch costs its reads' round trips and one more, not one per statement; on
 * a busy machine every round trip is a socket write and a backend's wake-up. Such a batch
 * applies all its events, counting on the stored checkpoint being before the first of them
 * (it is, unless another writer moved it): its lock fails the transaction when it is not, and
 * the batch rolls back and goes again with the lock read first. A batch that only writes (the
 * timeline's rows for customer events) is so one message: BEGIN, the lock, the writes, the
 * checkpoint and the COMMIT. A held write that fails fails the COMMIT, and nothing of the
 * batch is recorded, as when it failed at once. A reactor's batch (budgetMs) reads the lock
 * first, alone: a reactor appends commands from its handlers, which a rollback does not take
 * back, so it must know its checkpoint before it acts; unless its handlers each await a
 * statement of the transaction before they act (Projection.readsBeforeActing): then the lock
 * goes with that statement, whose answer comes only once the lock has been checked. Within a
 * caller's transaction (a rebuild's finish) and for a larger batch (a rebuild's pages; the
 * projector's loop cuts what it takes into batches of at most that many), statements go one
 * by one.
 */
export async function applyBatch(knex: Knex, options: ApplyOptions, events: RecordedEvent[]): Promise<GlobalPosition | null> {
  const pipelined = events.length > 0 && events.length <= PIPELINED_BATCH_MAX && !(knex as Knex.Transaction).isTransaction;
  if (pipelined && (options.budgetMs === undefined || options.projections.every((projection) => projection.readsBeforeActing))) {
    const applied = await applyPipelined(knex, options, events);
    if (applied !== CHECKPOINT_PASSED) return applied;
  }
  const work = async (trx: Knex.Transaction, connection: PipelinedConnection | null) => {
    const checkpoint = (await lockCheckpointForBatch(trx, options.checkpointName)) ?? START;
    const defer = connection ? { defer: deferOn(connection, options.checkpointName) } : {};
    return await applyEvents(options, createProjectionContext(trx, options.schema, defer), checkpoint, events);
  };
  return pipelined ? await pipelinedTransaction(knex, work) : await knex.transaction((trx) => work(trx, null));
}

/** A projection context's way to hold a write back (ProjectionContext's `defer` option). */
type Deferrer = NonNullable<NonNullable<Parameters<typeof createProjectionContext>[2]>['defer']>;

/** Writes held back on the batch's connection, each named by the checkpoint (for the error of one that fails). */
function deferOn(connection: PipelinedConnection, checkpointName: string): Deferrer {
  return (statement, onRows) => connection.defer(statement, checkpointName, onRows);
}

/** The answer of a pipelined batch that found the stored checkpoint at or past its first event (and rolled back). */
const CHECKPOINT_PASSED = Symbol('checkpoint passed');

/** A pipelined batch (see applyBatch); CHECKPOINT_PASSED when it rolled back because another writer had applied some of it. */
async function applyPipelined(
  knex: Knex,
  options: ApplyOptions,
  events: RecordedEvent[],
): Promise<GlobalPosition | null | typeof CHECKPOINT_PASSED> {
  const first = events.reduce((min, event) => (comparePositions(event.position, min) < 0 ? event.position : min), events[0]!.position);
  try {
    return await pipelinedTransaction(knex, async (trx, connection) => {
      const defer = deferOn(connection, options.checkpointName);
      deferCheckpointLock(defer, options.checkpointName, first);
      return await applyEvents(options, createProjectionContext(trx, options.schema, { defer }), START, events);
    });
  } catch (error) {
    if (isCheckpointPassed(error)) return CHECKPOINT_PASSED;
    throw error;
  }
}

/**
 * The events after `checkpoint` to the projections that take them, and the checkpoint moved
 * to the last of them (null: none was after it).
 */
async function applyEvents(
  options: ApplyOptions,
  ctx: ProjectionContext,
  checkpoint: GlobalPosition,
  events: RecordedEvent[],
): Promise<GlobalPosition | null> {
  if (options.budgetMs !== undefined) {
    const last = await applyWithin(options, options.budgetMs, ctx, checkpoint, events);
    if (last) await ctx.write(checkpointWrite(options.checkpointName, last));
    return last;
  }
  // Each projection gets the batch's events it takes, in global order: set-based when it
  // can (applyBatch), event by event otherwise. Projections keep to their own tables, so
  // one after the other is the same as event by event across all of them.
  const perProjection = options.projections.map(() => [] as StoredDomainEvent[]);
  let last: GlobalPosition | null = null;
  for (const { position, taken } of eventsAfter(options, checkpoint, events)) {
    last = position;
    if (taken) for (const i of taken.takers) perProjection[i]!.push(taken.parsed);
  }
  for (const [i, projection] of options.projections.entries()) {
    const taken = perProjection[i]!;
    if (taken.length === 0) continue;
    if (projection.applyBatch && taken.length > 1) await projection.applyBatch(taken, ctx);
    else for (const event of taken) await projection.apply(event, ctx);
  }
  if (last) await ctx.write(checkpointWrite(options.checkpointName, last));
  return last;
}

/**
 * The most events a pipelined batch takes. A held write goes as SQL text with its values
 * written in (the simple query protocol takes no parameters), a few copies of its rows' JSON
 * where a bound parameter is one; a catch-up batch of thousands of events would hold
 * megabytes of them, and what it would save, a few round trips, is nothing beside its work.
 */
export const PIPELINED_BATCH_MAX = 64;

/**
 * The events one by one, each to every projection that takes it, until the budget is spent;
 * the last position applied. A reactor alone in its set that applies batches (applyBatch)
 * gets them in runs of up to BUDGETED_RUN_MAX events, the budget looked at after each run:
 * what its events each cost in round trips it can then pay once per run.
 */
async function applyWithin(
  options: ApplyOptions,
  budgetMs: number,
  ctx: ProjectionContext,
  checkpoint: GlobalPosition,
  events: RecordedEvent[],
): Promise<GlobalPosition | null> {
  const deadline = performance.now() + budgetMs;
  const [only, ...others] = options.projections;
  const runs = only?.applyBatch && others.length === 0;
  let last: GlobalPosition | null = null;
  let run: StoredDomainEvent[] = [];
  let seen = 0;
  for (const { position, taken } of eventsAfter(options, checkpoint, events)) {
    last = position;
    if (runs) {
      if (taken) run.push(taken.parsed);
      if (++seen < BUDGETED_RUN_MAX) continue;
      await applyRun(only, run, ctx);
      run = [];
      seen = 0;
    } else if (taken) for (const i of taken.takers) await options.projections[i]!.apply(taken.parsed, ctx);
    if (performance.now() >= deadline) break;
  }
  if (runs) await applyRun(only, run, ctx);
  return last;
}

/** The most events a budgeted batch hands its reactor at once (applyWithin). */
const BUDGETED_RUN_MAX = 64;

async function applyRun(projection: Projection, events: StoredDomainEvent[], ctx: ProjectionContext): Promise<void> {
  if (events.length > 1 && projection.applyBatch) await projection.applyBatch(events, ctx);
  else for (const event of events) await projection.apply(event, ctx);
}

/**
 * The events after `checkpoint`, in the batch's order, each with what takes it: null when
 * nothing does or `options.skip` passes it over (it still moves the checkpoint).
 */
function* eventsAfter(
  options: ApplyOptions,
  checkpoint: GlobalPosition,
  events: RecordedEvent[],
): Generator<{ position: GlobalPosition; taken: ReturnType<typeof takersOf> }> {
  for (const event of events) {
    if (comparePositions(event.position, checkpoint) <= 0) continue;
    yield { position: event.position, taken: options.skip?.(event) ? null : takersOf(options, event) };
  }
}

/** The event parsed (only when some projection takes its type) and the indexes of the projections that take it; null: none. */
function takersOf(options: ApplyOptions, event: RecordedEvent): { parsed: StoredDomainEvent; takers: number[] } | null {
  let parsed: StoredDomainEvent | null | undefined;
  const takers: number[] = [];
  for (const [i, projection] of options.projections.entries()) {
    if (!takenBy(projection, event) || !projectsEvent(projection, event, options.inlineUpTo)) continue;
    if (parsed === undefined) parsed = parseStoredEvent(event);
    if (!parsed) return null;
    if (!projection.takes || projection.takes(parsed)) takers.push(i);
  }
  return parsed && takers.length > 0 ? { parsed, takers } : null;
}

/** Stores a poison event and moves the checkpoint past it, in one transaction. */
export async function parkEvent(knex: Knex, checkpointName: string, event: RecordedEvent, error: unknown): Promise<boolean> {
  return await knex.transaction(async (trx) => {
    const checkpoint = (await readCheckpoint(trx, checkpointName, true)) ?? START;
    // Applied (or parked) by another writer in the meantime: nothing to park.
    if (comparePositions(event.position, checkpoint) <= 0) return false;
    await recordParkedEvent(trx, checkpointName, event, error);
    await writeCheckpoint(trx, checkpointName, event.position);
    return true;
  });
}
