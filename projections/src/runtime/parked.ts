import type { Knex } from 'knex';
import { positionToString, type RecordedEvent } from '../eventstore/port.ts';

/**
 * Events a projector or reactor could not handle (it failed again when applied alone while
 * the database answered) and skipped, so one bad event does not freeze every read model.
 * The row keeps what an operator needs to fix the cause and replay it.
 */
export interface ParkedEvent {
  checkpoint: string;
  position: string;
  eventId: string;
  streamId: string;
  type: string;
  error: string;
  parkedAt: string;
}

interface ParkedRow {
  checkpoint_name: string;
  position_commit: string;
  position_prepare: string;
  event_id: string;
  stream_id: string;
  type: string;
  error: string;
  parked_at: Date;
}

const MAX_ERROR_LENGTH = 2000;

export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

/** Records a parked event; in the transaction that moves the checkpoint past it. */
export async function recordParkedEvent(
  trx: Knex.Transaction,
  checkpointName: string,
  event: RecordedEvent,
  error: unknown,
): Promise<void> {
  await trx('parked_events')
    .insert({
      checkpoint_name: checkpointName,
      position_commit: event.position.commit.toString(),
      position_prepare: event.position.prepare.toString(),
      event_id: event.id,
      stream_id: event.streamId,
      type: event.type,
      error: describeError(error),
    })
    .onConflict(['checkpoint_name', 'position_commit', 'position_prepare'])
    .ignore();
}

/** Newest first. */
export async function listParkedEvents(db: Knex, limit = 20): Promise<ParkedEvent[]> {
  const rows = (await db('parked_events').orderBy('parked_at', 'desc').limit(limit).select()) as ParkedRow[];
  return rows.map((row) => ({
    checkpoint: row.checkpoint_name,
    position: positionToString({ commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) }),
    eventId: row.event_id,
    streamId: row.stream_id,
    type: row.type,
    error: row.error,
    parkedAt: new Date(row.parked_at).toISOString(),
  }));
}

/** How many events each projector or reactor has parked. */
export async function countParkedEvents(db: Knex): Promise<Map<string, number>> {
  const rows = (await db('parked_events').groupBy('checkpoint_name').select('checkpoint_name').count({ n: '*' })) as Array<{
    checkpoint_name: string;
    n: string | number;
  }>;
  return new Map(rows.map((row) => [row.checkpoint_name, Number(row.n)]));
}

/** Positions parked by one checkpoint (a rebuild skips what the live projector skipped). */
export async function parkedPositions(db: Knex, checkpointName: string): Promise<Set<string>> {
  const rows = (await db('parked_events')
    .where({ checkpoint_name: checkpointName })
    .select('position_commit', 'position_prepare')) as Array<{
    position_commit: string;
    position_prepare: string;
  }>;
  return new Set(rows.map((row) => `${row.position_commit}/${row.position_prepare}`));
}

/** The errors the checkpoint parked these events with, by event id. */
export async function parkedReasons(db: Knex, checkpointName: string, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = (await db('parked_events')
    .where({ checkpoint_name: checkpointName })
    .whereIn('event_id', eventIds)
    .select('event_id', 'error')) as Array<{ event_id: string; error: string }>;
  return new Map(rows.map((row) => [row.event_id, row.error]));
}
