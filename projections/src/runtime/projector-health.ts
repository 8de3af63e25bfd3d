import type { Knex } from 'knex';
import { positionToString } from '../eventstore/port.ts';
import { readCheckpoint } from './checkpoints.ts';
import type { Projector } from './projector.ts';

/** How long the stored checkpoints are waited for. */
const STORED_WAIT_MS = 1000;

/** One subscriber (the projector or a reactor) of a projector process, as /healthz and /readyz tell it. */
export interface SubscriberHealth {
  checkpoint: string;
  /** Whether this process holds the checkpoint's lock; false: it stands by. */
  active: boolean;
  /** What this process has applied up to ("commit/prepare"); null on standby, which applies nothing. */
  position: string | null;
  /**
   * The checkpoint stored in the database, where a standby would carry on from; null when
   * none is stored yet or the database does not answer within a second.
   */
  stored: string | null;
}

/**
 * What each subscriber of this process really knows. A standby has applied nothing itself,
 * so its own position is null; the stored checkpoint (written by whichever process is
 * active) is read from the database.
 */
export async function describeSubscribers(knex: Knex, subscribers: readonly Projector[]): Promise<SubscriberHealth[]> {
  // A liveness probe must not hang on a database that does not answer: past STORED_WAIT_MS
  // the stored checkpoints are told as unknown (null).
  let timer: NodeJS.Timeout | undefined;
  const unknown = new Promise<null[]>((resolve) => {
    timer = setTimeout(() => resolve(subscribers.map(() => null)), STORED_WAIT_MS);
  });
  const stored = await Promise.race([
    Promise.all(subscribers.map((s) => readCheckpoint(knex, s.checkpointName).catch(() => null))),
    unknown,
  ]).finally(() => clearTimeout(timer));
  return subscribers.map((s, i) => {
    const position = s.position;
    const checkpoint = stored[i];
    return {
      checkpoint: s.checkpointName,
      active: s.isLeader,
      position: s.isLeader && position ? positionToString(position) : null,
      stored: checkpoint ? positionToString(checkpoint) : null,
    };
  });
}
