import type { EventStore, RecordedEvent } from '@crm/projections/eventstore/port';

/**
 * Where time travel goes: an instant (`at`), a record's revision (the record right after its
 * change with that revision), or both (whichever comes first). Two changes saved in the same
 * instant differ only by revision.
 */
export type AsOf = Date | { at?: Date; revision?: number };

/** A request's `asOf` / `asOfRevision` (parsed by the contract's `asOfQuery`): null for now. */
export function asOfOf(query: { asOf?: Date; asOfRevision?: number }): AsOf | null {
  if (!query.asOf && query.asOfRevision === undefined) return null;
  return { at: query.asOf, revision: query.asOfRevision };
}

/**
 * Time travel, one clock for every slice: a stream as it stood at `asOf` (null: now), by
 * the time the event store recorded each event (`readStream`'s `upTo`), the same time
 * history rows show, and/or up to a revision. Should recorded times ever run backwards
 * within a stream (a clock step), only the unbroken run from the first revision counts, so
 * the answer is always a state the record really had.
 */
export async function readStreamAsOf(store: EventStore, streamId: string, asOf: AsOf | null): Promise<RecordedEvent[]> {
  if (!asOf) return await store.readStream(streamId);
  const { at, revision } = asOf instanceof Date ? { at: asOf, revision: undefined } : asOf;
  let recorded = at ? await store.readStream(streamId, { upTo: at }) : await store.readStream(streamId);
  if (at) {
    const gap = recorded.findIndex((event, i) => event.revision !== i);
    if (gap !== -1) recorded = recorded.slice(0, gap);
  }
  return revision === undefined ? recorded : recorded.filter((event) => event.revision <= revision);
}
