import type { Knex } from 'knex';
import type { EventType, StoredDomainEvent } from '../events.ts';
import type { TableRows } from './copy.ts';
import { toNativeStatement } from './native-sql.ts';
import type { NativeStatement } from './pipelined-transaction.ts';

export interface ProjectionContext {
  trx: Knex.Transaction;
  /** Schema of the read-model set being written: the live `rm` or a rebuild's. */
  schema: string;
  table(name: string): Knex.QueryBuilder;
  /**
   * A write whose answer nobody reads (no RETURNING read back, no row count looked at). In
   * an append's own transaction it goes with the next statement or with the COMMIT (one
   * round trip less; a failure still fails the whole append); elsewhere it runs at once.
   */
  write(
    statement: Knex.QueryBuilder | Knex.Raw | CarriedStatement,
    onRows?: (rows: readonly Record<string, unknown>[]) => void,
  ): Promise<void>;
  /**
   * In an append's own transaction: reports rows the projection wrote (as RETURNING gave
   * them) for the command's answer (AppendResult.written), so the command answers with the
   * stored row instead of folding its events again or reading the row back. Undefined
   * elsewhere: the projector and a rebuild ask for no rows back.
   */
  written?: (table: string, rows: readonly Record<string, unknown>[]) => void;
  /**
   * In an append's own transaction: the rows the projection's `prefetch` asked for, read in
   * the append's round trip, after the append. Undefined elsewhere (the projection reads).
   */
  prefetched?: readonly Record<string, unknown>[];
  /**
   * Where events are appended with their inline rows (the PostgreSQL store): a stream's
   * stored events after revision `after` and before revision `before`, read in this
   * transaction. An inline projection reads with it the events its record's row has still
   * to take (a row that trails its stream: events from before inline projection started
   * that the projector has not applied yet), so it never applies an event over a row that
   * misses the ones before it. Undefined elsewhere (the projector and a rebuild apply every
   * event in order).
   */
  streamEventsBetween?(streamId: string, after: number, before: number): Promise<StoredDomainEvent[]>;
}

/** An event about to be appended: what a projection's `prefetch` can look at. */
export interface PendingEvent {
  type: string;
  data: unknown;
  metadata: { instanceId: string | null };
}

/** A read model: applies events inside the projector's batch transaction. Handlers must
 * be idempotent (upserts keyed by ids) because a crashed batch is replayed. A reactor is
 * run the same way: its handler sends commands and keeps its own rows in the transaction. */
export interface Projection {
  name: string;
  /**
   * Written in the same transaction as the events, by every append on the PostgreSQL store
   * (runtime/inline.ts), instead of by the checkpointed projector: for a record's own rows
   * (its row, its history, the counts the next screen reads), so a command answers from what
   * it wrote and a failure here fails the command. Only for projections whose rows follow
   * their own records' events (keyed by stream; counts that only add up): appends commit in
   * any order, not in global order. What reads across records stays asynchronous. An inline
   * projection must not read an event's `position`: an append of known revisions builds the
   * rows before its commit gives positions (they are START then; eventstore/postgres-append.ts).
   */
  inline?: boolean;
  /**
   * Asynchronous, and every read of its tables first waits until the projector has passed
   * all committed events (catchUpAsyncReadModels in the backend): a command need not wait
   * for it. A command whose events an asynchronous projection without this takes waits for
   * the projector before it answers (read-your-writes).
   */
  awaitedByReads?: boolean;
  /**
   * A reactor's promise that each of its handlers, before it does anything outside the
   * batch's transaction (a command it sends), runs a statement in the transaction and awaits
   * its answer. Its batch then sends the checkpoint's lock with that first statement instead
   * of alone (one round trip less per batch): the statement is answered only once the lock is
   * held and has found the checkpoint before the batch, so nothing outside the transaction
   * happens for a batch another writer has applied already. A reactor that sends commands
   * before it reads (or reads elsewhere) leaves it unset: its batch reads the lock first, alone.
   */
  readsBeforeActing?: boolean;
  /** Only events of these types are parsed and applied; every event when absent. */
  eventTypes?: readonly EventType[];
  /** Of those, only the events this answers true for (e.g. a job update that changes its customer); all when absent. */
  takes?(event: StoredDomainEvent): boolean;
  apply(event: StoredDomainEvent, ctx: ProjectionContext): Promise<void>;
  /**
   * Set-based application of a batch (in global order, only the types it takes): the same
   * result as `apply` event by event, in a few statements per table. The projector uses it
   * when given; `apply` stays for single events (isolating a poison event).
   */
  applyBatch?(events: StoredDomainEvent[], ctx: ProjectionContext): Promise<void>;
  /**
   * Inline only: the read its batch would start with, for events about to be appended (e.g.
   * the rows of the records they change), sent in the same message as the append, after it;
   * the rows reach the batch as `ctx.prefetched`. Null: nothing to read.
   */
  prefetch?(events: readonly PendingEvent[], schema: string): CarriedStatement | null;
  /**
   * A rebuild's set-based path (runtime/rebuild-replay.ts): a fresh folder of the whole log
   * into rows, written with COPY into the rebuild's fresh tables. Without it a rebuild
   * applies the projection page by page (applyBatch or apply).
   */
  bulk?(): BulkRebuilder;
  /**
   * A rebuild's path for a projection that `readsFrom` projections with a bulk path and
   * writes what their rows make, whatever the event (idempotent, like the customer cards):
   * run once, when their tables are complete, over every record, instead of a second pass
   * over the whole log that reads and writes each record again for every event it takes.
   */
  fromTables?(knex: Knex, schema: string): Promise<void>;
  /**
   * Tables that only this projection's bulk path writes while a rebuild loads them, by COPY
   * alone (rows that are unique by construction): their primary keys, unique constraints and
   * unique indexes are built after the load, like their other indexes, which is cheaper than
   * checking each key row by row.
   */
  keysAfterLoad?: readonly string[];
  /**
   * The projections (by name) whose tables this one reads while it applies events: a
   * rebuild applies it once their tables are complete.
   */
  readsFrom?: readonly string[];
}

/**
 * Turns the whole log, page by page in global order (only the events the projection takes),
 * into the rows of the projection's tables, which start empty: the same rows `apply` event
 * by event would leave. Rows that never change again (one per event) go out with their page;
 * rows folded over many events (a record's row, counts) are kept and go out at the end.
 */
export interface BulkRebuilder {
  page(events: StoredDomainEvent[]): TableRows[];
  finish(): TableRows[];
}

/** A stored event of one of the given types. */
export type StoredEventOf<T extends EventType> = Extract<StoredDomainEvent, { type: T }>;

/** A projection as written by a slice: the events it handles, and handlers typed to exactly those. */
export interface TypedProjection<T extends EventType> extends Omit<Projection, 'eventTypes' | 'takes' | 'apply' | 'applyBatch' | 'bulk'> {
  eventTypes: readonly T[];
  takes?(event: StoredEventOf<T>): boolean;
  apply(event: StoredEventOf<T>, ctx: ProjectionContext): Promise<void>;
  applyBatch?(events: StoredEventOf<T>[], ctx: ProjectionContext): Promise<void>;
  bulk?(): { page(events: StoredEventOf<T>[]): TableRows[]; finish(): TableRows[] };
}

/**
 * A projection naming the events it handles: its handlers see only those types, so a switch
 * over them ends in a `never` check, and a new event type is added to a projection on purpose
 * (the projection-coverage test lists every type no projection takes). The runtime passes a
 * projection only the events in `eventTypes` (takenBy), which makes the narrowing sound.
 */
export function defineProjection<const T extends EventType>(projection: TypedProjection<T>): Projection {
  return projection as unknown as Projection;
}

/** Rows per multi-row statement (PostgreSQL takes at most 65,535 parameters in one). */
export const ROWS_PER_STATEMENT = 1000;

/** `items` in pieces of at most `size`. */
export function chunked<T>(items: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export function createProjectionContext(
  trx: Knex.Transaction,
  schema: string,
  /** Holds back writes (an append's own transaction); without it they run at once. */
  options: {
    defer?: (statement: NativeStatement, onRows?: (rows: readonly Record<string, unknown>[]) => void) => void;
    prefetched?: readonly Record<string, unknown>[];
    written?: ProjectionContext['written'];
    streamEventsBetween?: ProjectionContext['streamEventsBetween'];
  } = {},
): ProjectionContext {
  const { defer } = options;
  return {
    trx,
    schema,
    table: (name) => trx.withSchema(schema).table(name),
    async write(statement, onRows) {
      if (!defer) {
        const query = 'toSQL' in statement ? statement : trx.raw(statement.sql, statement.bindings);
        const result = (await query) as { rows?: Record<string, unknown>[] } | undefined;
        onRows?.(result?.rows ?? []);
        return;
      }
      if ('toSQL' in statement) {
        const native = statement.toSQL().toNative();
        defer({ sql: native.sql, values: native.bindings }, onRows);
        return;
      }
      const native = toNativeStatement(trx, statement.sql, statement.bindings);
      defer(statement.prepared ? { ...native, prepared: true } : native, onRows);
    },
    ...(options.prefetched ? { prefetched: options.prefetched } : {}),
    ...(options.written ? { written: options.written } : {}),
    ...(options.streamEventsBetween ? { streamEventsBetween: options.streamEventsBetween } : {}),
  };
}

/**
 * A multi-row INSERT … SELECT FROM jsonb_to_recordset($1): all rows in one parameter (one
 * JSON text), so a batch of thousands of rows costs one statement and no per-value
 * parameter handling. `columns`: name → SQL type, in the table's terms; `tail`: what
 * follows the SELECT (ON CONFLICT …, RETURNING …). Dates go in as ISO text.
 */
export async function insertRecordset<Row extends Record<string, unknown>>(
  ctx: ProjectionContext,
  table: string,
  columns: Record<string, string>,
  rows: readonly Record<string, unknown>[],
  tail: string,
  carried?: CarriedStatement | null,
): Promise<Row[]> {
  if (rows.length === 0) {
    if (carried) await ctx.trx.raw(carried.sql, carried.bindings);
    return [];
  }
  const insert = recordsetInsert(ctx, table, columns, rows, tail);
  const statement = carried ? carry(carried, insert) : insert;
  const result = await ctx.trx.raw<{ rows: Row[] }>(statement.sql, statement.bindings);
  return result.rows;
}

/** `statement` planned once per connection where the write is held back (CarriedStatement.prepared). */
export function asPrepared(statement: CarriedStatement): CarriedStatement {
  return { ...statement, prepared: true };
}

/** insertRecordset for rows nobody reads back: a ctx.write, with the carried statement. */
export async function writeRecordset(
  ctx: ProjectionContext,
  table: string,
  columns: Record<string, string>,
  rows: readonly Record<string, unknown>[],
  tail: string,
  options: {
    carried?: CarriedStatement | null;
    /** Gets the rows its RETURNING (in `tail`) answers, once answered. */
    onRows?: ((rows: readonly Record<string, unknown>[]) => void) | undefined;
    /** Planned once per connection where the write is held back (CarriedStatement.prepared). */
    prepared?: boolean;
  } = {},
): Promise<void> {
  const { carried, onRows } = options;
  if (rows.length === 0) {
    if (carried) await ctx.write(carried);
    return;
  }
  const insert = recordsetInsert(ctx, table, columns, rows, tail);
  const statement = carried ? carry(carried, insert) : insert;
  await ctx.write(options.prepared ? asPrepared(statement) : statement, onRows);
}

/** A statement in knex's raw form (`??` identifiers, `?` values). */
export interface CarriedStatement {
  sql: string;
  bindings: Knex.RawBinding[];
  /** Planned once per connection where the write is held back (NativeStatement.prepared); run as it is elsewhere. */
  prepared?: boolean;
}

/** insertRecordset's statement, not sent: to go with another one (carry). */
export function recordsetInsert(
  ctx: ProjectionContext,
  table: string,
  columns: Record<string, string>,
  rows: readonly Record<string, unknown>[],
  tail: string,
): CarriedStatement {
  return { sql: recordsetInsertText(columns, tail), bindings: [ctx.schema, table, JSON.stringify(rows)] };
}

/**
 * The statement's text, built once per columns object (projections keep one per table) and
 * tail, and then the same string every time: the statement cache that turns it into `$n`
 * form (toNativeStatement) looks it up by text, and a string built afresh for each
 * statement (a thousand characters or more for a wide table) had to be flattened and
 * hashed on every lookup, on the command's path.
 */
const recordsetTextsOf = new WeakMap<Record<string, string>, Map<string, string>>();
/** Bounds a columns object's texts should a caller vary its tail (they are built once per tail). */
const MAX_TAILS_PER_COLUMNS = 16;

function recordsetInsertText(columns: Record<string, string>, tail: string): string {
  let texts = recordsetTextsOf.get(columns);
  if (!texts) recordsetTextsOf.set(columns, (texts = new Map()));
  let text = texts.get(tail);
  if (text === undefined) {
    const names = Object.keys(columns);
    const list = names.map((name) => `"${name}"`).join(', ');
    const definitions = names.map((name) => `"${name}" ${columns[name]}`).join(', ');
    text = `INSERT INTO ??.?? AS target (${list}) SELECT ${list} FROM jsonb_to_recordset(?::jsonb) AS input(${definitions}) ${tail}`;
    if (texts.size >= MAX_TAILS_PER_COLUMNS) texts.clear();
    texts.set(tail, text);
  }
  return text;
}

/**
 * `statement` with a data-modifying statement whose result nobody reads sent in the same
 * round trip, as a WITH clause (PostgreSQL runs it whether or not the rest reads it). Both
 * see the same snapshot, so only for writes the other part does not read back.
 */
export function carry(carried: CarriedStatement, statement: CarriedStatement): CarriedStatement {
  return {
    sql: carriedText(carried.sql, statement.sql),
    bindings: [...carried.bindings, ...statement.bindings],
    ...(statement.prepared ? { prepared: true } : {}),
  };
}

/** carry's texts by their parts: the same string each time for the same parts (see recordsetInsertText). */
const carriedTexts = new Map<string, Map<string, string>>();
/** A schema's few statements carry one another; a bound in case a caller varies them. */
const MAX_CARRIED_TEXTS = 64;

function carriedText(carried: string, statement: string): string {
  let texts = carriedTexts.get(carried);
  if (!texts) {
    if (carriedTexts.size >= MAX_CARRIED_TEXTS) carriedTexts.clear();
    carriedTexts.set(carried, (texts = new Map()));
  }
  let text = texts.get(statement);
  if (text === undefined) {
    text = `WITH carried AS (${carried}) ${statement}`;
    if (texts.size >= MAX_CARRIED_TEXTS) texts.clear();
    texts.set(statement, text);
  }
  return text;
}

/** Whether the event is of a type the projection takes (its `takes` decides further, on the parsed event). */
export function takenBy(projection: Projection, event: { type: string }): boolean {
  return !projection.eventTypes || (projection.eventTypes as readonly string[]).includes(event.type);
}
