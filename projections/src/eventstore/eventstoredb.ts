import type { EventStoreDBClient, JSONType, Position, ReadPosition, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { esdb } from './eventstoredb-client.ts';
import {
  START,
  WrongExpectedVersionError,
  comparePositions,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeOptions,
} from './port.ts';
import { pause } from '../shared/pause.ts';
import { EventStoreUnavailableError, isEventStoreConnectionError, withConnectionDefaults } from './eventstoredb-connection.ts';
import {
  drain,
  isDroppedStream,
  isStart,
  isSystem,
  isValidPosition,
  toEsdbExpected,
  toEsdbPosition,
  toPosition,
  toRecorded,
} from './eventstoredb-mapping.ts';

export {
  EventStoreUnavailableError,
  isEventStoreConnectionError,
  KEEPALIVE_DEFAULTS,
  withConnectionDefaults,
} from './eventstoredb-connection.ts';

/** Page size for reads of $all and of streams (system events are skipped client-side). */
const PAGE = 500;

/** A dropped subscription is opened again from its last event this many times in a row before it fails. */
const RESUBSCRIBE_ATTEMPTS = 5;
const RESUBSCRIBE_FIRST_PAUSE_MS = 100;

/** The parts of the official client the adapter uses (a test may hand in a stand-in). */
export type EventStoreDbClientLike = Pick<EventStoreDBClient, 'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll' | 'dispose'>;

export interface EventStoreDbOptions {
  /** Instead of connecting with the connection string (tests). */
  client?: EventStoreDbClientLike;
  /** The first pause before opening a dropped subscription again (doubles each time). */
  resubscribePauseMs?: number;
  /**
   * Keeps to streams whose names start with this (stored with it, handed out without it):
   * several deployments, or test servers, then share one EventStoreDB without seeing each
   * other's events. Empty (all streams) by default.
   */
  streamPrefix?: string;
}

/**
 * EventStoreDB adapter on the official gRPC client. Needs server ≥ 22.6 (event positions).
 * For production: keepalive defaults (KEEPALIVE_DEFAULTS), stream and $all reads in pages,
 * a subscription that drops is opened again from its last event (a few times, then it
 * fails and the projector starts over from its stored checkpoint), and a store out of
 * reach surfaces as EventStoreUnavailableError (503 in the API).
 */
export function createEventStoreDbEventStore(connectionString: string, options: EventStoreDbOptions = {}): EventStore {
  const {
    BACKWARDS,
    END,
    EventStoreDBClient,
    START: ESDB_START,
    StreamNotFoundError,
    WrongExpectedVersionError: EsdbWrongExpectedVersionError,
    excludeSystemEvents,
    streamNameFilter,
    jsonEvent,
  } = esdb();
  const client: EventStoreDbClientLike = options.client ?? EventStoreDBClient.connectionString(withConnectionDefaults(connectionString));
  /** Aborted by close(): ends subscriptions. */
  const closing = new AbortController();
  const prefix = options.streamPrefix ?? '';
  /** Events of this store's streams (not the server's own, not another prefix's). */
  const ours = (event: { type: string; streamId: string }) => !isSystem(event) && event.streamId.startsWith(prefix);
  const recorded = (event: EsdbRecordedEvent) => toRecorded(event, prefix);

  /** Runs one call; a connection failure becomes EventStoreUnavailableError. */
  async function guarded<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof EventStoreUnavailableError) && isEventStoreConnectionError(error)) {
        throw new EventStoreUnavailableError(operation, error);
      }
      throw error;
    }
  }

  async function append(
    streamId: string,
    events: NewEvent[],
    { expectedRevision }: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`Stream ${streamId}: append needs at least one event`);
    const data = events.map((e) =>
      jsonEvent({
        id: e.id,
        type: e.type,
        // The client JSON.stringifies data; the port leaves its type open.
        data: e.data as JSONType,
        metadata: { ...e.metadata },
      }),
    );
    try {
      const result = await guarded('append', () =>
        client.appendToStream(prefix + streamId, data, {
          expectedRevision: toEsdbExpected(expectedRevision),
        }),
      );
      const nextRevision = Number(result.nextExpectedRevision);
      // The port promises each event's position. The server's write position is the
      // event's only for a single-event write, and idempotent replays may come back
      // without one; otherwise look the appended events up.
      const positions =
        events.length === 1 && result.position && isValidPosition(result.position)
          ? [toPosition(result.position)]
          : await positionsOf(prefix + streamId, result.nextExpectedRevision - BigInt(events.length - 1), events.length);
      return { nextRevision, position: positions[positions.length - 1]!, positions };
    } catch (error) {
      if (error instanceof EsdbWrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : 'no_stream';
        throw new WrongExpectedVersionError(streamId, expectedRevision, actual);
      }
      throw error;
    }
  }

  async function positionsOf(streamId: string, fromRevision: bigint, count: number): Promise<GlobalPosition[]> {
    const resolved = await guarded('read', () => drain(client.readStream(streamId, { fromRevision, maxCount: count })));
    const positions = resolved.map((r) => r.event?.position);
    if (positions.length === count && positions.every((p) => p !== undefined && isValidPosition(p))) {
      return positions.map((p) => toPosition(p!));
    }
    throw new Error(`Stream ${streamId}: no positions for revisions from ${fromRevision} (EventStoreDB older than 22.6?)`);
  }

  /** A stream in pages of PAGE events: a long stream is never one gRPC call held open for all of it. */
  async function readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { upTo } = options;
    const out: RecordedEvent[] = [];
    let fromRevision = 0n;
    try {
      for (;;) {
        const page = await guarded('read', () => drain(client.readStream(prefix + streamId, { fromRevision, maxCount: PAGE })));
        for (const resolved of page) {
          const event = resolved.event;
          if (!event) continue;
          fromRevision = event.revision + 1n;
          // `created` is the server's write time; filter rather than stop, clocks are not monotonic.
          if (upTo !== undefined && event.created.getTime() > upTo.getTime()) continue;
          out.push(recorded(event));
        }
        if (page.length < PAGE) break;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return out;
      throw error;
    }
    return out;
  }

  async function readAll(from: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (!(limit > 0)) return out;
    // fromPosition is inclusive: events at or before `after` are skipped.
    let after = from;
    let cursor: ReadPosition = isStart(from) ? ESDB_START : toEsdbPosition(from);
    for (;;) {
      let count = 0;
      let last: Position | undefined;
      const page = await guarded('read', () => drain(client.readAll({ fromPosition: cursor, maxCount: PAGE })));
      for (const resolved of page) {
        count++;
        const event = resolved.event;
        if (!event) continue;
        last = event.position;
        if (out.length >= limit || !ours(event) || comparePositions(event.position, after) <= 0) continue;
        out.push(recorded(event));
      }
      if (out.length >= limit || count < PAGE || !last) return out.slice(0, limit);
      cursor = last;
      if (comparePositions(last, after) > 0) after = toPosition(last);
    }
  }

  /**
   * A catch-up subscription to $all. When the server drops it (a node restarts, the leader
   * moves, the connection is cut) it is opened again from the last event delivered, after
   * a pause that doubles; after RESUBSCRIBE_ATTEMPTS drops in a row without an event in
   * between it fails, and the projector logs that and starts over from its stored checkpoint.
   */
  async function* subscribeAll({ from, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    let after = from;
    let drops = 0;
    while (!stop.aborted) {
      let delivered = false;
      try {
        for await (const event of subscribeOnce(after, stop)) {
          delivered = true;
          drops = 0;
          after = event.position;
          yield event;
          if (stop.aborted) return;
        }
        return;
      } catch (error) {
        if (stop.aborted) return;
        if (!isEventStoreConnectionError(error) && !isDroppedStream(error)) throw error;
        if (!delivered) drops++;
        if (drops >= RESUBSCRIBE_ATTEMPTS) throw new EventStoreUnavailableError('subscription', error);
        await pause((options.resubscribePauseMs ?? RESUBSCRIBE_FIRST_PAUSE_MS) * 2 ** Math.max(drops - 1, 0), stop);
      }
    }
  }

  async function* subscribeOnce(from: GlobalPosition, stop: AbortSignal): AsyncGenerator<RecordedEvent> {
    if (stop.aborted) return;
    const subscription = client.subscribeToAll({
      fromPosition: isStart(from) ? ESDB_START : toEsdbPosition(from),
      filter: prefix ? streamNameFilter({ prefixes: [prefix] }) : excludeSystemEvents(),
    });
    // Destroying ends the iteration at once. unsubscribe() cancels the gRPC call, but only after
    // the call exists (it waits for the connection, e.g. cluster discovery), so nothing waits on it.
    const end = () => {
      subscription.destroy();
      void subscription.unsubscribe().catch(() => {});
    };
    stop.addEventListener('abort', end, { once: true });
    try {
      for await (const resolved of subscription) {
        const event = resolved.event;
        if (!event || !ours(event) || comparePositions(event.position, from) <= 0) continue;
        yield recorded(event);
        if (stop.aborted) return;
      }
    } catch (error) {
      // Destroying the stream on abort surfaces as a premature-close error.
      if (stop.aborted) return;
      throw error;
    } finally {
      stop.removeEventListener('abort', end);
      end();
    }
  }

  async function headPosition(): Promise<GlobalPosition> {
    let cursor: ReadPosition = END;
    for (;;) {
      let count = 0;
      let newest: GlobalPosition | undefined;
      let oldest: Position | undefined;
      const page = await guarded('read', () => drain(client.readAll({ direction: BACKWARDS, fromPosition: cursor, maxCount: PAGE })));
      for (const resolved of page) {
        count++;
        const event = resolved.event;
        if (!event) continue;
        oldest = event.position;
        // Backwards from a position may include that position itself.
        if (cursor !== END && comparePositions(event.position, cursor) >= 0) continue;
        if (!newest && ours(event)) newest = toPosition(event.position);
      }
      if (newest) return newest;
      if (count < PAGE || !oldest) return START;
      cursor = oldest;
    }
  }

  /**
   * EventStoreDB writes one stream atomically, never several: the appends go in the order
   * given, and one that fails leaves the earlier ones recorded (so does a crash in between).
   * Commands that must not leave a part behind check atomicMultiStream and undo what they
   * wrote themselves where they can; the PostgreSQL adapter needs none of that.
   */
  async function appendMany(appends: StreamAppend[]): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const a of appends) results.push(await append(a.streamId, a.events, { expectedRevision: a.expectedRevision }));
    return results;
  }

  return {
    kind: 'eventstoredb',
    append,
    appendMany,
    atomicMultiStream: false,
    readStream,
    readAll,
    subscribeAll,
    headPosition,
    async ping() {
      await guarded('ping', () => drain(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })));
    },
    async close() {
      closing.abort();
      await client.dispose();
    },
  };
}
