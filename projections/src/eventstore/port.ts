/**
 * The event store port. Two adapters implement it (PostgreSQL, EventStoreDB) and one
 * contract suite (projections/test/eventstore-contract.ts) runs against each.
 */

/** A place in the global log. Ordered by commit, then prepare (EventStoreDB's own shape;
 * the PostgreSQL adapter uses transaction id and row sequence). */
export interface GlobalPosition {
  commit: bigint;
  prepare: bigint;
}

export const START: GlobalPosition = { commit: -1n, prepare: -1n };

export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function positionToString(p: GlobalPosition): string {
  return `${p.commit}/${p.prepare}`;
}

export type ActorKind = 'superadmin' | 'user' | 'system';

export interface Actor {
  kind: ActorKind;
  id: string;
  displayName: string;
}

export interface EventMetadata {
  /** Instance the event belongs to; null for provider-level events (super admin). */
  instanceId: string | null;
  actor: Actor;
  correlationId: string;
  causationId: string | null;
  occurredAt: string;
  schemaVersion: number;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** Client-generated id; appending the same id twice is idempotent. */
  id: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  streamId: string;
  revision: number;
  position: GlobalPosition;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  recordedAt: Date;
}

/** A number is the revision of the stream's last event (0 after its first event). */
export type ExpectedRevision = number | 'no_stream' | 'any';

export interface AppendResult {
  /** Revision of the last appended event. */
  nextRevision: number;
  /** Global position of the last appended event. */
  position: GlobalPosition;
  /** Global position of each appended event, in the order given (the last is `position`). */
  positions: GlobalPosition[];
  /** When the store recorded each appended event, in the order given, where the adapter knows it. */
  recordedAt?: Date[];
  /** The appended events' types, where the adapter knows them (which read models a command must wait for). */
  types?: string[];
  /**
   * The rows the inline read models wrote for the whole append (every stream of it), as
   * PostgreSQL stored them, by table (only tables a projection reports, see
   * ProjectionContext.written): what a command answers with, without reading them back.
   * Absent where nothing was projected inline (EventStoreDB, a replayed append).
   */
  written?: WrittenRows;
}

/** Rows by table name, as the database returned them. */
export type WrittenRows = Readonly<Record<string, readonly Record<string, unknown>[]>>;

export interface AppendOptions {
  /**
   * Rows the command read before deciding (by inline projection name), standing in for
   * that projection's prefetch read (Projection.prefetch) in the append's transaction.
   * Only valid when they were read at the expected revisions this append names: the
   * append then succeeds only if no other append moved those streams since, and every
   * append writes its inline rows in its own transaction, so the rows are still current.
   * Ignored by stores that do not project inline.
   */
  read?: ReadonlyMap<string, readonly Record<string, unknown>[]>;
  /**
   * Read-model rows that must exist for the append, checked in its transaction and sent in
   * the same message as its events (no round trip of its own): when one is missing nothing
   * is recorded and the append fails with RequiredRowMissingError. Only for stores that
   * project inline (EventStore.projectsInline), whose rows commit with their events; a caller
   * checks another way elsewhere.
   */
  requires?: readonly RequiredRow[];
}

/** A row of a read-model table, by the values of some of its columns (e.g. id and instance_id). */
export interface RequiredRow {
  table: string;
  where: Readonly<Record<string, string>>;
}

/** An append's required row (AppendOptions.requires) was missing: nothing of the append was recorded. */
export class RequiredRowMissingError extends Error {
  override readonly name = 'RequiredRowMissingError';
  constructor(readonly row: RequiredRow) {
    super(`No ${row.table} row where ${JSON.stringify(row.where)}: nothing was recorded`);
  }
}

export interface ReadStreamOptions {
  /** Only events recorded at or before this time (time travel). */
  upTo?: Date;
}

export interface SubscribeOptions {
  /** Deliver events strictly after this position; START for all. */
  from: GlobalPosition;
  signal?: AbortSignal;
}

/** One stream's part of a multi-stream append. */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  append(streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision } & AppendOptions): Promise<AppendResult>;
  /**
   * Appends to several streams as one command: all or nothing where the store can (PostgreSQL:
   * one transaction; a wrong expected revision on any stream records none of them). Results
   * in the order given; the appends enter the global log in that order. Appending the same
   * ids again is idempotent as with `append`. EventStoreDB has no multi-stream transaction:
   * its adapter appends in order and `atomicMultiStream` is false (see there).
   */
  appendMany(appends: StreamAppend[], options?: AppendOptions): Promise<AppendResult[]>;
  /** Whether appendMany is all or nothing (a crash between its streams cannot leave a part). */
  readonly atomicMultiStream: boolean;
  /**
   * Whether every append writes the inline read models in its own transaction (the
   * PostgreSQL store given them): a command's own rows are then there when its append
   * returns, and nothing needs to wait for the projector to read them.
   */
  readonly projectsInline?: boolean;
  /** Events of one stream in revision order; empty when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Reads the global log after `from`, at most `limit` events, in global order. */
  readAll(from: GlobalPosition, limit: number): Promise<RecordedEvent[]>;
  /** Catch-up subscription: everything after `from`, then live events, until the signal aborts. */
  subscribeAll(options: SubscribeOptions): AsyncIterable<RecordedEvent>;
  /** Position of the newest event a reader can see now (START when empty). */
  headPosition(): Promise<GlobalPosition>;
  /** Cheap liveness check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  override readonly name = 'WrongExpectedVersionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}
