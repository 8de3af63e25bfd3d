import type { Knex } from 'knex';
import { comparePositions, type GlobalPosition } from '../eventstore/port.ts';

/**
 * What a reactor did about one event: how many aggregates it changed and the position of
 * its last append. Written in the reactor's batch transaction, with its checkpoint, so a
 * request that waits for the reactor's checkpoint can answer with it (and wait for the
 * projector to reach `lastPosition`) without scanning the log.
 */
export interface Reaction {
  affected: number;
  lastPosition: GlobalPosition | null;
}

interface ReactionRow {
  affected: number;
  last_position_commit: string | null;
  last_position_prepare: string | null;
}

function toReaction(row: ReactionRow): Reaction {
  return {
    affected: row.affected,
    lastPosition:
      row.last_position_commit === null || row.last_position_prepare === null
        ? null
        : { commit: BigInt(row.last_position_commit), prepare: BigInt(row.last_position_prepare) },
  };
}

export async function readReaction(db: Knex | Knex.Transaction, reactor: string, eventId: string): Promise<Reaction | null> {
  const row = (await db('reactions').where({ reactor, event_id: eventId }).first()) as ReactionRow | undefined;
  return row ? toReaction(row) : null;
}

/**
 * Adds to the reaction to an event (creating it): `affected` more aggregates changed, the
 * last append at `lastPosition`. A replayed batch rolled back its earlier write, so adding
 * never counts twice.
 */
export async function addToReaction(
  trx: Knex.Transaction,
  reactor: string,
  eventId: string,
  affected: number,
  lastPosition: GlobalPosition | null,
): Promise<void> {
  const current = (await trx('reactions').where({ reactor, event_id: eventId }).forUpdate().first()) as ReactionRow | undefined;
  const before = current ? toReaction(current) : { affected: 0, lastPosition: null };
  const last = latest(before.lastPosition, lastPosition);
  await trx('reactions')
    .insert({
      reactor,
      event_id: eventId,
      affected: before.affected + affected,
      last_position_commit: last?.commit.toString() ?? null,
      last_position_prepare: last?.prepare.toString() ?? null,
    })
    .onConflict(['reactor', 'event_id'])
    .merge(['affected', 'last_position_commit', 'last_position_prepare', 'recorded_at']);
}

export function latest(a: GlobalPosition | null, b: GlobalPosition | null): GlobalPosition | null {
  if (!a) return b;
  if (!b) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}
