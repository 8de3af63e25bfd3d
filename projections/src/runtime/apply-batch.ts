import type { Knex } from 'knex';
import { parseStoredEvent, type StoredDomainEvent } from '../events.ts';
import { comparePositions, START, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { createProjectionContext, takenBy, type Projection, type ProjectionContext } from './projection.ts';
import { checkpointWrite, lockCheckpointForBatch, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
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
 */
export async function applyBatch(knex: Knex, options: ApplyOptions, events: RecordedEvent[]): Promise<GlobalPosition | null> {
  return await batchTransaction(knex, events.length <= PIPELINED_BATCH_MAX, async (trx, connection) => {
    // Taking the checkpoint row first serialises us with any other writer of this set
    // (a rebuild's swap, a second projector that lost its lock).
    const checkpoint = (await lockCheckpointForBatch(trx, options.checkpointName)) ?? START;
    const ctx = createProjectionContext(
      trx,
      options.schema,
      connection ? { defer: (statement, onRows) => connection.defer(statement, options.checkpointName, onRows) } : {},
    );
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
    for (const event of events) {
      if (comparePositions(event.position, checkpoint) <= 0) continue;
      last = event.position;
      if (options.skip?.(event)) continue;
      const taken = takersOf(options, event);
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
  });
}

/**
 * The most events a pipelined batch takes. A held write goes as SQL text with its values
 * written in (the simple query protocol takes no parameters), a few copies of its rows' JSON
 * where a bound parameter is one; a catch-up batch of thousands of events would hold
 * megabytes of them, and what it would save, a few round trips, is nothing beside its work.
 */
const PIPELINED_BATCH_MAX = 64;

/**
 * A batch's transaction, pipelined (when `pipelined`): BEGIN goes with the checkpoint's
 * lock, and what the projections write without reading it back (ctx.write: the timeline's
 * and the insights' inserts, the checkpoint) goes with their next read or with the COMMIT,
 * so a batch costs its reads' round trips and one more, not one per statement; on a busy
 * machine every round trip is a socket write and a backend's wake-up. A held write that
 * fails fails the COMMIT, and nothing of the batch is recorded, as when it failed at once.
 * Otherwise, and within a caller's transaction (a rebuild's finish), statements go one by one.
 */
async function batchTransaction<T>(
  knex: Knex,
  pipelined: boolean,
  work: (trx: Knex.Transaction, connection: PipelinedConnection | null) => Promise<T>,
): Promise<T> {
  if (!pipelined || (knex as Knex.Transaction).isTransaction) return await knex.transaction((trx) => work(trx, null));
  return await pipelinedTransaction(knex, work);
}

/** The events one by one, each to every projection that takes it, until the budget is spent; the last position applied. */
async function applyWithin(
  options: ApplyOptions,
  budgetMs: number,
  ctx: ProjectionContext,
  checkpoint: GlobalPosition,
  events: RecordedEvent[],
): Promise<GlobalPosition | null> {
  const deadline = performance.now() + budgetMs;
  let last: GlobalPosition | null = null;
  for (const event of events) {
    if (comparePositions(event.position, checkpoint) <= 0) continue;
    last = event.position;
    if (options.skip?.(event)) continue;
    const taken = takersOf(options, event);
    if (taken) for (const i of taken.takers) await options.projections[i]!.apply(taken.parsed, ctx);
    if (performance.now() >= deadline) break;
  }
  return last;
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
