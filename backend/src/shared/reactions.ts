import { positionToString, type GlobalPosition } from '@crm/projections/eventstore/port';
import { readReaction, type Reaction } from '@crm/projections/runtime/reactions';
import type { AppDeps } from '../deps.ts';

/**
 * Reactors: work one event causes in other aggregates, done by a checkpointed subscriber
 * (runtime.ts starts them beside the projector). Their names are their checkpoint names;
 * they live here so the slice whose event starts a reaction can wait for it without
 * importing the slice that reacts.
 */
export const CUSTOMER_CASCADE = 'reactor:customer-cascade';

/** How long a request waits for a reactor (it then waits for the projector as well). */
export const REACTION_WAIT_MS = 5000;

/**
 * Read-your-writes across a reactor: waits (bounded) until the reactor's checkpoint has
 * passed the event, then answers with what it recorded about it. Null when it did not get
 * there in time, or recorded nothing (it parked the event).
 */
export async function awaitReaction(
  deps: AppDeps,
  reactor: string,
  event: { id: string; position: GlobalPosition },
  timeoutMs = REACTION_WAIT_MS,
): Promise<Reaction | null> {
  const reached = await deps.watcher.waitFor(event.position, timeoutMs, reactor);
  const reaction = reached ? await readReaction(deps.knex, reactor, event.id) : null;
  if (!reaction) {
    deps.logger.warn(
      { reactor, eventId: event.id, position: positionToString(event.position), reached },
      reached ? 'the reactor recorded nothing for the event (parked?)' : `the reactor did not handle the event within ${timeoutMs} ms`,
    );
  }
  return reaction;
}

/** Turns what happened (a request, an appointment, a finished job) into queued customer messages. */
export const MESSAGE_OUTBOX = 'reactor:message-outbox';
