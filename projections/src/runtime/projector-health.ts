import type { Knex } from 'knex';
import { positionToString } from '../eventstore/port.ts';
import { readCheckpoint } from './checkpoints.ts';
import type { Projector } from './projector.ts';

/** How long the stored checkpoints are waited for. */
const STORED_WAIT_MS = 1000;

/** One subscriber (the projector or a reactor) of a projector process, as /healthz tells it. */
export interface SubscriberState {
  checkpoint: string;
  /** Whether this process holds the checkpoint's lock; false: it stands by. */
  active: boolean;
  /** What this process has applied up to ("commit/prepare"); null on standby, which applies nothing. */
  position: string | null;
}

/**
 * What each subscriber of this process knows of itself, from memory: /healthz is a liveness
 * probe, and a database that does not answer must not make a live process look dead.
 */
export function subscriberStates(subscribers: readonly Projector[]): SubscriberState[] {
  return subscribers.map((s) => ({
    checkpoint: s.checkpointName,
    active: s.isLeader,
    position: s.isLeader && s.position ? positionToString(s.position) : null,
  }));
}

/** One subscriber as /readyz tells it: its own state and the checkpoint stored in the database. */
export interface SubscriberHealth extends SubscriberState {
  /**
   * The checkpoint stored in the database, where a standby would carry on from; null when
   * none is stored yet or the database does not answer within a second.
   */
  stored: string | null;
}

/**
 * What each subscriber of this process really knows, for /readyz. A standby has applied
 * nothing itself, so its own position is null; the stored checkpoint (written by whichever
 * process is active) is read from the database.
 */
export async function describeSubscribers(knex: Knex, subscribers: readonly Projector[]): Promise<SubscriberHealth[]> {
  // The probe must answer even when the database does not: past STORED_WAIT_MS
  // the stored checkpoints are told as unknown (null).
  let timer: NodeJS.Timeout | undefined;
  const unknown = new Promise<null[]>((resolve) => {
    timer = setTimeout(() => resolve(subscribers.map(() => null)), STORED_WAIT_MS);
  });
  const stored = await Promise.race([
    Promise.all(subscribers.map((s) => readCheckpoint(knex, s.checkpointName).catch(() => null))),
    unknown,
  ]).finally(() => clearTimeout(timer));
  return subscriberStates(subscribers).map((state, i) => {
    const checkpoint = stored[i];
    return { ...state, stored: checkpoint ? positionToString(checkpoint) : null };
  });
}
