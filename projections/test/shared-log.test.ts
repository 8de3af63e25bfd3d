import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { comparePositions, START, type EventStore, type GlobalPosition } from '../src/eventstore/port.ts';
import { sharedSubscriptions } from '../src/runtime/shared-log.ts';
import { testEventMetadata, visibleEvents } from '../src/testing/events.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';

let env: StoreDatabase | undefined;
let store: EventStore;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 4 });
  store = env.store;
});

afterAll(() => env?.close());

/** Appends events with these ids, each in its own transaction (a position each). */
async function appendEvents(ids: string[]): Promise<void> {
  for (const [i, id] of ids.entries()) {
    const instanceId = randomUUID();
    await store.append(
      `crminstance-${instanceId}`,
      [
        {
          id,
          type: 'CrmInstanceCreated',
          data: {
            instanceId,
            name: `S${i}`,
            subdomain: `s${i}-${instanceId.slice(0, 8)}`,
            displayName: `S${i}`,
            description: '',
            features: { pipeline: true, customers: true, calendar: false, admin: true },
          },
          metadata: testEventMetadata(instanceId),
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  }
}

const newIds = (count: number) => Array.from({ length: count }, () => randomUUID());

/** Follows `log` from `from` until it has seen `last`; the ids it got, in order. */
async function follow(log: EventStore, from: GlobalPosition, last: string, slowMs = 0): Promise<string[]> {
  const stop = new AbortController();
  const seen: string[] = [];
  let previous: GlobalPosition | null = null;
  for await (const event of log.subscribeAll({ from, signal: stop.signal })) {
    if (previous) expect(comparePositions(event.position, previous)).toBeGreaterThan(0);
    previous = event.position;
    seen.push(event.id);
    if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
    if (event.id === last) stop.abort();
  }
  return seen;
}

/** The position of the event `id` once readers see it (other test files run beside this one). */
async function positionOf(id: string): Promise<GlobalPosition> {
  const [event] = await visibleEvents(store, (e) => e.id === id, 1);
  return event!.position;
}

describe('one reader of the log for every subscription of a process (shared-log.ts)', () => {
  test('subscribers from different positions each get every event after theirs once, in order, a slow one too', async () => {
    const before = newIds(12);
    await appendEvents(before);
    // Every event so far, once the last one appended is visible (each committed before the next began).
    const [head, middle] = [await positionOf(before[11]!), await positionOf(before[5]!)];
    const all = (await store.readAll(START, 100_000)).map((event) => event.id);
    // Capacity 4: the slow subscriber loses what the reader keeps and reads on its own.
    const log = sharedSubscriptions(store, 4);
    const after = newIds(15);
    const last = after[after.length - 1]!;
    const following = Promise.all([follow(log, head, last), follow(log, START, last), follow(log, middle, last, 20)]);
    await appendEvents(after);
    const [fromHead, fromStart, fromMiddle] = await following;
    expect(fromHead).toEqual(after);
    expect(fromStart).toEqual([...all, ...after]);
    expect(fromMiddle).toEqual([...before.slice(6), ...after]);
  });

  test('a subscriber that stops leaves the others following; the next one after all stopped starts a new reader', async () => {
    const log = sharedSubscriptions(store);
    expect(sharedSubscriptions(store)).toBe(log);
    const head = await store.headPosition();
    const first = newIds(3);
    const leaving = new AbortController();
    const left: string[] = [];
    const leaver = (async () => {
      for await (const event of log.subscribeAll({ from: head, signal: leaving.signal })) {
        left.push(event.id);
        leaving.abort();
      }
    })();
    const stayer = follow(log, head, first[2]!);
    await appendEvents(first);
    await leaver;
    expect(left).toEqual([first[0]]);
    expect(await stayer).toEqual(first);
    const second = newIds(2);
    const later = follow(log, head, second[1]!);
    await appendEvents(second);
    expect(await later).toEqual([...first, ...second]);
  });
});
