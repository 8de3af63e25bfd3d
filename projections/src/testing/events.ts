import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  comparePositions,
  START,
  type EventMetadata,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
} from '../eventstore/port.ts';

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

/**
 * The position of the last event committed to the PostgreSQL log, whether or not readers can
 * see it yet. `headPosition` answers only what readers see, which stops below the oldest
 * transaction still running anywhere in the cluster; other test files run transactions in
 * their own databases of the same cluster, so a head read once can be behind the last event,
 * and a projector that then passes it never "equals" it.
 */
export async function lastCommittedPosition(knex: Knex): Promise<GlobalPosition> {
  const { rows } = await knex.raw<{ rows: Array<{ tx_text: string; seq_text: string }> }>(
    'select tx_id::text as tx_text, seq::text as seq_text from public.events order by tx_id desc, seq desc limit 1',
  );
  const row = rows[0];
  return row ? { commit: BigInt(row.tx_text), prepare: BigInt(row.seq_text) } : START;
}

/** Whether `position` (a checkpoint; null: none yet) has reached the last event committed to the log. */
export async function reachedLastCommitted(knex: Knex, position: GlobalPosition | null): Promise<boolean> {
  return comparePositions(position ?? START, await lastCommittedPosition(knex)) >= 0;
}
