import { WrongExpectedVersionError, type AppendResult, type EventStore } from '@crm/projections/eventstore/port';
import { toNewEvents, type CommandContext } from './commands.ts';
import { ConflictError } from './errors.ts';
import {
  holderOf,
  NameTakenError,
  reservationDecider,
  reservationOf,
  type ReleasedEvent,
  type ReservedEvent,
} from './reservation-decider.ts';

/**
 * Uniqueness through a reservation stream per name (reservation-decider.ts). Appending with the revision read makes two racing
 * reservations of one name impossible.
 */
export async function reserve(
  store: EventStore,
  streamId: string,
  reserved: ReservedEvent,
  ctx: CommandContext,
  takenMessage: string,
): Promise<AppendResult> {
  const events = await store.readStream(streamId);
  const last = events[events.length - 1];
  let decided;
  try {
    decided = reservationDecider.decide({ type: 'Reserve', reserved }, reservationOf(events));
  } catch (error) {
    if (error instanceof NameTakenError) throw new ConflictError(takenMessage);
    throw error;
  }
  try {
    return await store.append(streamId, toNewEvents(decided, ctx), {
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
  released: ReleasedEvent,
  ctx: CommandContext,
): Promise<AppendResult | null> {
  const events = await store.readStream(streamId);
  const last = events[events.length - 1];
  const decided = reservationDecider.decide({ type: 'Release', released }, reservationOf(events));
  if (!last || decided.length === 0) return null;
  return await store.append(streamId, toNewEvents(decided, ctx), { expectedRevision: last.revision });
}

/** Who holds a name now, from the reservation stream itself (never stale). */
export async function reservationHolder(store: EventStore, streamId: string): Promise<Record<string, unknown> | null> {
  return holderOf(await store.readStream(streamId));
}
