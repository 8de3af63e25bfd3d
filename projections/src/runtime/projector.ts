import { parseStoredEvent } from '../events.ts';
import { comparePositions, positionToString, START, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { takenBy } from './projection.ts';
import { ensureCheckpoint, lockCheckpointForBatch, MAIN_CHECKPOINT, readCheckpoint, writeCheckpoint } from './checkpoints.ts';
import { ensureInlineSince } from './inline.ts';
import { describeError } from './parked.ts';
import { pause } from '../shared/pause.ts';
import { applyBatch, parkEvent, PIPELINED_BATCH_MAX } from './apply-batch.ts';
import { DEFAULT_STANDBY_RETRY_MS, LeaderLock } from './leader-lock.ts';
import { isTransientFailure, TransientError } from './transient.ts';
import { DEFAULT_BATCH_WINDOW_MS, retryDelay, silentLogger, type ProjectorLogger, type ProjectorOptions } from './projector-options.ts';
import { SubscriptionBuffer } from './subscription-buffer.ts';

// What callers of the projector have always taken from here.
export { applyBatch, parkEvent, type ApplyOptions } from './apply-batch.ts';
export { DEFAULT_STANDBY_RETRY_MS } from './leader-lock.ts';
export { fileBatchTrace, type BatchTrace, type BatchTraceEntry } from './batch-trace.ts';
export { isTransientFailure, TransientError } from './transient.ts';
export {
  DEFAULT_BATCH_WINDOW_MS,
  DEFAULT_RETRY,
  type ProjectorLogger,
  type ProjectorOptions,
  type RetryPolicy,
} from './projector-options.ts';

/** How long a reactor's checkpoint may move in memory only (batches it has nothing to do for). */
const DEFERRED_CHECKPOINT_MS = 1000;
/**
 * How long a reactor's batch transaction works before it commits and the next one goes on
 * (at least one event each). Every transaction that has written holds back the events
 * committed after it from the log's global readers until it ends: reactor batches of
 * hundreds of events (each a few round trips) held the projector back for 10-20 s while
 * the reactors caught up with a bulk of new jobs.
 */
const REACTOR_TRANSACTION_MS = 10;
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
  private lockLost: ((error: Error) => void) | null = null;
  private readonly lock: LeaderLock;
  private lastApplied: GlobalPosition = START;
  /** Whether lastApplied is this process's own: set once it leads and has read its checkpoint. */
  private following = false;
  /** See ApplyOptions.inlineUpTo; read when following starts. */
  private inlineUpTo: GlobalPosition | null | undefined = undefined;
  /** Consecutive failures: sets the next pause, cleared by a batch that goes through. */
  private failures = 0;
  /** Since when a reactor's checkpoint has moved in memory only (null: it is stored). */
  private pendingSince: number | null = null;
  /** When the oldest event of the batch being applied reached the buffer (performance.now(); for the trace). */
  private arrivedAt = 0;
  eventsApplied = 0;
  eventsParked = 0;
  batchFailures = 0;

  constructor(private readonly options: ProjectorOptions) {
    this.lock = new LeaderLock({
      connectionString: options.connectionString,
      key: `projector:${options.schema}:${this.checkpointName}`,
      kind: this.kind,
      log: this.log,
      standbyRetryMs: options.standbyRetryMs ?? DEFAULT_STANDBY_RETRY_MS,
      signal: this.abort.signal,
      onLost: (error) => this.lockLost?.(error),
    });
  }

  get checkpointName(): string {
    return this.options.checkpointName ?? MAIN_CHECKPOINT;
  }

  get isLeader(): boolean {
    return this.lock.isHeld;
  }

  /**
   * The position this process has applied up to; null when it does not know one: on standby
   * (the active process moves the read models on) and while it has not yet read its checkpoint.
   */
  get position(): GlobalPosition | null {
    return this.following ? this.lastApplied : null;
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
        const retryInMs = retryDelay(this.options.retry, this.failures, isTransientFailure(error));
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
      this.following = true;
      this.log.info({ checkpoint: positionToString(this.lastApplied) }, `${this.kind} started`);
      const batchSize = this.options.batchSize ?? 500;
      const buffer = new SubscriptionBuffer(store, this.lastApplied, session.signal, batchSize * 4);
      let lastBatchEnded = Number.NEGATIVE_INFINITY;
      while (!session.signal.aborted) {
        if (buffer.size === 0) {
          if (buffer.done) break;
          // A checkpoint that moved in memory only is stored when things go quiet.
          await buffer.wait(this.pendingSince !== null ? DEFERRED_CHECKPOINT_MS : undefined);
          if (buffer.size === 0 && this.pendingSince !== null && !session.signal.aborted) {
            await this.flushCheckpoint().catch((error: unknown) => {
              this.log.warn({ err: error, checkpoint: this.checkpointName }, `${this.kind} could not store its checkpoint; it will again`);
            });
          }
          continue;
        }
        // Under load (the previous batch ended moments ago), collect for a few ms more so
        // one batch carries many commits' events; when quiet, a lone event goes at once.
        const window = this.options.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS;
        if (window > 0 && buffer.size < batchSize && !buffer.done && performance.now() - lastBatchEnded < BUSY_WITHIN_MS) {
          await pause(window, session.signal);
          if (session.signal.aborted) break;
        }
        this.arrivedAt = buffer.oldestArrivedAt;
        await this.applyWithRetry(buffer.take(batchSize), session.signal);
        lastBatchEnded = performance.now();
      }
      session.abort();
      const failure = await buffer.finish();
      if (failure && !this.stopping) throw failure.error;
      if (lost && !this.stopping) throw lost;
    } finally {
      this.following = false;
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
    // A reactor's events each cost round trips of their own (it reads, it sends commands):
    // its transactions are cut short (REACTOR_TRANSACTION_MS) so none holds back the log's
    // global readers, the projector among them, for long. The projector's own batches are
    // set-based and short.
    const budgetMs = this.kind === 'reactor' ? REACTOR_TRANSACTION_MS : undefined;
    const options = { schema, checkpointName: this.checkpointName, projections, inlineUpTo: this.inlineUpTo, budgetMs };
    let rest = events;
    while (rest.length > 0) {
      // A batch taken behind the log (the thread fell behind under load, or catches up) goes
      // as transactions of at most PIPELINED_BATCH_MAX events: each is pipelined (a few
      // messages) where a larger one would send its statements one by one, and each moves
      // the checkpoint with its own rows, so a crash between them leaves whole transactions.
      const transaction = rest.length > PIPELINED_BATCH_MAX ? rest.slice(0, PIPELINED_BATCH_MAX) : rest;
      const startedAt = this.options.trace?.now();
      const last = await applyBatch(knex, options, transaction);
      if (startedAt !== undefined) this.traceTransaction(transaction, startedAt);
      this.pendingSince = null;
      const before = rest.length;
      // Null: the stored checkpoint had passed them all (another writer applied them).
      rest = last ? rest.filter((event) => comparePositions(event.position, last) > 0) : rest.slice(transaction.length);
      this.eventsApplied += before - rest.length;
      if (last) {
        this.lastApplied = last;
        this.options.onApplied?.(this.checkpointName, last);
      }
    }
  }

  private traceTransaction(transaction: RecordedEvent[], startedAt: number): void {
    const trace = this.options.trace!;
    const arrivedAt = performance.timeOrigin + this.arrivedAt;
    trace.record({
      checkpoint: this.checkpointName,
      events: transaction.length,
      firstTx: transaction[0]!.position.commit.toString(),
      lastTx: transaction[transaction.length - 1]!.position.commit.toString(),
      arrivedAt,
      startedAt,
      at: trace.now(),
      gcMs: trace.gcSince(arrivedAt),
    });
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
        const retryInMs = retryDelay(this.options.retry, this.failures, transient);
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

  /** Waits until this one holds its read-model set's lock (the others stand by), or is stopped. */
  private async acquireLeadership(): Promise<void> {
    await this.lock.acquire();
    if (this.lock.isHeld) this.log.info({ checkpoint: this.checkpointName }, `${this.kind} is the active one (holds the lock)`);
  }

  private async releaseLeadership(): Promise<void> {
    await this.lock.release();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
    await this.releaseLeadership();
  }
}
