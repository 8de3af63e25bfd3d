import type { Knex } from 'knex';
import type { EventStore, GlobalPosition } from '../eventstore/port.ts';
import type { Projection } from './projection.ts';

/** What a projector (or reactor) is given: its store, database, read models, logger and pacing. */

export interface ProjectorLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: ProjectorLogger = { info: () => {}, warn: () => {}, error: () => {} };

export interface RetryPolicy {
  /** Pause after the first failure; doubles with each further one. */
  initialDelayMs: number;
  /** The longest pause. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { initialDelayMs: 100, maxDelayMs: 5000 };

export interface ProjectorOptions {
  store: EventStore;
  knex: Knex;
  /** Used for the leader-election connection. */
  connectionString: string;
  /** The read models, or a reactor's handler. */
  projections: Projection[];
  schema: string;
  checkpointName?: string;
  /** Names it in logs: 'projector' (default) or 'reactor'. */
  kind?: 'projector' | 'reactor';
  batchSize?: number;
  logger?: ProjectorLogger;
  /** How often a standby projector retries the leader lock (default 1 s). */
  standbyRetryMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Told each checkpoint this projector has committed (a watcher in the same process need not wait for the NOTIFY). */
  onApplied?: (checkpointName: string, position: GlobalPosition) => void;
  /**
   * The store's appends write the inline projections (runtime/inline.ts): this projector
   * applies them only to events appended before that started.
   */
  inline?: boolean;
  /** How long a batch collects events when the log is busy (default DEFAULT_BATCH_WINDOW_MS; 0: never waits). */
  batchWindowMs?: number;
}

/** A batch's collecting time under load: a few ms of latency buys far fewer transactions. */
export const DEFAULT_BATCH_WINDOW_MS = 5;
