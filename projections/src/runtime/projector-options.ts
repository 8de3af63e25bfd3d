import type { Knex } from 'knex';
import type { EventStore, GlobalPosition } from '../eventstore/port.ts';
import type { BatchTrace } from './batch-trace.ts';
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

/** The longest pause after a transient failure (see retryDelay). */
const TRANSIENT_MAX_DELAY_MS = 500;

/**
 * The pause before the next attempt after `failures` consecutive failures. A transient one
 * (the database down or restarting, a lock) waits at most TRANSIENT_MAX_DELAY_MS however
 * long it lasted: the projector is back within a second of the database, not after the
 * backoff has grown to its maximum.
 */
export function retryDelay(retry: Partial<RetryPolicy> | undefined, failures: number, transient = false): number {
  const { initialDelayMs, maxDelayMs } = { ...DEFAULT_RETRY, ...retry };
  const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
  return transient ? Math.min(backoff, TRANSIENT_MAX_DELAY_MS) : backoff;
}

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
  /** Records what each of its transactions took (off unless given). */
  trace?: BatchTrace;
}

/**
 * A batch's collecting time under load. Under load the log is read at most every 16 ms
 * (MIN_READ_INTERVAL_MS in eventstore/postgres.ts), so each read's page is a batch: the
 * window only lets the page's events reach the buffer (they arrive one by one) before the
 * batch is taken. A window that spanned the next read (10 ms when reads came every 8 ms)
 * cost a read per batch more, and the same lag.
 */
export const DEFAULT_BATCH_WINDOW_MS = 1;
