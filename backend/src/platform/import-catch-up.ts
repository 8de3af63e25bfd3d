import { comparePositions } from '@crm/projections/eventstore/port';
import type { Logger } from '../logger.ts';
import { createProjector, createReactors, type Storage } from '../runtime.ts';

/**
 * After an import: the projector and the reactors run until each has passed the head of
 * the log, then stop, so the store is ready (read models built) before a server starts on
 * it, and a rebuild afterwards compares equal. Answers how many ms it took.
 */
export async function catchUpImported(storage: Storage, logger: Logger, onProgress?: (applied: number) => void): Promise<number> {
  const started = Date.now();
  const head = await storage.store.headPosition();
  const subscribers = [createProjector(storage, logger), ...createReactors(storage, logger)];
  for (const subscriber of subscribers) subscriber.start();
  try {
    while (subscribers.some((s) => comparePositions(s.position, head) < 0)) {
      onProgress?.(subscribers[0]!.eventsApplied);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await Promise.all(subscribers.map((s) => s.stop()));
  }
  return Date.now() - started;
}
