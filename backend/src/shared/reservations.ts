import type { DomainEvent } from '@crm/projections/events';
import { WrongExpectedVersionError, type AppendResult, type EventStore } from '@crm/projections/eventstore/port';
import { toNewEvents, type CommandContext } from './commands.ts';
import { ConflictError } from './errors.ts';

/**
 * Uniqueness through a reservation stream per name: the name is taken while the stream's
 * last event is a reservation. Appending with the revision read makes two racing
 * reservations of one name impossible.
 */
export async function reserve(
  store: EventStore,
  streamId: string,
  reserved: DomainEvent,
  ctx: CommandContext,
  takenMessage: string,
): Promise<AppendResult> {
  const events = await store.readStream(streamId);
  const last = events[events.length - 1];
  if (last && last.type.endsWith('Reserved')) throw new ConflictError(takenMessage);
  try {
    return await store.append(streamId, toNewEvents([reserved], ctx), {
      expectedRevision: last ? last.revision : 'no_stream',
    });
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) throw new ConflictError(takenMessage);
    throw error;
  }
}

/** Frees a name; a no-op (null) when it is not reserved. */
export async function release(
  store: EventStore,
  streamId: string,
  released: DomainEvent,
  ctx: CommandContext,
): Promise<AppendResult | null> {
  const events = await store.readStream(streamId);
  const last = events[events.length - 1];
  if (!last || !last.type.endsWith('Reserved')) return null;
  return await store.append(streamId, toNewEvents([released], ctx), { expectedRevision: last.revision });
}

/** Who holds a name now, from the reservation stream itself (never stale). */
export async function reservationHolder(store: EventStore, streamId: string): Promise<Record<string, unknown> | null> {
  const events = await store.readStream(streamId);
  const last = events[events.length - 1];
  return last && last.type.endsWith('Reserved') ? (last.data as Record<string, unknown>) : null;
}
