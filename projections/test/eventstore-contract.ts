import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  START,
  WrongExpectedVersionError,
  comparePositions,
  type EventMetadata,
  type EventStore,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
} from '../src/eventstore/port.ts';

export interface ContractSubject {
  store: EventStore;
  cleanup(): Promise<void>;
}

/**
 * The behaviour every EventStore adapter must show. Stream ids are unique per test and
 * global reads are filtered to the test's own streams, so the suite also runs against a
 * shared EventStoreDB that holds other data. Global reads are polled: an adapter may show
 * an append to global readers a little later (PostgreSQL holds back rows while older
 * transactions are in flight).
 */
export function eventStoreContract(name: string, factory: () => Promise<ContractSubject>): void {
  describe(`event store contract: ${name}`, () => {
    let subject: ContractSubject | undefined;
    const store = (): EventStore => {
      if (!subject) throw new Error('factory did not run');
      return subject.store;
    };

    beforeAll(async () => {
      subject = await factory();
    });
    afterAll(async () => {
      await subject?.cleanup();
    });

    test('appends to a new stream with no_stream', async () => {
      const one = streamId('new');
      const first = await store().append(one, [event()], { expectedRevision: 'no_stream' });
      expect(first.nextRevision).toBe(0);

      const three = streamId('new3');
      const result = await store().append(three, [event(), event(), event()], { expectedRevision: 'no_stream' });
      expect(result.nextRevision).toBe(2);
      expect((await store().readStream(three)).map((e) => e.revision)).toEqual([0, 1, 2]);
    });

    test('appendMany: several streams in the order given; all or nothing where the store says it is atomic', async () => {
      const a = streamId('many-a');
      const b = streamId('many-b');
      const results = await store().appendMany([
        { streamId: a, events: [event()], expectedRevision: 'no_stream' },
        { streamId: b, events: [event(), event()], expectedRevision: 'no_stream' },
      ]);
      expect(results.map((r) => r.nextRevision)).toEqual([0, 1]);
      expect(comparePositions(results[0]!.position, results[1]!.positions[0]!)).toBeLessThan(0);
      expect(await store().readStream(b)).toHaveLength(2);

      // A wrong expected revision on the second stream.
      const c = streamId('many-c');
      const error = await captureError(
        store().appendMany([
          { streamId: c, events: [event()], expectedRevision: 'no_stream' },
          { streamId: a, events: [event()], expectedRevision: 5 },
        ]),
      );
      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect((error as WrongExpectedVersionError).streamId).toBe(a);
      // Atomic: the first stream was not written either. Otherwise it was, in order, before the failure.
      expect(await store().readStream(c)).toHaveLength(store().atomicMultiStream ? 0 : 1);
      expect(await store().readStream(a)).toHaveLength(1);
    });

    test('appends with the revision of the last event as the expected revision', async () => {
      const s = streamId('expected');
      await store().append(s, [event(), event()], { expectedRevision: 'no_stream' });
      const result = await store().append(s, [event()], { expectedRevision: 1 });
      expect(result.nextRevision).toBe(2);
      const next = await store().append(s, [event(), event()], { expectedRevision: 2 });
      expect(next.nextRevision).toBe(4);
      expect((await store().readStream(s)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
    });

    test('a wrong expected revision is a WrongExpectedVersionError and writes nothing', async () => {
      const s = streamId('wrong');
      await store().append(s, [event(), event()], { expectedRevision: 'no_stream' });

      const behind = await captureError(store().append(s, [event()], { expectedRevision: 0 }));
      expect(behind).toBeInstanceOf(WrongExpectedVersionError);
      expect(behind).toMatchObject({ streamId: s, expected: 0, actual: 1 });

      const ahead = await captureError(store().append(s, [event()], { expectedRevision: 7 }));
      expect(ahead).toBeInstanceOf(WrongExpectedVersionError);
      expect(ahead).toMatchObject({ streamId: s, expected: 7, actual: 1 });

      expect(await store().readStream(s)).toHaveLength(2);
    });

    test('no_stream on an existing stream, or a number on a missing one, is rejected', async () => {
      const s = streamId('exists');
      await store().append(s, [event()], { expectedRevision: 'no_stream' });
      const exists = await captureError(store().append(s, [event()], { expectedRevision: 'no_stream' }));
      expect(exists).toBeInstanceOf(WrongExpectedVersionError);
      expect(exists).toMatchObject({ streamId: s, expected: 'no_stream', actual: 0 });

      const missing = streamId('missing');
      const error = await captureError(store().append(missing, [event()], { expectedRevision: 0 }));
      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ streamId: missing, expected: 0, actual: 'no_stream' });
      expect(await store().readStream(missing)).toEqual([]);
    });

    test("'any' appends to new and existing streams", async () => {
      const s = streamId('any');
      expect((await store().append(s, [event()], { expectedRevision: 'any' })).nextRevision).toBe(0);
      expect((await store().append(s, [event(), event()], { expectedRevision: 'any' })).nextRevision).toBe(2);
      expect(await store().readStream(s)).toHaveLength(3);
    });

    test('concurrent appends with the same expected revision: exactly one wins', async () => {
      const s = streamId('race');
      const attempts = await Promise.allSettled(
        Array.from({ length: 8 }, () => store().append(s, [event()], { expectedRevision: 'no_stream' })),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      for (const attempt of attempts) {
        if (attempt.status === 'rejected') expect(attempt.reason).toBeInstanceOf(WrongExpectedVersionError);
      }

      const next = await Promise.allSettled(Array.from({ length: 8 }, () => store().append(s, [event()], { expectedRevision: 0 })));
      expect(next.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      expect((await store().readStream(s)).map((e) => e.revision)).toEqual([0, 1]);
    });

    test('re-appending the same event ids is idempotent', async () => {
      const s = streamId('idempotent');
      const batch = [event(), event()];
      const original = await store().append(s, batch, { expectedRevision: 'no_stream' });
      const retry = await store().append(s, batch, { expectedRevision: 'no_stream' });
      expect(retry.nextRevision).toBe(original.nextRevision);
      expect(comparePositions(retry.position, original.position)).toBe(0);
      expect(retry.positions).toEqual(original.positions);

      // A retry that arrives after later appends still succeeds and writes nothing.
      await store().append(s, [event()], { expectedRevision: 1 });
      const late = await store().append(s, batch, { expectedRevision: 'no_stream' });
      expect(late.nextRevision).toBe(1);

      const stored = await store().readStream(s);
      expect(stored.map((e) => e.id)).toEqual([batch[0]?.id, batch[1]?.id, expect.any(String)]);
      expect(new Set(stored.map((e) => e.id)).size).toBe(3);
    });

    test('a batch mixing stored and new event ids is rejected', async () => {
      const s = streamId('mixed');
      const batch = [event(), event()];
      await store().append(s, batch, { expectedRevision: 'no_stream' });
      await expect(store().append(s, [batch[0] ?? event(), event()], { expectedRevision: 'no_stream' })).rejects.toThrow();
      expect(await store().readStream(s)).toHaveLength(2);
    });

    test('readStream returns events in revision order; an unknown stream is empty', async () => {
      const s = streamId('order');
      const batches = [[event()], [event(), event()], [event()]];
      let expected: number | 'no_stream' = 'no_stream';
      for (const batch of batches) {
        expected = (await store().append(s, batch, { expectedRevision: expected })).nextRevision;
      }
      const stored = await store().readStream(s);
      expect(stored.map((e) => e.id)).toEqual(batches.flat().map((e) => e.id));
      expect(stored.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
      expect(stored.every((e) => e.streamId === s)).toBe(true);

      expect(await store().readStream(streamId('unknown'))).toEqual([]);
    });

    test('readStream upTo returns only events recorded up to that time', async () => {
      const s = streamId('upto');
      const early = [event(), event()];
      await store().append(s, early, { expectedRevision: 'no_stream' });
      // Margins either side of the cut-off tolerate a small clock difference with the server.
      await sleep(25);
      const cutOff = new Date();
      await sleep(25);
      await store().append(s, [event()], { expectedRevision: 1 });

      const past = await store().readStream(s, { upTo: cutOff });
      expect(past.map((e) => e.id)).toEqual(early.map((e) => e.id));
      expect(await store().readStream(s, { upTo: new Date(cutOff.getTime() - 60_000) })).toEqual([]);
      expect(await store().readStream(s, { upTo: new Date() })).toHaveLength(3);
    });

    test("readStream upTo an event's own recordedAt includes it: the time it reports is the time it is read by", async () => {
      const s = streamId('upto-own');
      await store().append(s, [event()], { expectedRevision: 'no_stream' });
      await sleep(5);
      await store().append(s, [event()], { expectedRevision: 0 });
      const [first, second] = await store().readStream(s);
      expect(first!.recordedAt).toBeInstanceOf(Date);
      expect(second!.recordedAt.getTime()).toBeGreaterThan(first!.recordedAt.getTime());

      expect((await store().readStream(s, { upTo: first!.recordedAt })).map((e) => e.id)).toEqual([first!.id]);
      expect((await store().readStream(s, { upTo: new Date(first!.recordedAt.getTime() - 1) })).map((e) => e.id)).toEqual([]);
      expect((await store().readStream(s, { upTo: second!.recordedAt })).map((e) => e.id)).toEqual([first!.id, second!.id]);
    });

    test('readAll from START delivers everything in order; from a checkpoint only later events', async () => {
      const { streams, ids } = await interleavedAppends(store());
      const all = await readAllUntil(store(), START, streams, ids.length);
      expect(all.map((e) => e.id)).toEqual(ids);
      expectIncreasing(all.map((e) => e.position));

      const checkpoint = all[1]?.position ?? START;
      const later = await readAllUntil(store(), checkpoint, streams, ids.length - 2);
      expect(later.map((e) => e.id)).toEqual(ids.slice(2));

      expect((await store().readAll(START, 2)).length).toBeLessThanOrEqual(2);
      expect(await store().readAll(START, 0)).toEqual([]);
    });

    test('subscribeAll from START delivers everything in order; from a checkpoint only later events', async () => {
      const { streams, ids } = await interleavedAppends(store());
      const all = await subscribeUntil(store(), START, streams, ids.length);
      expect(all.map((e) => e.id)).toEqual(ids);
      expectIncreasing(all.map((e) => e.position));

      const later = await subscribeUntil(store(), all[2]?.position ?? START, streams, ids.length - 3);
      expect(later.map((e) => e.id)).toEqual(ids.slice(3));
    });

    test('a subscription delivers events appended after it caught up', async () => {
      const s = streamId('live');
      const first = event();
      await store().append(s, [first], { expectedRevision: 'no_stream' });
      const controller = new AbortController();
      const seen: RecordedEvent[] = [];
      const running = (async () => {
        for await (const e of store().subscribeAll({ from: START, signal: controller.signal })) {
          if (e.streamId === s) seen.push(e);
        }
      })();
      try {
        await eventually(() => seen.length === 1, 'the subscription catches up');
        const live = [event(), event()];
        await store().append(s, [live[0] ?? event()], { expectedRevision: 0 });
        await store().append(s, [live[1] ?? event()], { expectedRevision: 1 });
        await eventually(() => seen.length === 3, 'live events arrive');
        expect(seen.map((e) => e.id)).toEqual([first.id, ...live.map((e) => e.id)]);
      } finally {
        controller.abort();
      }
      // Aborting ends the iteration.
      await expect(withTimeout(running, 5_000, 'subscription did not stop on abort')).resolves.toBeUndefined();
    });

    test('an idle subscription stops when its signal aborts', async () => {
      const controller = new AbortController();
      const running = (async () => {
        let count = 0;
        for await (const e of store().subscribeAll({ from: await store().headPosition(), signal: controller.signal })) {
          void e;
          count++;
        }
        return count;
      })();
      await sleep(100);
      controller.abort();
      await expect(withTimeout(running, 5_000, 'subscription did not stop on abort')).resolves.toBeTypeOf('number');
    });

    test('positions increase and match the recorded events', async () => {
      const s = streamId('positions');
      const results = [];
      let expected: number | 'no_stream' = 'no_stream';
      for (let i = 0; i < 5; i++) {
        const result = await store().append(s, [event(), event()], { expectedRevision: expected });
        results.push(result);
        expected = result.nextRevision;
      }
      expectIncreasing(results.map((r) => r.position));

      const stored = await store().readStream(s);
      expectIncreasing(stored.map((e) => e.position));
      // An append's position is the position of its last event; `positions` names each one's.
      results.forEach((result, i) => {
        const last = stored[i * 2 + 1];
        expect(last?.revision).toBe(result.nextRevision);
        expect(last && comparePositions(last.position, result.position)).toBe(0);
        expect(result.positions).toEqual([stored[i * 2]?.position, last?.position]);
      });
      const global = await readAllUntil(store(), START, new Set([s]), stored.length);
      expect(global.map((e) => e.position)).toEqual(stored.map((e) => e.position));
    });

    test('data and metadata round-trip', async () => {
      const s = streamId('roundtrip');
      const data = {
        text: 'Ölwechsel — 5W-30 "synthetic" \\ ✓',
        amount: 1234.5,
        count: 0,
        negative: -7,
        flag: false,
        nothing: null,
        list: [1, 'two', { three: [3] }],
        nested: { deeper: { deepest: 'yes' }, empty: {} },
      };
      const meta = metadata({
        instanceId: null,
        causationId: randomUUID(),
        actor: { kind: 'superadmin', id: 'root', displayName: 'Zoë Admin' },
        schemaVersion: 3,
      });
      const written: NewEvent = { id: randomUUID(), type: 'PartOrdered', data, metadata: meta };
      const before = Date.now();
      const result = await store().append(s, [written], { expectedRevision: 'no_stream' });

      const [stored] = await store().readStream(s);
      expect(stored).toBeDefined();
      if (!stored) return;
      expect(stored).toMatchObject({ id: written.id, streamId: s, revision: 0, type: 'PartOrdered' });
      expect(stored.data).toEqual(data);
      expect(stored.metadata).toEqual(meta);
      expect(stored.recordedAt).toBeInstanceOf(Date);
      expect(Math.abs(stored.recordedAt.getTime() - before)).toBeLessThan(60_000);
      expect(comparePositions(stored.position, result.position)).toBe(0);

      const [global] = await readAllUntil(store(), START, new Set([s]), 1);
      expect(global).toEqual(stored);
    });

    test('headPosition reaches the position of the latest append', async () => {
      const s = streamId('head');
      const result = await store().append(s, [event()], { expectedRevision: 'no_stream' });
      await eventually(async () => comparePositions(await store().headPosition(), result.position) >= 0, 'headPosition reaches the append');
      expect(comparePositions(await store().headPosition(), START)).toBeGreaterThan(0);
    });

    test('ping answers', async () => {
      await expect(store().ping()).resolves.toBeUndefined();
    });
  });
}

// ---- helpers ----

function streamId(label: string): string {
  return `contract_${label}-${randomUUID()}`;
}

function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    instanceId: randomUUID(),
    actor: { kind: 'user', id: randomUUID(), displayName: 'Contract Test' },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
    ...overrides,
  };
}

function event(type = 'ContractTested', data: Record<string, unknown> = { at: Date.now() }): NewEvent {
  return { id: randomUUID(), type, data, metadata: metadata() };
}

/** Five appends alternating between two streams; returns the ids in append order. */
async function interleavedAppends(store: EventStore): Promise<{ streams: Set<string>; ids: string[] }> {
  const a = streamId('all_a');
  const b = streamId('all_b');
  const ids: string[] = [];
  const revisions = new Map<string, number>();
  for (const s of [a, b, a, b, a]) {
    const e = event();
    const result = await store.append(s, [e], { expectedRevision: revisions.get(s) ?? 'no_stream' });
    revisions.set(s, result.nextRevision);
    ids.push(e.id);
  }
  return { streams: new Set([a, b]), ids };
}

async function captureError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

function expectIncreasing(positions: GlobalPosition[]): void {
  for (let i = 1; i < positions.length; i++) {
    const previous = positions[i - 1];
    const current = positions[i];
    if (!previous || !current) continue;
    expect(comparePositions(previous, current), `position ${i} increases`).toBeLessThan(0);
  }
}

async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Pages through readAll from `from` until `count` events of `streams` were read. */
async function readAllUntil(store: EventStore, from: GlobalPosition, streams: Set<string>, count: number): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  let position = from;
  const deadline = Date.now() + 10_000;
  while (found.length < count) {
    const page = await store.readAll(position, 200);
    for (const e of page) {
      if (streams.has(e.streamId)) found.push(e);
      position = e.position;
    }
    if (page.length === 0) {
      if (Date.now() > deadline) throw new Error(`readAll found ${found.length} of ${count} events`);
      await sleep(20);
    }
  }
  return found;
}

/** Subscribes from `from` until `count` events of `streams` arrived. */
async function subscribeUntil(store: EventStore, from: GlobalPosition, streams: Set<string>, count: number): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    for await (const e of store.subscribeAll({ from, signal: controller.signal })) {
      if (streams.has(e.streamId)) found.push(e);
      if (found.length >= count) break;
    }
  } finally {
    clearTimeout(timer);
  }
  if (found.length < count) throw new Error(`subscription delivered ${found.length} of ${count} events`);
  return found;
}
