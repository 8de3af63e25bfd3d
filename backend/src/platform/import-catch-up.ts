import { setTimeout as sleep } from 'node:timers/promises';
import { comparePositions, START } from '@crm/projections/eventstore/port';
import type { EventStore } from '@crm/projections/eventstore/port';
import { readCheckpoint } from '@crm/projections/runtime/checkpoints';
import type { Projector } from '@crm/projections/runtime/projector';
import type { Knex } from 'knex';

/**
 * After an import: the projector and the reactors run until each has passed the head of
 * the log, then stop, so the store is ready (read models built) before a server starts on
 * it, and a rebuild afterwards compares equal. Answers how many ms it took.
 * The composition root builds the subscribers (the projector first: its count is the progress
 * told); this slice never reaches back into it.
 */
export async function catchUpImported(
  storage: { knex: Knex; store: Pick<EventStore, 'headPosition'> },
  subscribers: readonly [Projector, ...Projector[]],
  onProgress?: (applied: number) => void,
): Promise<number> {
  const started = Date.now();
  // The last event written, visible or not: the store shows a position only once every older
  // transaction of the cluster has ended, so its own head may still lag the committed import
  // (another database's long transaction holds it back). The subscribers read only what is
  // visible, so waiting for them to pass this position waits for that too.
  const last = await storage.knex.raw<{ rows: Array<{ tx: string; seq: string }> }>(
    'select tx_id::text as tx, seq::text as seq from events order by tx_id desc, seq desc limit 1',
  );
  const row = last.rows[0];
  const head = row ? { commit: BigInt(row.tx), prepare: BigInt(row.seq) } : await storage.store.headPosition();
  for (const subscriber of subscribers) subscriber.start();
  // A subscriber is done when it has passed the head itself, or when its read-model set's
  // checkpoint has: a running server's projector holds the election lock, so ours stands by
  // and that one projects the import (waiting for ours alone would never end).
  const passed = async (subscriber: Projector) =>
    comparePositions(subscriber.position ?? START, head) >= 0 ||
    (!subscriber.isLeader && comparePositions((await readCheckpoint(storage.knex, subscriber.checkpointName)) ?? START, head) >= 0);
  try {
    for (;;) {
      const done = await Promise.all(subscribers.map(passed));
      if (done.every(Boolean)) break;
      onProgress?.(subscribers[0].eventsApplied);
      await sleep(50);
    }
  } finally {
    await Promise.all(subscribers.map((s) => s.stop()));
  }
  return Date.now() - started;
}
