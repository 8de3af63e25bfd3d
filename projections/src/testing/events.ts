import { randomUUID } from 'node:crypto';
import { START, type EventMetadata, type EventStore, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';

/**
 * The metadata of an event a test writes to the store by hand (not through a command): the
 * system as its actor, a fresh correlation id, now as its time, schema version 1.
 */
export function testEventMetadata(instanceId: string | null, overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    instanceId,
    actor: { kind: 'system', id: 'test', displayName: 'Test' },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
    ...overrides,
  };
}

/**
 * Reads `store`'s log until `count` events that `match` are visible, for 20 s at most (then
 * answers what it has, for the test's assertion to show): readers see only events below the
 * oldest transaction still running in the cluster, and other test files run transactions of
 * their own at the same time.
 */
export async function visibleEvents(
  store: EventStore,
  match: (event: RecordedEvent) => boolean,
  count: number,
  from: GlobalPosition = START,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const events = (await store.readAll(from, 100_000)).filter(match);
    if (events.length >= count || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
