import type { EventStore, RecordedEvent } from '@crm/projections/eventstore/port';

/**
 * Time travel, one clock for every slice: a stream as it stood at `asOf` (null: now), by
 * the time the event store recorded each event (`readStream`'s `upTo`), the same time
 * history rows show. Should recorded times ever run backwards within a stream (a clock
 * step), only the unbroken run from the first revision counts, so the answer is always a
 * state the record really had.
 */
export async function readStreamAsOf(store: EventStore, streamId: string, asOf: Date | null): Promise<RecordedEvent[]> {
  if (!asOf) return await store.readStream(streamId);
  const recorded = await store.readStream(streamId, { upTo: asOf });
  const gap = recorded.findIndex((event, i) => event.revision !== i);
  return gap === -1 ? recorded : recorded.slice(0, gap);
}
