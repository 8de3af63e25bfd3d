import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  NO_STREAM,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AppendExpectedRevision,
  type JSONType,
  type Position,
  type ReadPosition,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
  START,
  WrongExpectedVersionError,
  comparePositions,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeOptions,
} from './port.ts';

/** Page size for reads of $all (system events are skipped client-side). */
const PAGE = 500;

/** EventStoreDB adapter on the official gRPC client. Needs server ≥ 22.6 (event positions). */
export function createEventStoreDbEventStore(connectionString: string): EventStore {
  const client = EventStoreDBClient.connectionString(connectionString);
  /** Aborted by close(): ends subscriptions. */
  const closing = new AbortController();

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
      const result = await client.appendToStream(streamId, data, {
        expectedRevision: toEsdbExpected(expectedRevision),
      });
      const nextRevision = Number(result.nextExpectedRevision);
      // The port promises each event's position. The server's write position is the
      // event's only for a single-event write, and idempotent replays may come back
      // without one; otherwise look the appended events up.
      const positions =
        events.length === 1 && result.position && isValidPosition(result.position)
          ? [toPosition(result.position)]
          : await positionsOf(streamId, result.nextExpectedRevision - BigInt(events.length - 1), events.length);
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
    const resolved = await drain(client.readStream(streamId, { fromRevision, maxCount: count }));
    const positions = resolved.map((r) => r.event?.position);
    if (positions.length === count && positions.every((p) => p !== undefined && isValidPosition(p))) {
      return positions.map((p) => toPosition(p!));
    }
    throw new Error(`Stream ${streamId}: no positions for revisions from ${fromRevision} (EventStoreDB older than 22.6?)`);
  }

  async function readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { upTo } = options;
    const out: RecordedEvent[] = [];
    try {
      for (const resolved of await drain(client.readStream(streamId))) {
        const event = resolved.event;
        if (!event) continue;
        // `created` is the server's write time; filter rather than stop, clocks are not monotonic.
        if (upTo !== undefined && event.created.getTime() > upTo.getTime()) continue;
        out.push(toRecorded(event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
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
      for (const resolved of await drain(client.readAll({ fromPosition: cursor, maxCount: PAGE }))) {
        count++;
        const event = resolved.event;
        if (!event) continue;
        last = event.position;
        if (out.length >= limit || isSystem(event) || comparePositions(event.position, after) <= 0) continue;
        out.push(toRecorded(event));
      }
      if (out.length >= limit || count < PAGE || !last) return out.slice(0, limit);
      cursor = last;
      if (comparePositions(last, after) > 0) after = toPosition(last);
    }
  }

  async function* subscribeAll({ from, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    if (stop.aborted) return;
    const subscription = client.subscribeToAll({
      fromPosition: isStart(from) ? ESDB_START : toEsdbPosition(from),
      filter: excludeSystemEvents(),
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
        if (!event || isSystem(event) || comparePositions(event.position, from) <= 0) continue;
        yield toRecorded(event);
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
      for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: cursor, maxCount: PAGE })) {
        count++;
        const event = resolved.event;
        if (!event) continue;
        oldest = event.position;
        // Backwards from a position may include that position itself.
        if (cursor !== END && comparePositions(event.position, cursor) >= 0) continue;
        if (!newest && !isSystem(event)) newest = toPosition(event.position);
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
      for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
        void resolved;
      }
    },
    async close() {
      closing.abort();
      await client.dispose();
    },
  };
}

/**
 * Reads a server-streamed result to its end before anything is done with it. Leaving a read early
 * (break, return or a throw inside `for await`) leaves the gRPC call unfinished: the client keeps it
 * in its disposable streams and dispose(), so close(), waits for it forever.
 */
async function drain<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return BigInt(expected);
}

/** "No position" arrives as -1 read as an unsigned 64-bit number (the server's Position.FromInt64(-1, -1)):
 * the client always fills `position` on read events, so an absent position is this value, never undefined. */
function isValidPosition(p: Position): boolean {
  const max = 2n ** 63n;
  return p.commit >= 0n && p.prepare >= 0n && p.commit < max && p.prepare < max;
}

function isStart(p: GlobalPosition): boolean {
  return p.commit < 0n;
}

function toEsdbPosition(p: GlobalPosition): Position {
  return { commit: p.commit, prepare: p.prepare };
}

function toPosition(p: Position): GlobalPosition {
  return { commit: p.commit, prepare: p.prepare };
}

function isSystem(event: { type: string; streamId: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  if (!event.position || !isValidPosition(event.position)) {
    throw new Error(`Event ${event.id} has no position (EventStoreDB older than 22.6?)`);
  }
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: toPosition(event.position),
    type: event.type,
    data: event.data,
    metadata: toMetadata(event),
    recordedAt: event.created,
  };
}

/** Written by this adapter from EventMetadata (see append); anything else is not ours. */
function toMetadata(event: EsdbRecordedEvent): EventMetadata {
  const { metadata } = event;
  if (typeof metadata !== 'object' || metadata === null || metadata instanceof Uint8Array || Array.isArray(metadata)) {
    throw new Error(`Event ${event.id} in ${event.streamId} has no JSON metadata object`);
  }
  return metadata as unknown as EventMetadata;
}
