import { comparePositions, type GlobalPosition } from '@crm/projections/eventstore/port';
import { CHECKPOINT_CHANNEL, checkpointNotice, MAIN_CHECKPOINT } from '@crm/projections/runtime/checkpoints';
import { PgListener } from '@crm/projections/db/listener';
import type pg from 'pg';

/**
 * Projection lag as a reader sees it: for every event appended in a time window, the time
 * from its append (its recorded_at, taken by the appending process before it sends the
 * append) or its commit until the main projector's checkpoint passed it (the checkpoint's
 * NOTIFY, sent at the batch's commit, received here). The clocks are this machine's when
 * PostgreSQL runs here.
 */
export class CheckpointLog {
  private readonly passes: Array<{ position: GlobalPosition; at: number }> = [];

  private listener: PgListener | null = null;

  static async start(url: string): Promise<CheckpointLog> {
    const log = new CheckpointLog();
    log.listener = new PgListener({
      connectionString: url,
      channels: [CHECKPOINT_CHANNEL],
      retryMs: 1000,
      onNotification: (message) => log.heard(message),
    });
    await log.listener.start();
    return log;
  }

  private constructor() {}

  private heard(message: pg.Notification): void {
    const at = performance.timeOrigin + performance.now();
    const notice = checkpointNotice(message.payload ?? '');
    if (notice?.name === MAIN_CHECKPOINT) this.passes.push({ position: notice.position, at });
  }

  /**
   * The lag of each event appended in [from, to), from its append and, when the server keeps
   * commit times (track_commit_timestamp, which the benchmark's database has on), from its
   * commit; events not yet passed are counted apart. From the append includes the command's
   * own wait for a connection and its transaction; from the commit is the read models' lag
   * alone: until the commit no reader can see the event, and right after it one can.
   */
  async lagsOfEventsBetween(
    pool: pg.Pool,
    from: Date,
    to: Date,
    /** Filled, when given, with each passed event's log transaction and its epoch ms of append, commit and pass. */
    detail?: Array<{ tx: string; appended: number; committed: number | null; passed: number }>,
  ): Promise<{ lagsMs: number[]; sinceCommitMs: number[] | null; unprojected: number }> {
    const commitTimes =
      (await pool.query<{ track_commit_timestamp: string }>('SHOW track_commit_timestamp')).rows[0]?.track_commit_timestamp === 'on';
    const { rows } = await pool.query<{ tx: string; seq: string; ms: string; committed: string | null }>(
      `SELECT tx_id::text AS tx, seq::text AS seq, (extract(epoch FROM recorded_at) * 1000)::text AS ms,
              ${commitTimes ? '(extract(epoch FROM pg_xact_commit_timestamp(tx_id::xid)) * 1000)::text' : 'NULL'} AS committed
         FROM events WHERE recorded_at >= $1 AND recorded_at < $2 ORDER BY tx_id, seq`,
      [from, to],
    );
    const lagsMs: number[] = [];
    const sinceCommitMs: number[] = [];
    let unprojected = 0;
    let p = 0;
    for (const row of rows) {
      const position = { commit: BigInt(row.tx), prepare: BigInt(row.seq) };
      while (p < this.passes.length && comparePositions(this.passes[p]!.position, position) < 0) p++;
      const pass = this.passes[p];
      if (!pass) {
        unprojected++;
        continue;
      }
      lagsMs.push(Math.max(0, pass.at - Number(row.ms)));
      detail?.push({
        tx: row.tx,
        appended: Number(row.ms),
        committed: row.committed === null ? null : Number(row.committed),
        passed: pass.at,
      });
      if (row.committed !== null) sinceCommitMs.push(Math.max(0, pass.at - Number(row.committed)));
    }
    return { lagsMs, sinceCommitMs: commitTimes ? sinceCommitMs : null, unprojected };
  }

  async stop(): Promise<void> {
    await this.listener?.close();
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
