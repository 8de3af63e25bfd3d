import { UnavailableError, WrongExpectedVersionError as EsdbWrongExpectedVersionError } from '@eventstore/db-client';
import { describe, expect, test } from 'vitest';
import {
  createEventStoreDbEventStore,
  EventStoreUnavailableError,
  isEventStoreConnectionError,
  withConnectionDefaults,
  type EventStoreDbClientLike,
} from '../src/eventstore/eventstoredb.ts';
import { START, type RecordedEvent } from '../src/eventstore/port.ts';
import { isTransientFailure } from '../src/runtime/projector.ts';

/**
 * The EventStoreDB adapter's production behaviour without a server: a stand-in for the
 * gRPC client (only the calls the adapter makes) that can drop a subscription, refuse a
 * call as unavailable, and count how reads are paged. The contract suite
 * (eventstore-eventstoredb.test.ts) runs the same adapter against a real EventStoreDB.
 */

interface FakeEvent {
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  created: Date;
  isJson: true;
  position: { commit: bigint; prepare: bigint };
}

function fakeEvents(count: number, streamId = 'customer-1'): FakeEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    streamId,
    revision: BigInt(i),
    type: 'CustomerNoted',
    data: { n: i },
    metadata: {
      instanceId: null,
      actor: { kind: 'system', id: 't', displayName: 'T' },
      correlationId: 'c',
      causationId: null,
      occurredAt: '2026-01-01T00:00:00Z',
      schemaVersion: 1,
    },
    created: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    isJson: true,
    position: { commit: BigInt(100 + i * 10), prepare: BigInt(100 + i * 10) },
  }));
}

/** An async iterable over the events, one gRPC-like call; `fail` throws after `failAfter` events. */
function stream(events: FakeEvent[], options: { failAfter?: number; fail?: () => Error; stayOpen?: boolean } = {}) {
  let destroyed = false;
  let wake: (() => void) | null = null;
  const iterable = {
    destroy() {
      destroyed = true;
      wake?.();
    },
    async unsubscribe() {
      this.destroy();
    },
    async *[Symbol.asyncIterator]() {
      for (const [i, event] of events.entries()) {
        if (destroyed) return;
        if (options.failAfter !== undefined && i >= options.failAfter) throw options.fail!();
        yield { event };
      }
      if (options.failAfter !== undefined && events.length <= options.failAfter && options.fail) throw options.fail();
      if (options.stayOpen) while (!destroyed) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
  return iterable;
}

const unavailable = () => new UnavailableError(undefined, 'connect ECONNREFUSED 127.0.0.1:2113');

function fakeClient(overrides: Partial<Record<keyof EventStoreDbClientLike, unknown>>): EventStoreDbClientLike {
  return {
    appendToStream: () => Promise.reject(new Error('not in this test')),
    readStream: () => stream([]),
    readAll: () => stream([]),
    subscribeToAll: () => stream([], { stayOpen: true }),
    dispose: async () => {},
    ...overrides,
  } as unknown as EventStoreDbClientLike;
}

describe('EventStoreDB adapter', () => {
  test('sets keepalive on the connection unless the connection string does', () => {
    expect(withConnectionDefaults('esdb://localhost:2113?tls=false')).toBe(
      'esdb://localhost:2113?tls=false&keepAliveInterval=5000&keepAliveTimeout=5000',
    );
    expect(withConnectionDefaults('esdb+discover://es.internal:2113')).toBe(
      'esdb+discover://es.internal:2113?keepAliveInterval=5000&keepAliveTimeout=5000',
    );
    expect(withConnectionDefaults('esdb://h:2113?KeepAliveInterval=20000&tls=true')).toBe(
      'esdb://h:2113?KeepAliveInterval=20000&tls=true&keepAliveTimeout=5000',
    );
  });

  test('reads a long stream in pages', async () => {
    const events = fakeEvents(1234);
    const calls: Array<{ fromRevision: bigint; maxCount: number }> = [];
    const store = createEventStoreDbEventStore('esdb://unused', {
      client: fakeClient({
        readStream: (_id: string, options: { fromRevision: bigint; maxCount: number }) => {
          calls.push(options);
          const from = Number(options.fromRevision);
          return stream(events.slice(from, from + options.maxCount));
        },
      }),
    });
    const read = await store.readStream('customer-1');
    expect(read.map((e) => e.revision)).toEqual(events.map((e) => Number(e.revision)));
    expect(calls.map((c) => Number(c.fromRevision))).toEqual([0, 500, 1000]);
    expect(calls.every((c) => c.maxCount === 500)).toBe(true);
  });

  test('a dropped subscription is opened again from the last event it delivered: nothing skipped, nothing twice', async () => {
    const events = fakeEvents(9);
    const froms: Array<bigint | string> = [];
    let opened = 0;
    const store = createEventStoreDbEventStore('esdb://unused', {
      resubscribePauseMs: 1,
      client: fakeClient({
        subscribeToAll: (options: { fromPosition: { commit: bigint } | string | symbol }) => {
          opened++;
          const from = typeof options.fromPosition === 'object' ? options.fromPosition.commit : 'start';
          froms.push(from);
          // The server sends from the position on, that event included.
          const rest = typeof from === 'bigint' ? events.filter((e) => e.position.commit >= from) : events;
          // The first two subscriptions drop after three events; the third stays open.
          return opened <= 2 ? stream(rest, { failAfter: 3, fail: unavailable }) : stream(rest, { stayOpen: true });
        },
      }),
    });
    const abort = new AbortController();
    const seen: RecordedEvent[] = [];
    for await (const event of store.subscribeAll({ from: START, signal: abort.signal })) {
      seen.push(event);
      if (seen.length === events.length) abort.abort();
    }
    expect(seen.map((e) => e.id)).toEqual(events.map((e) => e.id));
    // From the start, then from the last event each dropped subscription delivered.
    expect(froms).toEqual(['start', events[2]!.position.commit, events[4]!.position.commit]);
    expect(opened).toBe(3);
  });

  test('a subscription that keeps dropping without an event fails as unavailable (the projector starts over from its checkpoint)', async () => {
    let opened = 0;
    const store = createEventStoreDbEventStore('esdb://unused', {
      resubscribePauseMs: 1,
      client: fakeClient({
        subscribeToAll: () => {
          opened++;
          return stream([], { failAfter: 0, fail: unavailable });
        },
      }),
    });
    const reading = (async () => {
      for await (const event of store.subscribeAll({ from: START })) void event;
    })();
    const error = await reading.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
    expect(opened).toBe(5);
    expect(isTransientFailure(error)).toBe(true);
  });

  test('a stream prefix keeps a store to its own streams in a shared EventStoreDB', async () => {
    const mine = fakeEvents(3, 'run1-customer-1');
    const theirs = fakeEvents(3, 'run2-customer-1').map((e) => ({
      ...e,
      position: { commit: e.position.commit + 5n, prepare: e.position.prepare + 5n },
    }));
    const all = [...mine, ...theirs].sort((a, b) => Number(a.position.commit - b.position.commit));
    const appendedTo: string[] = [];
    const readFrom: string[] = [];
    let filter: unknown;
    const store = createEventStoreDbEventStore('esdb://unused', {
      streamPrefix: 'run1-',
      client: fakeClient({
        appendToStream: (name: string) => {
          appendedTo.push(name);
          return Promise.resolve({ success: true, nextExpectedRevision: 0n, position: mine[0]!.position });
        },
        readStream: (name: string) => {
          readFrom.push(name);
          return stream(all.filter((e) => e.streamId === name));
        },
        readAll: (options: { direction?: string }) => stream(options.direction === 'backwards' ? [...all].reverse() : all),
        subscribeToAll: (options: { filter: unknown }) => {
          filter = options.filter;
          return stream(
            all.filter((e) => e.streamId.startsWith('run1-')),
            { stayOpen: true },
          );
        },
      }),
    });
    const event = { id: mine[0]!.id, type: 'CustomerNoted', data: {}, metadata: mine[0]!.metadata as never };
    await store.append('customer-1', [event], { expectedRevision: 'no_stream' });
    expect(appendedTo).toEqual(['run1-customer-1']);
    expect((await store.readStream('customer-1')).map((e) => e.streamId)).toEqual(['customer-1', 'customer-1', 'customer-1']);
    expect(readFrom).toEqual(['run1-customer-1']);
    const read = await store.readAll(START, 10);
    expect(read.map((e) => e.id)).toEqual(mine.map((e) => e.id));
    expect(read.every((e) => e.streamId === 'customer-1')).toBe(true);
    expect(await store.headPosition()).toEqual(mine[2]!.position);
    const abort = new AbortController();
    const seen: string[] = [];
    for await (const e of store.subscribeAll({ from: START, signal: abort.signal })) {
      seen.push(e.id);
      if (seen.length === 3) abort.abort();
    }
    expect(seen).toEqual(mine.map((e) => e.id));
    expect(JSON.stringify(filter)).toContain('run1-');
  });

  test('a store out of reach is EventStoreUnavailableError (503 in the API, a retry in the projector); a conflict stays a conflict', async () => {
    const store = createEventStoreDbEventStore('esdb://unused', {
      client: fakeClient({
        appendToStream: () => Promise.reject(unavailable()),
        readStream: () => stream([], { failAfter: 0, fail: unavailable }),
        readAll: () => stream([], { failAfter: 0, fail: unavailable }),
      }),
    });
    const event = { id: fakeEvents(1)[0]!.id, type: 'CustomerNoted', data: {}, metadata: fakeEvents(1)[0]!.metadata as never };
    for (const call of [
      () => store.append('customer-1', [event], { expectedRevision: 'any' }),
      () => store.readStream('customer-1'),
      () => store.readAll(START, 10),
      () => store.headPosition(),
      () => store.ping(),
    ]) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(EventStoreUnavailableError);
      // The code of a cut connection: what the API's outage check and the projector's retry look for.
      expect((error as { code: string }).code).toBe('ECONNRESET');
      expect(isTransientFailure(error)).toBe(true);
    }

    const conflicting = createEventStoreDbEventStore('esdb://unused', {
      client: fakeClient({
        appendToStream: () =>
          Promise.reject(new EsdbWrongExpectedVersionError(undefined, { streamName: 'customer-1', expected: 3n, current: 4n })),
      }),
    });
    const conflict = await conflicting.append('customer-1', [event], { expectedRevision: 3 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((conflict as Error).name).toBe('WrongExpectedVersionError');
    expect(isEventStoreConnectionError(conflict)).toBe(false);
  });
});
