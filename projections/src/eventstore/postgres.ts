import type { Knex } from 'knex';
import pg from 'pg';
import type { PgListener } from '../db/listener.ts';
import { pause } from '../shared/pause.ts';
import { Wakeup } from './wakeup.ts';
import { applyInline, InlineProjectionError } from '../runtime/inline.ts';
import type { Projection } from '../runtime/projection.ts';
import {
  START,
  WrongExpectedVersionError,
  type AppendResult,
  type EventMetadata,
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
  inline?: { knex: Knex; schema: string; projections: readonly Projection[] };
}

const CHANNEL = 'events';
const SUBSCRIPTION_BATCH = 500;
/** First pause before looking again while committed events wait behind an older transaction. */
const HELD_BACK_MIN_MS = 2;
/**
 * Under load (a wake-up for every commit) a subscription reads at most this often, and this
 * process sends at most one NOTIFY this often: reads gather what committed meanwhile into
 * one page, and the projector behind it gets batches, not a read and a transaction per event.
 */
const MIN_READ_INTERVAL_MS = 4;
/** How often an inline append is tried when concurrent appends deadlock on their rows. */
const INLINE_ATTEMPTS = 3;

const VISIBLE = 'tx_id < pg_snapshot_xmin(pg_current_snapshot())';
// The text aliases must differ from the column names: ORDER BY tx_id would otherwise sort
// by the text output column ('1001' < '998').
const COLUMNS = `seq::text as seq_text, tx_id::text as tx_text, stream_id, revision, event_id::text as event_id,
  type, data, metadata, recorded_at`;

interface EventRow {
  seq_text: string;
  tx_text: string;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

interface StoredIdRow {
  event_id: string;
  stream_id: string;
  revision: number;
  tx_text: string;
  seq_text: string;
}

interface AppendedRow extends StoredIdRow {
  /** The ids were stored already: the rows are the stored ones (the adapter checks it is a replay). */
  replay: boolean;
  recorded_at: Date;
}

const APPEND_SQL = 'select event_id, stream_id, revision, tx_text, seq_text, replay, recorded_at from append_events($1, $2, $3::jsonb)';
const APPEND_SQL_KNEX = 'select event_id, stream_id, revision, tx_text, seq_text, replay, recorded_at from append_events(?, ?, ?::jsonb)';
/** SQLSTATE raised by append_events on a wrong expected revision (DETAIL: the actual revision, -1 for none). */
const WRONG_EXPECTED_VERSION = 'CR409';

function rowPosition(row: { tx_text: string; seq_text: string }): GlobalPosition {
  return { commit: BigInt(row.tx_text), prepare: BigInt(row.seq_text) };
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: row.revision,
    position: { commit: BigInt(row.tx_text), prepare: BigInt(row.seq_text) },
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
  };
}

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

  /**
   * After a commit: wakes the subscriptions of this process directly and the others with one
   * NOTIFY sent outside the append's transaction. Appends never notify inside their own
   * transaction (PostgreSQL commits notifying transactions one at a time); at most one
   * NOTIFY is in flight, and the appends that commit meanwhile share the next one.
   */
  function signalAppended(): void {
    for (const wake of localWakers) wake();
    if (notifying) {
      notifyAgain = true;
      return;
    }
    notifying = true;
    void (async () => {
      try {
        do {
          notifyAgain = false;
          const started = performance.now();
          await pool.query(`select pg_notify('${CHANNEL}', '')`);
          const since = performance.now() - started;
          if (notifyAgain && since < MIN_READ_INTERVAL_MS) await pause(MIN_READ_INTERVAL_MS - since, closing.signal);
        } while (notifyAgain && !closing.signal.aborted);
      } catch {
        // The others fall back to polling; this process's subscriptions were woken directly.
      } finally {
        notifying = false;
      }
    })();
  }

  /** Turns append_events' answer (or its wrong-revision error) into the port's result. */
  function appendOutcome(streamId: string, ids: string[], rows: AppendedRow[]): AppendResult {
    if (rows[0]?.replay) return idempotentResult(streamId, ids, rows);
    const last = rows[rows.length - 1];
    if (!last) throw new Error(`Stream ${streamId}: insert returned no rows`);
    return {
      nextRevision: last.revision,
      position: rowPosition(last),
      positions: rows.map(rowPosition),
      recordedAt: rows.map((row) => row.recorded_at),
    };
  }

  function appendError(streamId: string, expectedRevision: ExpectedRevision, error: unknown): unknown {
    const pgError = error as { code?: string; detail?: string };
    if (pgError.code === WRONG_EXPECTED_VERSION) {
      const actual = Number(pgError.detail);
      return new WrongExpectedVersionError(streamId, expectedRevision, actual === -1 || !Number.isFinite(actual) ? 'no_stream' : actual);
    }
    return error;
  }

  function appendValues(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision) {
    if (events.length === 0) throw new Error(`Stream ${streamId}: append needs at least one event`);
    const ids = events.map((e) => e.id.toLowerCase());
    const payload = JSON.stringify(events.map((e, i) => ({ id: ids[i], type: e.type, data: e.data, metadata: e.metadata })));
    const expected = expectedRevision === 'any' ? -2 : expectedRevision === 'no_stream' ? -1 : expectedRevision;
    return { ids, values: [streamId, expected, payload] };
  }

  const inline = options.inline && options.inline.projections.length > 0 ? options.inline : null;

  /**
   * The appends of one command and the inline read models' rows for their events, in one
   * transaction: the rows commit with the events or neither does. The events go to the projections as
   * PostgreSQL stored them (the JSON the append sent, positions and times it answered).
   */
  async function appendInline(appends: StreamAppend[], projecting: NonNullable<typeof inline>): Promise<AppendResult[]> {
    // A deadlock or serialization failure between concurrent appends' rows rolls the whole
    // append back; it is tried again (the same event ids, so it can only be recorded once).
    for (let attempt = 1; ; attempt++) {
      try {
        return await appendInlineOnce(appends, projecting);
      } catch (error) {
        const code = ((error instanceof InlineProjectionError ? error.cause : error) as { code?: unknown } | null)?.code;
        if (attempt >= INLINE_ATTEMPTS || (code !== '40P01' && code !== '40001')) throw error;
      }
    }
  }

  async function appendInlineOnce(appends: StreamAppend[], projecting: NonNullable<typeof inline>): Promise<AppendResult[]> {
    const prepared = appends.map((a) => ({ ...a, ...appendValues(a.streamId, a.events, a.expectedRevision) }));
    const results = await projecting.knex.transaction(async (trx) => {
      const answers: AppendResult[] = [];
      const recorded: RecordedEvent[] = [];
      for (const a of prepared) {
        let rows: AppendedRow[];
        try {
          rows = (await trx.raw<{ rows: AppendedRow[] }>(APPEND_SQL_KNEX, a.values)).rows;
        } catch (error) {
          throw appendError(a.streamId, a.expectedRevision, error);
        }
        const result = { ...appendOutcome(a.streamId, a.ids, rows), types: a.events.map((event) => event.type) };
        answers.push(result);
        // A replay was projected when it was first appended.
        if (!result.recordedAt) continue;
        const sent = JSON.parse(a.values[2] as string) as Array<{ type: string; data: unknown; metadata: EventMetadata }>;
        rows.forEach((row, i) =>
          recorded.push({
            id: row.event_id,
            streamId: row.stream_id,
            revision: row.revision,
            position: rowPosition(row),
            type: sent[i]!.type,
            data: sent[i]!.data,
            metadata: sent[i]!.metadata,
            recordedAt: row.recorded_at,
          }),
        );
      }
      await applyInline(trx, projecting.schema, projecting.projections, recorded);
      return answers;
    });
    if (results.some((r) => r.recordedAt)) signalAppended();
    return results;
  }

  async function append(
    streamId: string,
    events: NewEvent[],
    { expectedRevision }: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (inline) return (await appendInline([{ streamId, events, expectedRevision }], inline))[0]!;
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
  async function appendMany(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (inline) return await appendInline(appends, inline);
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

  function idempotentResult(streamId: string, ids: string[], rows: StoredIdRow[]): AppendResult {
    const byId = new Map(rows.map((r) => [r.event_id, r]));
    const first = byId.get(ids[0] ?? '');
    // Only an exact replay (same ids, same stream, same order) is a retry; anything else is a bug.
    const replay =
      first !== undefined &&
      rows.length === ids.length &&
      ids.every((id, i) => {
        const row = byId.get(id);
        return row !== undefined && row.stream_id === streamId && row.revision === first.revision + i;
      });
    if (!replay) {
      throw new Error(
        `Stream ${streamId}: ${rows.length} of ${ids.length} event ids are already stored (in ${[
          ...new Set(rows.map((r) => r.stream_id)),
        ].join(', ')}) but the append is not a replay of that earlier append`,
      );
    }
    const replayed = ids.map((id) => byId.get(id)!);
    const last = replayed[replayed.length - 1];
    if (!last) throw new Error('unreachable: replay without a last event');
    return {
      nextRevision: last.revision,
      position: rowPosition(last),
      positions: replayed.map(rowPosition),
    };
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
    return result.rows.map(toRecorded);
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
    // START (negative) has no lower bound; xid8 only compares with xid8, hence text → xid8.
    // One snapshot for both: the horizon and what waits above it. The left join answers one
    // row (all nulls but held_back) when nothing is visible.
    const after = from.commit < 0n ? '' : 'and (e.tx_id, e.seq) > ($2::text::xid8, $3::bigint)';
    const result = await pool.query<EventRow & { held_back: boolean; event_id: string | null }>(
      `with h as (select pg_snapshot_xmin(pg_current_snapshot()) as xmin)
       select p.*, exists (select 1 from events w where w.tx_id >= h.xmin) as held_back
         from h left join lateral (
           select ${COLUMNS} from events e
            where e.tx_id < h.xmin ${after}
            order by e.tx_id, e.seq limit $1
         ) p on true`,
      from.commit < 0n ? [count] : [count, from.commit.toString(), from.prepare.toString()],
    );
    const heldBack = result.rows[0]?.held_back ?? false;
    const events = result.rows.filter((row) => row.event_id !== null).map(toRecorded);
    return { events, heldBack };
  }

  async function* subscribeAll({ from, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    if (stop.aborted) return;
    const wakeup = new Wakeup(connectionString, CHANNEL, listeners);
    const local = () => wakeup.notify();
    localWakers.add(local);
    let position = from;
    /** Pause before looking again while events are held back: short, growing up to the poll interval. */
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
          heldBackPause =
            page.events.length > 0 ? HELD_BACK_MIN_MS : Math.min(Math.max(heldBackPause * 2, HELD_BACK_MIN_MS), pollIntervalMs);
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
      await Promise.all([...listeners].map((listener) => listener.close()));
      listeners.clear();
      if (ownsPool) await pool.end();
    },
  };
}
