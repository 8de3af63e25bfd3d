import type { Knex } from 'knex';
import { parseStoredEvent, readableEvents, type StoredDomainEvent } from '../events.ts';
import { EVENT_COLUMNS, recordedEvent, type EventRow } from '../eventstore/event-rows.ts';
import { comparePositions, START, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { createProjectionContext, takenBy, type CarriedStatement, type PendingEvent, type Projection } from './projection.ts';
import type { PipelinedConnection } from './pipelined-transaction.ts';

/**
 * Inline projections: read models written in the same transaction as the events they come
 * from (a projection declares `inline: true`). On the PostgreSQL store every append runs
 * them (see eventstore/postgres.ts), so a command's own rows commit with its events or not
 * at all; the checkpointed projector leaves them out for events appended that way, and a
 * rebuild replays both kinds. With EventStoreDB nothing can commit with the events, so the
 * projector runs inline projections like any other.
 */

/**
 * Stops every append until the transaction ends, and waits for those in flight: each one
 * writes `streams` (a ROW EXCLUSIVE lock, held until it commits), which this SHARE lock
 * excludes. A rebuild's swap takes it, so no inline row can commit between the rebuild's
 * last replayed event and the swap (it would be lost with the retired tables); appends pay
 * nothing for it.
 */
export const STOP_APPENDS_SQL = 'LOCK TABLE public.streams IN SHARE MODE';

/**
 * The row (in projection_checkpoints) holding where inline projection started: events up to
 * it were appended before any append ran inline projections, so the projector applies
 * every projection to those it has not applied yet; after it, only the asynchronous ones.
 */
export const INLINE_SINCE = 'inline-since';

/** The position of the newest committed event (START when none), whatever the visibility horizon. */
export async function newestCommittedPosition(db: Knex | Knex.Transaction): Promise<GlobalPosition> {
  const result = await db.raw<{ rows: Array<{ tx_text: string; seq_text: string }> }>(
    'SELECT tx_id::text AS tx_text, seq::text AS seq_text FROM events ORDER BY tx_id DESC, seq DESC LIMIT 1',
  );
  const row = result.rows[0];
  return row ? { commit: BigInt(row.tx_text), prepare: BigInt(row.seq_text) } : START;
}

/**
 * Records where inline projection starts, once per database (the first start of a version
 * that projects inline): the newest event then, taken while no inline append can run.
 * Answers the recorded position.
 */
export async function ensureInlineSince(knex: Knex): Promise<GlobalPosition> {
  return await knex.transaction(async (trx) => {
    await trx.raw(STOP_APPENDS_SQL);
    const stored = await readInlineSince(trx);
    if (stored) return stored;
    const head = await newestCommittedPosition(trx);
    await trx('projection_checkpoints')
      .insert({ name: INLINE_SINCE, position_commit: head.commit.toString(), position_prepare: head.prepare.toString() })
      .onConflict('name')
      .ignore();
    return head;
  });
}

/** Where inline projection started; null when no process has projected inline on this database. */
export async function readInlineSince(db: Knex | Knex.Transaction): Promise<GlobalPosition | null> {
  const row = (await db('projection_checkpoints').where({ name: INLINE_SINCE }).first('position_commit', 'position_prepare')) as
    { position_commit: string; position_prepare: string } | undefined;
  return row ? { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) } : null;
}

/**
 * Which projections take an event: every projection when `inlineUpTo` is undefined (a
 * rebuild, EventStoreDB); otherwise inline ones only for events at or before `inlineUpTo`
 * (appended before inline projection started; null: none).
 */
export function projectsEvent(projection: Projection, event: RecordedEvent, inlineUpTo: GlobalPosition | null | undefined): boolean {
  if (!projection.inline || inlineUpTo === undefined) return true;
  return inlineUpTo !== null && comparePositions(event.position, inlineUpTo) <= 0;
}

/** A projection failed inside an append: nothing of the append was recorded. */
export class InlineProjectionError extends Error {
  override readonly name = 'InlineProjectionError';
  constructor(
    readonly projection: string,
    override readonly cause: unknown,
  ) {
    super(`The ${projection} read model could not take the events, so nothing was recorded: ${describe(cause)}`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Applies the inline projections to events just appended in `trx` (in their order), each
 * projection with all the events it takes at once. Throws InlineProjectionError naming the
 * projection that failed; the caller rolls the append back.
 */
export async function applyInline(
  trx: Knex.Transaction,
  schema: string,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
  /**
   * An append's pipelined transaction: writes nobody reads go with the COMMIT, and each
   * projection's prefetched rows (by name) stand in for its first read.
   */
  pipelined?: {
    connection: PipelinedConnection;
    prefetched: ReadonlyMap<string, readonly Record<string, unknown>[]>;
    /** Where the projections report the rows they wrote (the command answers with them). */
    written?: (table: string, rows: readonly Record<string, unknown>[]) => void;
  },
): Promise<void> {
  if (projections.length === 0 || events.length === 0) return;
  const perProjection = projections.map(() => [] as StoredDomainEvent[]);
  for (const event of events) {
    let parsed: StoredDomainEvent | null | undefined;
    for (const [i, projection] of projections.entries()) {
      if (!takenBy(projection, event)) continue;
      if (parsed === undefined) {
        try {
          parsed = parseStoredEvent(event);
        } catch (error) {
          throw new InlineProjectionError(projection.name, error);
        }
      }
      if (parsed && (!projection.takes || projection.takes(parsed))) perProjection[i]!.push(parsed);
    }
  }
  for (const [i, projection] of projections.entries()) {
    const taken = perProjection[i]!;
    if (taken.length === 0) continue;
    const prefetched = pipelined?.prefetched.get(projection.name);
    const ctx = createProjectionContext(trx, schema, {
      streamEventsBetween: (streamId, after, before) => storedEventsBetween(trx, streamId, after, before),
      ...(pipelined ? { defer: (statement, onRows) => pipelined.connection.defer(statement, projection.name, onRows) } : {}),
      ...(prefetched ? { prefetched } : {}),
      ...(pipelined?.written ? { written: pipelined.written } : {}),
    });
    try {
      if (projection.applyBatch && taken.length > 1) await projection.applyBatch(taken, ctx);
      else for (const event of taken) await projection.apply(event, ctx);
    } catch (error) {
      throw new InlineProjectionError(projection.name, error);
    }
  }
}

/**
 * A stream's stored events with revisions strictly between `after` and `before`, parsed
 * (upcast) as the projector would; events no schema reads are left out, as the projector
 * parks them. Read in the append's transaction, which holds the stream's lock.
 */
async function storedEventsBetween(trx: Knex.Transaction, streamId: string, after: number, before: number): Promise<StoredDomainEvent[]> {
  if (before - after <= 1) return [];
  const result = await trx.raw<{ rows: EventRow[] }>(
    `SELECT ${EVENT_COLUMNS} FROM public.events WHERE stream_id = ? AND revision > ? AND revision < ? ORDER BY revision`,
    [streamId, after, before],
  );
  return readableEvents(result.rows.map(recordedEvent)).events;
}

/**
 * The reads the inline projections' batches start with, for events about to be appended
 * (Projection.prefetch): sent with the append, so they cost no round trip of their own.
 */
export function inlinePrefetches(
  projections: readonly Projection[],
  events: readonly PendingEvent[],
  schema: string,
): Array<{ projection: string; statement: CarriedStatement }> {
  const wanted: Array<{ projection: string; statement: CarriedStatement }> = [];
  for (const projection of projections) {
    if (!projection.prefetch) continue;
    const taken = events.filter((event) => takenBy(projection, event));
    if (taken.length === 0) continue;
    const statement = projection.prefetch(taken, schema);
    if (statement) wanted.push({ projection: projection.name, statement });
  }
  return wanted;
}

/**
 * For code that writes events without the store's append (an import, the benchmark's bulk
 * seeding), in its own transaction, after writing them (and `streams`, which orders it
 * with ensureInlineSince): when appends on this database project inline already, applies
 * the inline projections to the events (so they commit together). When none has yet, it does nothing: the first
 * process that projects inline records the newest event as where inline projection starts,
 * and the projector applies every projection to what came before.
 */
export async function projectWrittenEvents(
  trx: Knex.Transaction,
  schema: string,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
): Promise<void> {
  if (!(await readInlineSince(trx))) return;
  await applyInline(trx, schema, projections, events);
}
