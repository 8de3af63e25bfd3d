import pg from 'pg';
import type { PgListener } from '../db/listener.ts';
import { pause } from '../shared/pause.ts';
import { sharedThreadSignal, ThreadSignal } from './thread-signal.ts';
import { Wakeup } from './wakeup.ts';
import { EVENT_COLUMNS, recordedEvent, type EventRow } from './event-rows.ts';

export { recordedEvent, type EventRow } from './event-rows.ts';
import {
  APPEND_SQL,
  appendError,
  appendInline,
  appendOutcome,
  appendValues,
  type AppendedRow,
  type InlineProjecting,
} from './postgres-append.ts';
import {
  START,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeOptions,
} from './port.ts';

/**
 * PostgreSQL adapter (schema: db/migrations/0001_event_store.ts).
 *
 * Global position = (tx_id, seq). Sequence values are taken before commit, so transactions
 * commit out of seq order and a reader that follows seq alone skips late commits. Global
 * reads therefore only return rows of transactions older than the oldest transaction still
 * in flight (`tx_id < pg_snapshot_xmin(pg_current_snapshot())`): those are all finished and
 * no new row can ever appear below that horizon, so a checkpoint (tx_id, seq) is safe.
 * The cost: one long-running transaction anywhere in the cluster holds back global readers.
 */

export interface PostgresEventStoreOptions {
  connectionString: string;
  /** Fallback wake-up interval of subscriptions when no NOTIFY arrives (default 500 ms). */
  pollIntervalMs?: number;
  /** Use this pool for queries instead of creating one; it is not ended by close(). */
  pool?: pg.Pool;
  /**
   * Read models every append writes in its own transaction (projections declaring
   * `inline: true`, runtime/inline.ts), through this knex (its pool carries the appends).
   * A projection that fails fails the append: nothing is recorded.
   */
  inline?: InlineProjecting;
}

const CHANNEL = 'events';
const SUBSCRIPTION_BATCH = 500;
/** First pause before looking again while committed events wait behind an older transaction. */
const HELD_BACK_MIN_MS = 2;
/**
 * Longest pause while events are held back, whatever the poll interval: the end of the
 * transaction holding them back (anywhere in the cluster) sends no notification and no append
 * need follow it, so only this pause ends the wait. Capped by the poll interval alone, a store
 * with a long one (10 minutes in the wake-up tests) slept for tens of seconds after a
 * transaction of a few seconds ended on a busy machine.
 */
const HELD_BACK_MAX_MS = 250;

/** The pause before looking again after a read that found events held back: short, doubling while nothing comes, at most HELD_BACK_MAX_MS. */
export function heldBackPauseAfter(previousMs: number, readEvents: boolean, pollIntervalMs: number): number {
  if (readEvents) return HELD_BACK_MIN_MS;
  return Math.min(Math.max(previousMs * 2, HELD_BACK_MIN_MS), HELD_BACK_MAX_MS, pollIntervalMs);
}
/**
 * Under load (a wake-up for every commit) this process sends at most one NOTIFY this often:
 * the appends that commit meanwhile share it.
 */
const MIN_NOTIFY_INTERVAL_MS = 8;
/**
 * Under load a subscription reads at most this often: a read gathers what committed meanwhile
 * into one page, and the projector behind it gets batches, not a read and a transaction per
 * event. Each read is a round trip whose write wakes a PostgreSQL backend. The projector
 * applies a page as one batch; at 8 ms here it waited for a second read to fill each batch
 * (two reads per transaction at 300 commits/s), at 16 ms one read fills one batch, for the
 * same lag (the read's wait replaces the batch's collecting window).
 */
const MIN_READ_INTERVAL_MS = 16;

const VISIBLE = 'tx_id < pg_snapshot_xmin(pg_current_snapshot())';
const COLUMNS = EVENT_COLUMNS;

/**
 * A page of the global log (see readPage): one snapshot for both the horizon and what waits
 * above it; the left join answers one row (all nulls but held_back) when nothing is visible.
 * START (negative) has no lower bound; xid8 only compares with xid8, hence text → xid8.
 */
const readPageSql = (after: string) =>
  `with h as (select pg_snapshot_xmin(pg_current_snapshot()) as xmin)
   select p.*, exists (select 1 from events w where w.tx_id >= h.xmin) as held_back
     from h left join lateral (
       select ${COLUMNS} from events e
        where e.tx_id < h.xmin ${after}
        order by e.tx_id, e.seq limit $1
     ) p on true`;
const READ_PAGE_FROM_START_SQL = readPageSql('');
const READ_PAGE_AFTER_SQL = readPageSql('and (e.tx_id, e.seq) > ($2::text::xid8, $3::bigint)');

export function createPostgresEventStore(options: PostgresEventStoreOptions): EventStore {
  const { connectionString } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString });
  if (ownsPool) {
    // An idle client dying (server restart) is emitted on the pool; without a listener
    // Node would crash. The pool drops the client and the next query reconnects.
    pool.on('error', () => {});
  }
  /** Aborted by close(): stops subscriptions. */
  const closing = new AbortController();
  /** LISTEN connections of live subscriptions, closed by close() even if a consumer never resumes. */
  const listeners = new Set<PgListener>();

  /** Wakes this store's own subscriptions at once (no round trip through the server). */
  const localWakers = new Set<() => void>();
  let notifying = false;
  let notifyAgain = false;
  /** When this store last sent its NOTIFY (performance.now()); the next waits until MIN_NOTIFY_INTERVAL_MS after it. */
  let lastNotifyAt = Number.NEGATIVE_INFINITY;
  /**
   * The other stores of this process on the same database (the projector's worker thread
   * beside the API's, when it was handed this thread's signal): an append bumps a counter
   * they wait on, not a NOTIFY's trip through the server and back, nor a message per append.
   * The signal's id names the appends of all of them in their NOTIFY payload, so a store
   * skips the NOTIFYs the counter has woken it for already.
   */
  const threads = new ThreadSignal(sharedThreadSignal(connectionString), () => {
    for (const wake of localWakers) wake();
  });
  const sender = threads.id;

  /**
   * After a commit: wakes the subscriptions of this thread directly, those of the process's
   * other threads by the shared counter, and other processes with one NOTIFY sent outside the
   * append's transaction. Appends never notify inside their own transaction (PostgreSQL
   * commits notifying transactions one at a time). At most one NOTIFY is in flight and at
   * most one goes out per MIN_NOTIFY_INTERVAL_MS, counted from the last one's start: the
   * appends that commit meanwhile share the next one. (Counting only while one was in
   * flight let a lone appender, whose appends come after the NOTIFY's answer, send one per
   * append or two: a round trip and a pool connection each, a fifth of its appends/s.) The
   * counter moves before the NOTIFY goes, so a subscription sharing the counter may skip the
   * NOTIFY: the counter woke it already. Neither carries a position: what a read may take
   * is decided by the visibility horizon.
   */
  function signalAppended(): void {
    for (const wake of localWakers) wake();
    threads.appended();
    if (notifying) {
      notifyAgain = true;
      return;
    }
    notifying = true;
    void (async () => {
      try {
        do {
          // A timer may fire early by as much as the event loop's clock lags: look again.
          for (let wait = lastNotifyAt + MIN_NOTIFY_INTERVAL_MS - performance.now(); wait > 0 && !closing.signal.aborted;) {
            await pause(wait, closing.signal);
            wait = lastNotifyAt + MIN_NOTIFY_INTERVAL_MS - performance.now();
          }
          // Every append committed before this line is covered by the NOTIFY sent next.
          notifyAgain = false;
          lastNotifyAt = performance.now();
          await pool.query(`select pg_notify('${CHANNEL}', $1)`, [sender]);
        } while (notifyAgain && !closing.signal.aborted);
      } catch {
        // The others fall back to polling; this process's subscriptions were woken directly.
      } finally {
        notifying = false;
      }
    })();
  }

  const inline = options.inline && options.inline.projections.length > 0 ? options.inline : null;

  async function appendInlineSignalled(
    appends: StreamAppend[],
    projecting: InlineProjecting,
    options: AppendOptions,
  ): Promise<AppendResult[]> {
    const results = await appendInline(appends, projecting, options);
    if (results.some((r) => r.recordedAt)) signalAppended();
    return results;
  }

  async function append(
    streamId: string,
    events: NewEvent[],
    { expectedRevision, ...options }: { expectedRevision: ExpectedRevision } & AppendOptions,
  ): Promise<AppendResult> {
    if (inline) return (await appendInlineSignalled([{ streamId, events, expectedRevision }], inline, options))[0]!;
    if (options.requires?.length) throw new Error('Required rows are checked only where appends project inline');
    const { ids, values } = appendValues(streamId, events, expectedRevision);
    let rows: AppendedRow[];
    try {
      // One statement: lock, idempotency, revision check, insert and stream update (0004_append_function).
      rows = (await pool.query<AppendedRow>({ name: 'append_events_2', text: APPEND_SQL, values })).rows;
    } catch (error) {
      throw appendError(streamId, expectedRevision, error);
    }
    const result = appendOutcome(streamId, ids, rows);
    if (result.recordedAt) signalAppended();
    return result;
  }

  /**
   * One transaction over append_events per stream: a command that writes several streams
   * (a job with its new customer) is recorded whole or not at all, also when the process
   * dies in between. Rows of one transaction share tx_id, so global readers see them
   * together. Callers name the streams in one fixed order per command, so two such commands
   * lock shared streams in the same order; a deadlock PostgreSQL detects anyway aborts one.
   */
  async function appendMany(appends: StreamAppend[], options: AppendOptions = {}): Promise<AppendResult[]> {
    if (inline) return await appendInlineSignalled(appends, inline, options);
    if (options.requires?.length) throw new Error('Required rows are checked only where appends project inline');
    if (appends.length === 1) {
      const [only] = appends;
      return [await append(only!.streamId, only!.events, { expectedRevision: only!.expectedRevision })];
    }
    const prepared = appends.map((a) => ({ ...a, ...appendValues(a.streamId, a.events, a.expectedRevision) }));
    const client = await pool.connect();
    let broken: Error | undefined;
    // A checked-out client has no pool listener: a connection lost between two statements
    // would be an unhandled 'error' event (a crash). The next statement fails instead.
    const lost = (error: Error) => {
      broken = error;
    };
    client.on('error', lost);
    try {
      await client.query('begin');
      const results: AppendResult[] = [];
      for (const a of prepared) {
        let rows: AppendedRow[];
        try {
          rows = (await client.query<AppendedRow>({ name: 'append_events_2', text: APPEND_SQL, values: a.values })).rows;
        } catch (error) {
          throw appendError(a.streamId, a.expectedRevision, error);
        }
        results.push(appendOutcome(a.streamId, a.ids, rows));
      }
      await client.query('commit');
      if (results.some((r) => r.recordedAt)) signalAppended();
      return results;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.off('error', lost);
      // A connection that was lost, or whose rollback failed, is destroyed, not reused.
      client.release(broken);
    }
  }

  async function readStream(streamId: string, readOptions: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { upTo } = readOptions;
    const result =
      upTo === undefined
        ? await pool.query<EventRow>(`select ${COLUMNS} from events where stream_id = $1 order by revision`, [streamId])
        : // Compared at the millisecond an event reports as its recordedAt (the column keeps microseconds).
          await pool.query<EventRow>(
            `select ${COLUMNS} from events where stream_id = $1 and date_trunc('milliseconds', recorded_at) <= $2 order by revision`,
            [streamId, upTo],
          );
    return result.rows.map(recordedEvent);
  }

  async function readAll(from: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
    return (await readPage(from, limit)).events;
  }

  /**
   * Events after `from` below the visibility horizon, and whether committed events wait
   * above it (held back by an older transaction still running, anywhere in the cluster:
   * its end sends no notification, so the caller looks again soon).
   */
  async function readPage(from: GlobalPosition, limit: number): Promise<{ events: RecordedEvent[]; heldBack: boolean }> {
    if (!(limit > 0)) return { events: [], heldBack: false };
    const count = Math.floor(limit);
    // Named: a subscription reads every few ms under load, and a prepared statement sends
    // only its parameters, not the text to be parsed and planned again by the server.
    const result = await pool.query<EventRow & { held_back: boolean; event_id: string | null }>(
      from.commit < 0n
        ? { name: 'read_page_from_start', text: READ_PAGE_FROM_START_SQL, values: [count] }
        : { name: 'read_page_after', text: READ_PAGE_AFTER_SQL, values: [count, from.commit.toString(), from.prepare.toString()] },
    );
    const heldBack = result.rows[0]?.held_back ?? false;
    const events = result.rows.filter((row) => row.event_id !== null).map(recordedEvent);
    return { events, heldBack };
  }

  async function* subscribeAll({ from, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    if (stop.aborted) return;
    const wakeup = new Wakeup(connectionString, CHANNEL, listeners, threads, (payload) => payload === sender);
    const local = () => wakeup.notify();
    localWakers.add(local);
    let position = from;
    /** Pause before looking again while events are held back (heldBackPauseAfter). */
    let heldBackPause = 0;
    try {
      await wakeup.listen();
      let lastRead = 0;
      while (!stop.aborted) {
        const since = performance.now() - lastRead;
        if (since < MIN_READ_INTERVAL_MS) await pause(MIN_READ_INTERVAL_MS - since, stop);
        if (stop.aborted) return;
        lastRead = performance.now();
        wakeup.arm();
        let page: { events: RecordedEvent[]; heldBack: boolean };
        try {
          page = await readPage(position, SUBSCRIPTION_BATCH);
        } catch (error) {
          if (stop.aborted) return; // e.g. the pool was ended by close()
          throw error;
        }
        for (const event of page.events) {
          yield event;
          position = event.position;
          if (stop.aborted) return;
        }
        if (page.events.length >= SUBSCRIPTION_BATCH) continue;
        if (page.heldBack) {
          heldBackPause = heldBackPauseAfter(heldBackPause, page.events.length > 0, pollIntervalMs);
          await wakeup.wait(heldBackPause, stop);
        } else {
          heldBackPause = 0;
          await wakeup.wait(pollIntervalMs, stop);
        }
      }
    } finally {
      localWakers.delete(local);
      await wakeup.close();
    }
  }

  async function headPosition(): Promise<GlobalPosition> {
    const result = await pool.query<{ tx_text: string; seq_text: string }>(
      `select tx_id::text as tx_text, seq::text as seq_text from events where ${VISIBLE}
        order by tx_id desc, seq desc limit 1`,
    );
    const row = result.rows[0];
    return row ? { commit: BigInt(row.tx_text), prepare: BigInt(row.seq_text) } : START;
  }

  return {
    kind: 'postgres',
    append,
    appendMany,
    atomicMultiStream: true,
    projectsInline: inline !== null,
    readStream,
    readAll,
    subscribeAll,
    headPosition,
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      closing.abort();
      threads.close();
      await Promise.all([...listeners].map((listener) => listener.close()));
      listeners.clear();
      if (ownsPool) await pool.end();
    },
  };
}
