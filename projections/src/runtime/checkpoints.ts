import type { Knex } from 'knex';
import { PgListener } from '../db/listener.ts';
import { comparePositions, positionToString, START, type GlobalPosition } from '../eventstore/port.ts';

export const CHECKPOINT_CHANNEL = 'projection_checkpoints';

/**
 * Notified (by triggers, at commit) when a session ends or a user, a user's permissions or an
 * instance changes: what a process may have cached about a session is no longer true.
 */
export const AUTH_CHANNEL = 'crm_auth';
export const MAIN_CHECKPOINT = 'main';

export async function readCheckpoint(db: Knex | Knex.Transaction, name: string, forUpdate = false): Promise<GlobalPosition | null> {
  let query = db('projection_checkpoints').where({ name }).first('position_commit', 'position_prepare');
  if (forUpdate) query = query.forUpdate();
  return positionOfRow((await query) as CheckpointRow | undefined);
}

interface CheckpointRow {
  position_commit: string;
  position_prepare: string;
}

/** A checkpoint row's position; null when there is no row. */
function positionOfRow(row: CheckpointRow | undefined): GlobalPosition | null {
  return row ? { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) } : null;
}

/** A batch's commit does not wait for its WAL flush (this transaction only; see lockCheckpointForBatch). */
const BATCH_COMMIT_SETTING = 'SET LOCAL synchronous_commit TO off';

/**
 * The first statement of a projector batch: takes the checkpoint row (serialising writers of
 * one read-model set) and lets the batch commit without waiting for its WAL flush
 * (synchronous_commit off, this transaction only). That is safe for a read model: the rows
 * and the checkpoint commit together, so a crash can only lose whole batches from the end,
 * which the projector applies again from the checkpoint; the events themselves are durable.
 * One round trip: two statements in one simple query (a checkpoint name is a literal there,
 * so only names of word characters, ':', '.' and '-' take this path).
 */
export async function lockCheckpointForBatch(trx: Knex.Transaction, name: string): Promise<GlobalPosition | null> {
  if (!/^[\w:.-]+$/.test(name)) {
    await trx.raw(BATCH_COMMIT_SETTING);
    return await readCheckpoint(trx, name, true);
  }
  const result = (await trx.raw(
    `${BATCH_COMMIT_SETTING};\nSELECT position_commit, position_prepare FROM projection_checkpoints WHERE name = '${name}' FOR UPDATE`,
  )) as Array<{ rows: CheckpointRow[] }>;
  // Several statements answer an array of results, one each; the last is the SELECT's. (A
  // pipelined transaction answers with that last result alone.)
  const results = Array.isArray(result) ? result : [result];
  return positionOfRow(results[results.length - 1]?.rows[0]);
}

/**
 * lockCheckpointForBatch's statements for a pipelined batch that sends them with its first
 * statement (or its writes and COMMIT) instead of alone, and applies its events without
 * hearing the checkpoint: the lock fails the transaction (SQLSTATE CHECKPOINT_PASSED) when the
 * stored checkpoint is at or past `first`, the batch's first event (another writer applied
 * some of it), so nothing of the batch commits then.
 */
export function deferCheckpointLock(
  defer: (statement: { sql: string; values: readonly unknown[] }) => void,
  name: string,
  first: GlobalPosition,
): void {
  defer({ sql: BATCH_COMMIT_SETTING, values: [] });
  defer({
    sql: 'SELECT public.lock_checkpoint_before($1, $2, $3)',
    values: [name, first.commit.toString(), first.prepare.toString()],
  });
}

/** SQLSTATE raised by lock_checkpoint_before when the checkpoint has passed a batch's first event (db/migrations/0013). */
const CHECKPOINT_PASSED = 'CR410';

/** Whether a pipelined batch failed on deferCheckpointLock's check (the statement's error, or a failed COMMIT's that carries its code). */
export function isCheckpointPassed(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === CHECKPOINT_PASSED;
}

export async function ensureCheckpoint(db: Knex | Knex.Transaction, name: string): Promise<void> {
  await db('projection_checkpoints')
    .insert({ name, position_commit: START.commit.toString(), position_prepare: START.prepare.toString() })
    .onConflict('name')
    .ignore();
}

export async function writeCheckpoint(trx: Knex.Transaction, name: string, position: GlobalPosition): Promise<void> {
  const { sql, bindings } = checkpointWrite(name, position);
  await trx.raw(sql, bindings);
}

/**
 * The statement that moves a checkpoint: the update and the notification in one, which is
 * delivered at commit, so a waiter never sees a checkpoint whose rows are not visible yet.
 * One per batch.
 */
export function checkpointWrite(name: string, position: GlobalPosition): { sql: string; bindings: string[] } {
  return {
    sql: `WITH updated AS (
       UPDATE projection_checkpoints SET position_commit = ?, position_prepare = ?, updated_at = now() WHERE name = ?
     )
     SELECT pg_notify(?, ?)`,
    bindings: [position.commit.toString(), position.prepare.toString(), name, CHECKPOINT_CHANNEL, `${name}:${positionToString(position)}`],
  };
}

/** A checkpoint notification's payload, `name:commit/prepare`: which checkpoint moved, and to where; null when it is not one. */
export function checkpointNotice(payload: string): { name: string; position: GlobalPosition } | null {
  // Names may hold ':' ('reactor:…'); the position is after the last one.
  const at = payload.lastIndexOf(':');
  if (at < 0) return null;
  const [commit, prepare] = payload.slice(at + 1).split('/');
  if (commit === undefined || prepare === undefined) return null;
  return { name: payload.slice(0, at), position: { commit: BigInt(commit), prepare: BigInt(prepare) } };
}

/**
 * Read-your-writes: resolves once a checkpoint has passed a position. Works whether the
 * projector (or reactor) runs in this process or another (LISTEN, with polling behind it).
 * Watches the named checkpoint by default; `waitFor` takes another name (a reactor's).
 */
export class CheckpointWatcher {
  private latest = new Map<string, GlobalPosition>();
  private waiters = new Set<{ name: string; target: GlobalPosition; resolve: (reached: boolean) => void }>();
  private poller: NodeJS.Timeout | null = null;
  private advanceListeners = new Set<(name: string, position: GlobalPosition) => void>();
  private authListeners = new Set<() => void>();
  private started = false;
  /**
   * The LISTEN connection. Another process's projector reaches this process's waiters only
   * through it, so a dropped one is opened again (the poller keeps waiters moving meanwhile).
   */
  private readonly listener: PgListener;

  constructor(
    private readonly knex: Knex,
    private readonly connectionString: string,
    private readonly name = MAIN_CHECKPOINT,
    private readonly pollIntervalMs = 250,
  ) {
    this.listener = new PgListener({
      connectionString: this.connectionString,
      channels: [CHECKPOINT_CHANNEL, AUTH_CHANNEL],
      retryMs: 1000,
      onNotification: (message) => {
        if (message.channel === AUTH_CHANNEL) {
          this.authChanged();
          return;
        }
        const notice = checkpointNotice(message.payload ?? '');
        if (notice) this.advance(notice.name, notice.position);
      },
      // Changes to sessions and users go unheard from now on: nothing cached may be trusted.
      onDown: () => this.authChanged(),
      onUp: () => {
        // What changed while nobody listened (before the first start, or during a reconnect).
        this.authChanged();
        if (this.started) void this.refreshWaited().catch(() => undefined);
      },
    });
  }

  async start(): Promise<void> {
    await this.listener.start();
    this.started = true;
    // Read after listening: a batch committed in between is seen either way.
    await this.refresh();
    this.poller = setInterval(() => {
      for (const name of new Set([...this.waiters].map((w) => w.name))) void this.refresh(name).catch(() => undefined);
    }, this.pollIntervalMs);
  }

  /** After a reconnect: what was committed while nobody listened. */
  private async refreshWaited(): Promise<void> {
    for (const name of new Set([this.name, ...[...this.waiters].map((w) => w.name)])) await this.refresh(name);
  }

  /** Whether notifications are arriving (a LISTEN connection is up). */
  get listening(): boolean {
    return this.listener.listening;
  }

  current(name = this.name): GlobalPosition {
    return this.latest.get(name) ?? START;
  }

  async refresh(name = this.name): Promise<GlobalPosition> {
    const position = await readCheckpoint(this.knex, name);
    if (position) this.advance(name, position);
    return this.current(name);
  }

  /** True when reached within the timeout, false when it ran out. */
  waitFor(target: GlobalPosition, timeoutMs = 2000, name = this.name): Promise<boolean> {
    if (comparePositions(this.current(name), target) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        name,
        target,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
      this.waiters.add(waiter);
      // While the LISTEN connection is up, the notification of the batch that passes the
      // target wakes the waiter (it is sent at that batch's commit, which comes after this
      // append's): no query per wait. Without it, or for a checkpoint not heard of since
      // the start, read the checkpoint now; the poller goes on.
      if (!this.listener.listening || !this.latest.has(name)) void this.refresh(name).catch(() => undefined);
    });
  }

  /** A checkpoint this process has just committed (its own projector): waiters need not wait for the notification. */
  advance(name: string, position: GlobalPosition): void {
    if (comparePositions(position, this.current(name)) <= 0) return;
    this.latest.set(name, position);
    for (const waiter of [...this.waiters]) {
      if (waiter.name === name && comparePositions(position, waiter.target) >= 0) waiter.resolve(true);
    }
    for (const listener of this.advanceListeners) listener(name, position);
  }

  /** Told every checkpoint that moves forward (the live-update streams follow the read models this way); returns the unsubscribe. */
  onAdvance(listener: (name: string, position: GlobalPosition) => void): () => void {
    this.advanceListeners.add(listener);
    return () => this.advanceListeners.delete(listener);
  }

  /**
   * Told when sessions or the users and instances they name may have changed, in any process
   * (AUTH_CHANNEL), and whenever the LISTEN connection drops or comes back. Returns the unsubscribe.
   */
  onAuthChanged(listener: () => void): () => void {
    this.authListeners.add(listener);
    return () => this.authListeners.delete(listener);
  }

  private authChanged(): void {
    for (const listener of this.authListeners) listener();
  }

  async stop(): Promise<void> {
    this.authChanged();
    if (this.poller) clearInterval(this.poller);
    for (const waiter of [...this.waiters]) waiter.resolve(false);
    await this.listener.close();
  }
}
