import type { Knex } from 'knex';
import pg from 'pg';
import { parseStoredEvent, type StoredDomainEvent } from '../events.ts';
import { comparePositions, positionToString, START, type EventStore, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { createProjectionContext, takenBy, type Projection } from './projection.ts';
import { ensureCheckpoint, lockCheckpointForBatch, MAIN_CHECKPOINT, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { ensureInlineSince, projectsEvent } from './inline.ts';
import { describeError, recordParkedEvent } from './parked.ts';
import { pause } from '../shared/pause.ts';

export interface ProjectorLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const silentLogger: ProjectorLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A handler's way of saying "this failed for a reason outside the event; try again later"
 * (a write conflict that outlived its retries, a service not answering): the batch backs
 * off and is retried, the event is never parked for it.
 */
export class TransientError extends Error {
  override readonly name = 'TransientError';
}

/**
 * Failures that say nothing about the event: the connection, the server's state, locks,
 * a missing table or permission. SQLSTATE classes 08 connection, 25 transaction state,
 * 28 authorization, 3D/3F catalog/schema, 40 rollback (serialization, deadlock), 42 syntax
 * or access (a schema that is not there yet), 53 resources, 55 object state (locks),
 * 57 operator intervention, 58 system, XX internal. Data errors (22, 23) and anything a
 * handler throws on its own (a schema that does not parse) are the event's.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof TransientError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (/^(08|25|28|3D|3F|40|42|53|55|57|58|XX)[0-9A-Z]{3}$/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(code)) return true;
  }
  if (error instanceof Error) {
    if (error.name === 'KnexTimeoutError') return true;
    if (
      /connection terminated|connection (?:is )?closed|client has encountered a connection error|cannot use a pool after/i.test(
        error.message,
      )
    )
      return true;
  }
  return false;
}

export interface ApplyOptions {
  schema: string;
  checkpointName: string;
  projections: Projection[];
  /** Events to pass over (a rebuild skips what the live projector parked). */
  skip?: (event: RecordedEvent) => boolean;
  /**
   * Set when appends write the inline projections themselves: those then take only events
   * at or before this position (appended before inline projection started; null: none).
   * Undefined (a rebuild, EventStoreDB): every projection takes every event.
   */
  inlineUpTo?: GlobalPosition | null;
}

/**
 * Applies events to a set of read models inside one PostgreSQL transaction per batch,
 * together with the checkpoint, so each event takes effect exactly once even after a crash.
 * A handler that throws rolls the whole batch back: nothing of it is applied.
 */
export async function applyBatch(knex: Knex, options: ApplyOptions, events: RecordedEvent[]): Promise<GlobalPosition | null> {
  return await knex.transaction(async (trx) => {
    // Taking the checkpoint row first serialises us with any other writer of this set
    // (a rebuild's swap, a second projector that lost its lock).
    const checkpoint = (await lockCheckpointForBatch(trx, options.checkpointName)) ?? START;
    const ctx = createProjectionContext(trx, options.schema);
    // Each projection gets the batch's events it takes, in global order: set-based when it
    // can (applyBatch), event by event otherwise. Projections keep to their own tables, so
    // one after the other is the same as event by event across all of them.
    const perProjection = options.projections.map(() => [] as StoredDomainEvent[]);
    let last: GlobalPosition | null = null;
    for (const event of events) {
      if (comparePositions(event.position, checkpoint) <= 0) continue;
      last = event.position;
      if (options.skip?.(event)) continue;
      let parsed: StoredDomainEvent | null | undefined;
      options.projections.forEach((projection, i) => {
        if (!takenBy(projection, event) || !projectsEvent(projection, event, options.inlineUpTo)) return;
        if (parsed === undefined) parsed = parseStoredEvent(event);
        if (parsed && (!projection.takes || projection.takes(parsed))) perProjection[i]!.push(parsed);
      });
    }
    for (const [i, projection] of options.projections.entries()) {
      const taken = perProjection[i]!;
      if (taken.length === 0) continue;
      if (projection.applyBatch && taken.length > 1) await projection.applyBatch(taken, ctx);
      else for (const event of taken) await projection.apply(event, ctx);
    }
    if (last) await writeCheckpoint(trx, options.checkpointName, last);
    return last;
  });
}

/** Stores a poison event and moves the checkpoint past it, in one transaction. */
export async function parkEvent(knex: Knex, checkpointName: string, event: RecordedEvent, error: unknown): Promise<boolean> {
  return await knex.transaction(async (trx) => {
    const checkpoint = (await readCheckpoint(trx, checkpointName, true)) ?? START;
    // Applied (or parked) by another writer in the meantime: nothing to park.
    if (comparePositions(event.position, checkpoint) <= 0) return false;
    await recordParkedEvent(trx, checkpointName, event, error);
    await writeCheckpoint(trx, checkpointName, event.position);
    return true;
  });
}

export interface RetryPolicy {
  /** Pause after the first failure; doubles with each further one. */
  initialDelayMs: number;
  /** The longest pause. */
  maxDelayMs: number;
}

/** How long a reactor's checkpoint may move in memory only (batches it has nothing to do for). */
const DEFERRED_CHECKPOINT_MS = 1000;

/** How often a standby tries the leader lock (the most a takeover waits for it). */
export const DEFAULT_STANDBY_RETRY_MS = 1000;
/** Server-side keepalives of the lock connection: a vanished holder is noticed after idle + count × 1 s. */
const LOCK_KEEPALIVE_IDLE_S = 2;
const LOCK_KEEPALIVE_COUNT = 2;
/** The leader's check of its own lock connection. */
const HEARTBEAT_INTERVAL_MS = 1000;
// Generous: a busy database answering slowly must not make the leader step down; a dead
// connection is noticed by its socket at once, a cut one (no answer at all) within this.
const HEARTBEAT_TIMEOUT_MS = 10_000;

export const DEFAULT_RETRY: RetryPolicy = { initialDelayMs: 100, maxDelayMs: 5000 };
/** The longest pause after a transient failure (see Projector.delay). */
const TRANSIENT_MAX_DELAY_MS = 500;
/** How long the lock connection may take to open before the attempt counts as a (transient) failure. */
const CONNECT_TIMEOUT_MS = 5_000;

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
/** The log counts as busy when the previous batch ended less than this long ago. */
const BUSY_WITHIN_MS = 50;

/**
 * Catch-up subscription from the stored checkpoint. Only one projector per read-model set
 * (or reactor) is active: a PostgreSQL advisory lock elects it, the others wait on standby.
 *
 * It never stops on its own. A failed batch rolls back and is retried with capped
 * exponential backoff, forever, each failure logged. When the failure does not look
 * transient and the database (and event store) answer, the batch's events are applied one
 * by one, each in its own transaction: one that fails alone is a poison event and is parked
 * (parked_events, with its error) while the checkpoint moves past it, so the events after
 * it still reach the read models. A lost subscription or leader lock is re-established
 * the same way.
 */
export class Projector {
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private lockClient: pg.Client | null = null;
  private lockLost: ((error: Error) => void) | null = null;
  private heartbeat: NodeJS.Timeout | undefined;
  private lastApplied: GlobalPosition = START;
  /** See ApplyOptions.inlineUpTo; read when following starts. */
  private inlineUpTo: GlobalPosition | null | undefined = undefined;
  private leader = false;
  /** Consecutive failures: sets the next pause, cleared by a batch that goes through. */
  private failures = 0;
  /** Since when a reactor's checkpoint has moved in memory only (null: it is stored). */
  private pendingSince: number | null = null;
  eventsApplied = 0;
  eventsParked = 0;
  batchFailures = 0;

  constructor(private readonly options: ProjectorOptions) {}

  get checkpointName(): string {
    return this.options.checkpointName ?? MAIN_CHECKPOINT;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  get position(): GlobalPosition {
    return this.lastApplied;
  }

  start(): void {
    this.running ??= this.run().catch((error: unknown) => {
      this.log.error({ err: error, checkpoint: this.checkpointName }, `${this.kind} stopped unexpectedly`);
    });
  }

  private get log(): ProjectorLogger {
    return this.options.logger ?? silentLogger;
  }

  private get kind(): string {
    return this.options.kind ?? 'projector';
  }

  private get stopping(): boolean {
    return this.abort.signal.aborted;
  }

  /**
   * The pause before the next attempt after `failures` consecutive failures. A transient one
   * (the database down or restarting, a lock) waits at most TRANSIENT_MAX_DELAY_MS however
   * long it lasted: the projector is back within a second of the database, not after the
   * backoff has grown to its maximum.
   */
  private delay(failures: number, transient = false): number {
    const { initialDelayMs, maxDelayMs } = { ...DEFAULT_RETRY, ...this.options.retry };
    const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
    return transient ? Math.min(backoff, TRANSIENT_MAX_DELAY_MS) : backoff;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.acquireLeadership();
        if (this.stopping) break;
        await this.follow();
        if (this.stopping) break;
        throw new TransientError('the subscription ended');
      } catch (error) {
        if (this.stopping) break;
        this.failures++;
        const retryInMs = this.delay(this.failures, isTransientFailure(error));
        this.log.error(
          { err: error, checkpoint: this.checkpointName, failures: this.failures, retryInMs },
          `${this.kind} failed; starting over from its checkpoint after a pause`,
        );
        await this.releaseLeadership();
        await pause(retryInMs, this.abort.signal);
      }
    }
    await this.releaseLeadership();
  }

  /** Follows the log from the checkpoint until stopped; throws when the subscription or the lock is lost. */
  private async follow(): Promise<void> {
    const session = new AbortController();
    const stop = () => session.abort();
    this.abort.signal.addEventListener('abort', stop, { once: true });
    let lost: Error | null = null;
    this.lockLost = (error) => {
      // The first cause is the one to report: a connection's 'error' is followed by its 'end'.
      lost ??= error;
      session.abort();
    };
    const { knex, store } = this.options;
    try {
      await ensureCheckpoint(knex, this.checkpointName);
      if (this.options.inline) this.inlineUpTo = await ensureInlineSince(knex);
      this.lastApplied = (await readCheckpoint(knex, this.checkpointName)) ?? START;
      this.log.info({ checkpoint: positionToString(this.lastApplied) }, `${this.kind} started`);
      const batchSize = this.options.batchSize ?? 500;
      const buffer: RecordedEvent[] = [];
      const waiting: { wake: (() => void) | null } = { wake: null };
      let subscriptionDone = false;
      let lastBatchEnded = Number.NEGATIVE_INFINITY;
      // The subscription's failure is kept, not left in a rejected promise: the loop below may
      // be busy with a batch for seconds (retrying through an outage) before it awaits the
      // subscription, and a rejection nobody handles by then ends the whole process.
      const failure: { of: { error: unknown } | null } = { of: null };
      const subscription = (async () => {
        try {
          for await (const event of store.subscribeAll({ from: this.lastApplied, signal: session.signal })) {
            buffer.push(event);
            waiting.wake?.();
            // Back-pressure: let the writer drain before reading further ahead.
            while (buffer.length >= batchSize * 4 && !session.signal.aborted) await pause(5);
          }
        } catch (error) {
          failure.of = { error };
        } finally {
          subscriptionDone = true;
          waiting.wake?.();
        }
      })();
      // One listener for the whole session: stopping wakes an idle wait.
      session.signal.addEventListener('abort', () => waiting.wake?.(), { once: true });
      while (!session.signal.aborted) {
        if (buffer.length === 0) {
          if (subscriptionDone) break;
          let timer: NodeJS.Timeout | undefined;
          await new Promise<void>((resolve) => {
            waiting.wake = resolve;
            // A checkpoint that moved in memory only is stored when things go quiet.
            if (this.pendingSince !== null) timer = setTimeout(resolve, DEFERRED_CHECKPOINT_MS);
          });
          clearTimeout(timer);
          waiting.wake = null;
          if (buffer.length === 0 && this.pendingSince !== null && !session.signal.aborted) {
            await this.flushCheckpoint().catch((error: unknown) => {
              this.log.warn({ err: error, checkpoint: this.checkpointName }, `${this.kind} could not store its checkpoint; it will again`);
            });
          }
          continue;
        }
        // Under load (the previous batch ended moments ago), collect for a few ms more so
        // one batch carries many commits' events; when quiet, a lone event goes at once.
        const window = this.options.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS;
        if (window > 0 && buffer.length < batchSize && !subscriptionDone && performance.now() - lastBatchEnded < BUSY_WITHIN_MS) {
          await pause(window, session.signal);
          if (session.signal.aborted) break;
        }
        await this.applyWithRetry(buffer.splice(0, batchSize), session.signal);
        lastBatchEnded = performance.now();
      }
      session.abort();
      await subscription;
      if (failure.of && !this.stopping) throw failure.of.error;
      if (lost && !this.stopping) throw lost;
    } finally {
      session.abort();
      this.abort.signal.removeEventListener('abort', stop);
      this.lockLost = null;
    }
  }

  private async apply(events: RecordedEvent[]): Promise<void> {
    const { knex, schema, projections } = this.options;
    if (this.kind === 'reactor' && events.length > 0 && !this.takesAny(events)) {
      // Nothing for the reactor to do: its checkpoint moves in memory, and to the database
      // with its next batch that has work, or within a second. After a crash it reads these
      // events again, and does nothing again. (Waiters on a reactor wait for events it takes.)
      this.lastApplied = events[events.length - 1]!.position;
      this.pendingSince ??= Date.now();
      this.eventsApplied += events.length;
      this.options.onApplied?.(this.checkpointName, this.lastApplied);
      if (Date.now() - this.pendingSince >= DEFERRED_CHECKPOINT_MS) await this.flushCheckpoint();
      return;
    }
    const last = await applyBatch(knex, { schema, checkpointName: this.checkpointName, projections, inlineUpTo: this.inlineUpTo }, events);
    this.pendingSince = null;
    if (last) {
      this.lastApplied = last;
      this.options.onApplied?.(this.checkpointName, last);
    }
    this.eventsApplied += events.length;
  }

  /** Whether a projection takes any of the events (types, then `takes`). */
  private takesAny(events: RecordedEvent[]): boolean {
    return events.some((event) =>
      this.options.projections.some((projection) => {
        if (!takenBy(projection, event)) return false;
        if (!projection.takes) return true;
        const parsed = parseStoredEvent(event);
        // One that does not parse goes the usual way (and is parked there).
        return !parsed || projection.takes(parsed);
      }),
    );
  }

  /** Writes a checkpoint that only moved in memory (see apply). */
  private async flushCheckpoint(): Promise<void> {
    if (this.pendingSince === null) return;
    const position = this.lastApplied;
    await this.options.knex.transaction(async (trx) => {
      const stored = (await lockCheckpointForBatch(trx, this.checkpointName)) ?? START;
      if (comparePositions(position, stored) > 0) await writeCheckpoint(trx, this.checkpointName, position);
    });
    if (comparePositions(position, this.lastApplied) === 0) this.pendingSince = null;
  }

  /** Applies a batch, retrying until it goes through (applied, or its poison events parked) or we stop. */
  private async applyWithRetry(batch: RecordedEvent[], signal: AbortSignal): Promise<void> {
    for (;;) {
      try {
        await this.apply(batch);
        this.failures = 0;
        return;
      } catch (error) {
        if (signal.aborted) return;
        this.batchFailures++;
        this.failures++;
        const transient = isTransientFailure(error) || !(await this.dependenciesAnswer());
        this.log.error(
          {
            err: error,
            checkpoint: this.checkpointName,
            from: positionToString(batch[0]!.position),
            to: positionToString(batch[batch.length - 1]!.position),
            events: batch.length,
            transient,
          },
          `${this.kind} batch failed and was rolled back`,
        );
        if (!transient && (await this.isolate(batch, signal))) {
          this.failures = 0;
          return;
        }
        if (signal.aborted) return;
        const retryInMs = this.delay(this.failures, transient);
        this.log.warn(
          { checkpoint: this.checkpointName, failures: this.failures, retryInMs },
          `${this.kind} retries the batch after a pause`,
        );
        await pause(retryInMs, signal);
        if (signal.aborted) return;
      }
    }
  }

  /**
   * Applies the events one by one, each in its own transaction; one that fails alone
   * while the database answers is parked. False when a transient failure got in the way
   * (the caller backs off and retries; what went through stays, behind the checkpoint).
   */
  private async isolate(batch: RecordedEvent[], signal: AbortSignal): Promise<boolean> {
    for (const event of batch) {
      if (signal.aborted) return false;
      try {
        await this.apply([event]);
      } catch (error) {
        if (signal.aborted || isTransientFailure(error) || !(await this.dependenciesAnswer())) return false;
        try {
          if (await parkEvent(this.options.knex, this.checkpointName, event, error)) {
            this.eventsParked++;
            this.lastApplied = event.position;
            this.options.onApplied?.(this.checkpointName, event.position);
            this.log.error(
              {
                err: error,
                checkpoint: this.checkpointName,
                position: positionToString(event.position),
                eventId: event.id,
                streamId: event.streamId,
                type: event.type,
                reason: describeError(error),
              },
              `${this.kind} parked an event it cannot handle and skipped it (see parked_events)`,
            );
          }
        } catch {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether the database and the event store answer: a failure then belongs to the event. */
  private async dependenciesAnswer(): Promise<boolean> {
    try {
      await this.options.knex.raw('SELECT 1');
      await this.options.store.ping();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Takes the advisory lock of this read-model set on a connection of its own. The lock
   * lives as long as that connection: when the holder dies (kill -9 included) its socket
   * closes and PostgreSQL drops the lock at once; when its host vanishes without closing
   * the socket, the server-side keepalives set here end the session within a few seconds.
   * Standbys try again every `standbyRetryMs` (1 s), so one takes over well within 5 s.
   */
  private async acquireLeadership(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: LOCK_KEEPALIVE_IDLE_S * 1000,
      // A server that takes the socket but never answers (one still starting) must not hold the election forever.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: `crm-${this.kind}`,
    });
    client.on('error', (error) => {
      this.log.error({ err: error }, `${this.kind} lock connection failed`);
      this.leadershipLost(client, error);
    });
    client.on('end', () => this.leadershipLost(client, new TransientError('the leader-lock connection ended')));
    this.lockClient = client;
    await client.connect();
    // Settable by any role; a pooler that refuses them only costs the fast detection.
    await client
      .query(
        `SET tcp_keepalives_idle = ${LOCK_KEEPALIVE_IDLE_S}; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = ${LOCK_KEEPALIVE_COUNT}`,
      )
      .catch(() => undefined);
    const key = `projector:${this.options.schema}:${this.checkpointName}`;
    let announced = false;
    while (!this.stopping) {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
      if (rows[0]?.locked) {
        this.leader = true;
        this.log.info({ checkpoint: this.checkpointName }, `${this.kind} is the active one (holds the lock)`);
        this.startHeartbeat(client);
        return;
      }
      if (!announced) this.log.info({}, `another ${this.kind} is active; waiting on standby`);
      announced = true;
      await pause(this.options.standbyRetryMs ?? DEFAULT_STANDBY_RETRY_MS, this.abort.signal);
    }
  }

  /**
   * The leader asks its lock connection a trivial question every second: a connection that
   * no longer answers (a network cut the socket does not report) means the lock may be gone,
   * so it stops following before a standby's batches meet its own. (The checkpoint row lock
   * in applyBatch keeps even an overlap from applying an event twice.)
   */
  private startHeartbeat(client: pg.Client): void {
    const beat = async () => {
      if (client !== this.lockClient || this.stopping) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new TransientError(`the leader-lock connection did not answer within ${HEARTBEAT_TIMEOUT_MS} ms`)),
          HEARTBEAT_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([client.query('SELECT 1'), timeout]);
        if (client === this.lockClient && !this.stopping) this.heartbeat = setTimeout(() => void beat(), HEARTBEAT_INTERVAL_MS);
      } catch (error) {
        if (client !== this.lockClient || this.stopping) return;
        this.log.error({ err: error }, `${this.kind} lost its lock connection; stepping down`);
        this.leadershipLost(client, error instanceof Error ? error : new Error(String(error)));
        // A connection that hangs is ended too, so the server lets the lock go.
        void client.end().catch(() => undefined);
      } finally {
        clearTimeout(timer);
      }
    };
    this.heartbeat = setTimeout(() => void beat(), HEARTBEAT_INTERVAL_MS);
  }

  /** The lock goes with its connection: stop following, so we never write as a non-leader for long. */
  private leadershipLost(client: pg.Client, error: Error): void {
    if (client !== this.lockClient) return;
    this.leader = false;
    this.lockLost?.(error);
  }

  private async releaseLeadership(): Promise<void> {
    clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
    const client = this.lockClient;
    this.lockClient = null;
    this.leader = false;
    await client?.end().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
    await this.releaseLeadership();
  }
}
