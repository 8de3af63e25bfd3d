import pg from 'pg';
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
}

const CHANNEL = 'events';
const SUBSCRIPTION_BATCH = 500;
/** How long a subscription waits before retrying a failed LISTEN connection. */
const LISTEN_RETRY_MS = 5_000;

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
  /** LISTEN clients of live subscriptions, ended by close() even if a consumer never resumes. */
  const listeners = new Set<pg.Client>();

  async function append(
    streamId: string,
    events: NewEvent[],
    { expectedRevision }: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`Stream ${streamId}: append needs at least one event`);
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      const result = await appendInTransaction(client, streamId, events, expectedRevision);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async function appendInTransaction(
    client: pg.PoolClient,
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const current = await lockStream(client, streamId);

    // Idempotency comes before the revision check so that a retried append succeeds.
    const ids = events.map((e) => e.id.toLowerCase());
    const stored = await client.query<StoredIdRow>(
      `select event_id::text as event_id, stream_id, revision, tx_id::text as tx_text, seq::text as seq_text
         from events where event_id = any($1::uuid[])`,
      [ids],
    );
    if (stored.rows.length > 0) return idempotentResult(streamId, ids, stored.rows);

    const ok = expected === 'any' || (expected === 'no_stream' ? current === -1 : current === expected);
    if (!ok) throw new WrongExpectedVersionError(streamId, expected, current === -1 ? 'no_stream' : current);

    const payload = JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })));
    // ORDER BY ord makes seq follow revision order within the append.
    const inserted = await client.query<{ seq_text: string; tx_text: string; revision: number }>(
      `insert into events (stream_id, revision, event_id, type, data, metadata)
       select $1, $2::int + t.ord::int, (t.e->>'id')::uuid, t.e->>'type', t.e->'data', t.e->'metadata'
         from jsonb_array_elements($3::jsonb) with ordinality as t(e, ord)
        order by t.ord
       returning seq::text as seq_text, tx_id::text as tx_text, revision`,
      [streamId, current, payload],
    );
    const rows = [...inserted.rows].sort((a, b) => a.revision - b.revision);
    const last = rows[rows.length - 1];
    if (!last) throw new Error(`Stream ${streamId}: insert returned no rows`);
    // The notification is delivered at commit, waking subscribers.
    await client.query(
      `with updated as (update streams set revision = $2 where stream_id = $1)
       select pg_notify('${CHANNEL}', '')`,
      [streamId, last.revision],
    );
    return {
      nextRevision: last.revision,
      position: rowPosition(last),
      positions: rows.map(rowPosition),
    };
  }

  /** Locks the stream's row (creating it with revision -1 if new) and returns its revision. */
  async function lockStream(client: pg.PoolClient, streamId: string): Promise<number> {
    const select = 'select revision from streams where stream_id = $1 for update';
    let locked = await client.query<{ revision: number }>(select, [streamId]);
    if (locked.rows.length === 0) {
      // A concurrent creator makes this insert wait for it; then the select sees its row.
      // The -1 row only survives if this transaction commits, i.e. after appending events.
      await client.query('insert into streams (stream_id, revision) values ($1, -1) on conflict do nothing', [streamId]);
      locked = await client.query<{ revision: number }>(select, [streamId]);
    }
    const row = locked.rows[0];
    if (!row) throw new Error(`Stream ${streamId}: could not lock the stream row`);
    return row.revision;
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
    if (!(limit > 0)) return [];
    const count = Math.floor(limit);
    // START (negative) has no lower bound; xid8 only compares with xid8, hence text → xid8.
    const result =
      from.commit < 0n
        ? await pool.query<EventRow>(`select ${COLUMNS} from events where ${VISIBLE} order by tx_id, seq limit $1`, [count])
        : await pool.query<EventRow>(
            `select ${COLUMNS} from events
              where ${VISIBLE} and (tx_id, seq) > ($2::text::xid8, $3::bigint)
              order by tx_id, seq limit $1`,
            [count, from.commit.toString(), from.prepare.toString()],
          );
    return result.rows.map(toRecorded);
  }

  async function* subscribeAll({ from, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    if (stop.aborted) return;
    const wakeup = new Wakeup(connectionString, listeners);
    let position = from;
    try {
      await wakeup.listen();
      while (!stop.aborted) {
        wakeup.arm();
        let batch: RecordedEvent[];
        try {
          batch = await readAll(position, SUBSCRIPTION_BATCH);
        } catch (error) {
          if (stop.aborted) return; // e.g. the pool was ended by close()
          throw error;
        }
        for (const event of batch) {
          yield event;
          position = event.position;
          if (stop.aborted) return;
        }
        if (batch.length < SUBSCRIPTION_BATCH) await wakeup.wait(pollIntervalMs, stop);
      }
    } finally {
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
    readStream,
    readAll,
    subscribeAll,
    headPosition,
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      closing.abort();
      await Promise.all([...listeners].map((client) => client.end().catch(() => {})));
      listeners.clear();
      if (ownsPool) await pool.end();
    },
  };
}

/**
 * Wakes one subscription on NOTIFY, with polling as the fallback: the visibility horizon
 * also moves when unrelated transactions finish, which sends no notification. A failed
 * LISTEN connection degrades to polling and is retried later.
 */
class Wakeup {
  private client: pg.Client | undefined;
  private lastAttempt = 0;
  private notified = false;
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly registry: Set<pg.Client>,
  ) {}

  async listen(): Promise<void> {
    if (this.client || this.closed || Date.now() - this.lastAttempt < LISTEN_RETRY_MS) return;
    this.lastAttempt = Date.now();
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', () => void this.drop(client));
    client.on('end', () => void this.drop(client));
    client.on('notification', () => {
      this.notified = true;
      this.wake?.();
    });
    this.registry.add(client);
    this.client = client;
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
    } catch {
      await this.drop(client);
    }
  }

  /** Call before each read: a notification arriving after this point cuts the next wait short. */
  arm(): void {
    this.notified = false;
  }

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    if (!this.client) await this.listen();
    if (this.notified || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.client) await this.drop(this.client);
  }

  private async drop(client: pg.Client): Promise<void> {
    this.registry.delete(client);
    if (this.client === client) this.client = undefined;
    await client.end().catch(() => {});
  }
}
