import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import Knex from 'knex';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { down, up } from '../src/db/migrations/0001_event_store.ts';
import {
  START,
  comparePositions,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
} from '../src/eventstore/port.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrateEventStore as migrateEventStoreTables } from '../src/db/migrate.ts';
import { createPostgresEventStore, heldBackPauseAfter } from '../src/eventstore/postgres.ts';
import { threadSignalBuffers } from '../src/eventstore/thread-signal.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/database.ts';
import { visibleEvents } from '../src/testing/events.ts';
import { eventStoreContract } from './eventstore-contract.ts';

/**
 * The event store's tables and functions in the database at `url`: every event-store migration,
 * the list production runs, so the contract holds for the append_events a database has today.
 */
async function migrateEventStore(url: string): Promise<void> {
  const knex = Knex({ client: 'pg', connection: url });
  try {
    await migrateEventStoreTables(knex);
  } finally {
    await knex.destroy();
  }
}

async function migratedDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await migrateEventStore(db.url);
  return db;
}

eventStoreContract('postgres', async () => {
  const db = await migratedDatabase();
  const store = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 100 });
  return {
    store,
    async cleanup() {
      await store.close();
      await db.drop();
    },
  };
});

/**
 * A pool of the test's own. Its end() resolves before the server has let its sessions go; a
 * session drop() then has to terminate errors on the ended pool, which emits 'error': heard
 * here (drop() names such sessions), not an uncaught exception in whatever test runs next.
 */
function testPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {});
  return pool;
}

/** A pool whose NOTIFYs never leave it (`pool` to end, `silent` for the store): only another wake-up path can reach a follower. */
function poolWithoutNotify(url: string): { pool: pg.Pool; silent: pg.Pool } {
  const pool = testPool({ connectionString: url });
  const silent = Object.assign(Object.create(pool) as pg.Pool, {
    query: (config: string | pg.QueryConfig, values?: unknown[]) =>
      (typeof config === 'string' ? config : config.text).includes('pg_notify')
        ? Promise.resolve({ rows: [] })
        : pool.query(config, values),
  });
  return { pool, silent };
}

function metadata(): EventMetadata {
  return {
    instanceId: randomUUID(),
    actor: { kind: 'system', id: 'test', displayName: 'Test' },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
  };
}

/** Runs a subscription in the background, collecting what it delivers. */
function collect(store: EventStore, from = START) {
  const controller = new AbortController();
  const seen: RecordedEvent[] = [];
  const done = (async () => {
    for await (const e of store.subscribeAll({ from, signal: controller.signal })) seen.push(e);
  })();
  return {
    seen,
    async stop() {
      controller.abort();
      await done;
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

describe('postgres event store', () => {
  test('an empty store: head is START, readAll is empty; the migration goes down and up', async () => {
    const db = await migratedDatabase();
    const store = createPostgresEventStore({ connectionString: db.url });
    try {
      expect(await store.headPosition()).toEqual(START);
      expect(await store.readAll(START, 100)).toEqual([]);
      const knex = Knex({ client: 'pg', connection: db.url });
      try {
        await down(knex);
        expect((await knex.raw(`select to_regclass('public.events') as t`)).rows[0].t).toBeNull();
        await up(knex);
      } finally {
        await knex.destroy();
      }
      await store.append('s-1', [{ id: randomUUID(), type: 'T', data: {}, metadata: metadata() }], {
        expectedRevision: 'no_stream',
      });
      expect(await visibleEvents(store, () => true, 1)).toHaveLength(1);
    } finally {
      await store.close();
      await db.drop();
    }
  });

  test("an append of event ids stored under another stream is refused, and leaves neither events nor the stream's revision behind", async () => {
    const db = await migratedDatabase();
    const store = createPostgresEventStore({ connectionString: db.url });
    try {
      const stored = { id: randomUUID(), type: 'T', data: {}, metadata: metadata() };
      await store.append('first', [stored], { expectedRevision: 'no_stream' });
      for (const expectedRevision of ['no_stream', 'any'] as const) {
        await expect(store.append('second', [{ ...stored }, { ...stored, id: randomUUID() }], { expectedRevision })).rejects.toThrow();
        expect(await store.readStream('second')).toEqual([]);
      }
      // The stream's row went with the refused append: a first append still finds it new.
      const fresh = await store.append('second', [{ ...stored, id: randomUUID() }], { expectedRevision: 'no_stream' });
      expect(fresh.nextRevision).toBe(0);
      // So is an append on the revision the stream is at, which leaves the revision where it was.
      await expect(store.append('second', [{ ...stored }], { expectedRevision: 0 })).rejects.toThrow();
      expect(await store.readStream('second')).toHaveLength(1);
      expect((await store.append('second', [{ ...stored, id: randomUUID() }], { expectedRevision: 0 })).nextRevision).toBe(1);
      expect((await store.readStream('first')).map((e) => e.id)).toEqual([stored.id]);
    } finally {
      await store.close();
      await db.drop();
    }
  });

  test('global order is numeric where xids and seqs gain a digit', async () => {
    // Its own new cluster: xids are cluster-wide, and on the suite's shared cluster the next
    // power of ten can be millions of xids away after the other files have run. A cluster
    // made now starts below a thousand, so reaching the boundary costs a few hundred xids.
    const parent = mkdtempSync(path.join(tmpdir(), 'crm-xid-digits-'));
    const cluster = await startEmbeddedPostgres({ dataDir: path.join(parent, 'pg'), persistent: false });
    const url = cluster.adminUrl;
    await migrateEventStore(url);
    const store = createPostgresEventStore({ connectionString: url });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const event = () => ({ id: randomUUID(), type: 'T', data: {}, metadata: metadata() });
      // One append whose events take seq 8..13: ordered by seq within its transaction.
      await admin.query(`select setval('events_seq_seq', 7)`);
      const batch = Array.from({ length: 6 }, event);
      const first = await store.append('digits-seq', batch, { expectedRevision: 'no_stream' });
      expect(first.position.prepare).toBe(13n);

      // Then single-event appends across a power of ten in xids: burn up to just below the
      // boundary, and retry should a round miss it.
      const singles: AppendResult[] = [];
      let power = 0n;
      for (let attempt = 0; ; attempt++) {
        const next = BigInt((await admin.query(`select pg_snapshot_xmax(pg_current_snapshot())::text as x`)).rows[0].x);
        power = 10n;
        // Stop a few xids short and append ten: the store's own bookkeeping taking an xid or
        // two in between still leaves the boundary inside this round.
        while (power - 5n <= next) power *= 10n;
        await admin.query(`do $$ begin for i in 1..${power - 5n - next} loop perform pg_current_xact_id(); commit; end loop; end $$`);
        const round: AppendResult[] = [];
        for (let i = 0; i < 10; i++) round.push(await store.append(`digits-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' }));
        singles.push(...round);
        if (round[0]!.position.commit < power && round[9]!.position.commit >= power) break;
        if (attempt === 3) throw new Error('could not place appends across an xid digit boundary');
      }

      const expected = [...batch.map((e) => e.id), ...singles.map(() => expect.any(String))];
      const all = await visibleEvents(store, () => true, expected.length);
      expect(all.map((e) => e.id)).toEqual(expected);
      expect(all.slice(6).map((e) => e.position)).toEqual(singles.map((r) => r.position));
      expect(all.slice(0, 6).map((e) => e.position.prepare)).toEqual([8n, 9n, 10n, 11n, 12n, 13n]);
      const crossing = singles.findIndex((r) => r.position.commit >= power);
      const checkpoint = singles[crossing - 1]!.position;
      expect((await store.readAll(checkpoint, 100)).map((e) => e.position)).toEqual(singles.slice(crossing).map((r) => r.position));
      expect((await store.readAll(all[2]!.position, 3)).map((e) => e.position.prepare)).toEqual([11n, 12n, 13n]);
      expect(await store.headPosition()).toEqual(singles[singles.length - 1]!.position);
    } finally {
      await admin.end();
      await store.close();
      await cluster.stop();
      rmSync(parent, { recursive: true, force: true });
    }
  }, 180_000);

  test('global readers hold back later commits while an older transaction is in flight', async () => {
    const db = await migratedDatabase();
    const store = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 20 });
    const raw = new pg.Client({ connectionString: db.url });
    await raw.connect();
    const subscriber = collect(store);
    try {
      // T1 takes its xid and a seq first, but commits last.
      const lateId = randomUUID();
      await raw.query('begin');
      const late = await raw.query<{ seq: string }>(
        `insert into events (stream_id, revision, event_id, type, data, metadata)
         values ('late', 0, $1, 'T', '{}', $2) returning seq::text as seq`,
        [lateId, JSON.stringify(metadata())],
      );
      const earlyId = randomUUID();
      const early = await store.append('early', [{ id: earlyId, type: 'T', data: {}, metadata: metadata() }], {
        expectedRevision: 'no_stream',
      });
      expect(BigInt(late.rows[0]?.seq ?? '0')).toBeLessThan(early.position.prepare);

      // Another session sees only the higher seq: a reader following seq alone would move
      // past the late row now and never see it.
      const observer = new pg.Client({ connectionString: db.url });
      await observer.connect();
      const committed = await observer.query<{ seq: string }>('select seq::text as seq from events');
      await observer.end();
      expect(committed.rows.map((r) => BigInt(r.seq))).toEqual([early.position.prepare]);

      // The xmin rule hides the committed event while the older transaction runs.
      expect(await store.readAll(START, 100)).toEqual([]);
      expect(await store.headPosition()).toEqual(START);
      await sleep(100);
      expect(subscriber.seen).toEqual([]);

      await raw.query('commit');
      await until(() => subscriber.seen.length === 2, 'the subscriber sees both events');
      const all = await store.readAll(START, 100);
      expect(all.map((e) => e.id)).toEqual([lateId, earlyId]);
      expect(subscriber.seen.map((e) => e.id)).toEqual([lateId, earlyId]);
      expect(await store.headPosition()).toEqual(early.position);
    } finally {
      await subscriber.stop();
      await raw.end();
      await store.close();
      await db.drop();
    }
  });

  test('many concurrent appenders with out-of-order commits: the subscriber sees every event exactly once', async () => {
    const APPENDERS = 20;
    const APPENDS_EACH = 25;
    const TOTAL = APPENDERS * APPENDS_EACH;
    const db = await migratedDatabase();
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    // Test-only hook: a deferred trigger sleeps at COMMIT time for events that ask for it,
    // inside the adapter's own transaction, after its seq and xid were taken. Transactions
    // holding lower seq values thereby commit after ones holding higher values.
    await admin.query(`
      create function test_commit_delay() returns trigger language plpgsql as $$
      begin
        perform pg_sleep((new.data->>'commitDelayMs')::int / 1000.0);
        return null;
      end $$;
      create constraint trigger test_commit_delay after insert on events
        deferrable initially deferred for each row
        when (new.data ? 'commitDelayMs') execute function test_commit_delay();
    `);
    // One connection per appender, so their transactions really overlap.
    const pool = testPool({ connectionString: db.url, max: APPENDERS + 5 });
    const store = createPostgresEventStore({ connectionString: db.url, pool, pollIntervalMs: 50 });
    const subscriber = collect(store);

    // A naive reader that follows seq alone, to show the late commits really happened.
    let appending = true;
    const naiveSeen = new Set<string>();
    const naive = (async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      let last = '0';
      const poll = async () => {
        const { rows } = await client.query<{ seq: string; event_id: string }>(
          'select seq::text as seq, event_id::text as event_id from events where seq > $1 order by seq',
          [last],
        );
        for (const row of rows) {
          naiveSeen.add(row.event_id);
          last = row.seq;
        }
      };
      while (appending) {
        await poll();
        await sleep(1);
      }
      await poll();
      await client.end();
    })();

    const appended: string[] = [];
    const streams = Array.from({ length: APPENDERS }, (_, i) => `concurrency-${i}-${randomUUID()}`);
    try {
      await Promise.all(
        streams.map(async (streamId, appender) => {
          let expected: number | 'no_stream' = 'no_stream';
          for (let n = 0; n < APPENDS_EACH; n++) {
            const id = randomUUID();
            const data: Record<string, number> = { appender, n };
            if (Math.random() < 0.3) data.commitDelayMs = 5 + Math.floor(Math.random() * 40);
            const result = await store.append(streamId, [{ id, type: 'Appended', data, metadata: metadata() }], {
              expectedRevision: expected,
            });
            expected = result.nextRevision;
            appended.push(id);
          }
        }),
      );
      appending = false;
      await naive;
      await until(() => subscriber.seen.length >= TOTAL, `the subscriber saw ${TOTAL} events`);
      await sleep(200); // anything extra (a duplicate) would arrive now
      await subscriber.stop();

      const seen = subscriber.seen;
      expect(appended).toHaveLength(TOTAL);
      expect(seen).toHaveLength(TOTAL);
      const seenIds = seen.map((e) => e.id);
      expect(new Set(seenIds).size).toBe(TOTAL);
      expect([...seenIds].sort()).toEqual([...appended].sort());
      for (let i = 1; i < seen.length; i++) {
        expect(comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBeLessThan(0);
      }
      for (const streamId of streams) {
        const revisions = seen.filter((e) => e.streamId === streamId).map((e) => e.revision);
        expect(revisions).toEqual(Array.from({ length: APPENDS_EACH }, (_, i) => i));
      }

      // Out-of-order commits: events committed after a higher seq was already visible.
      const naiveMissed = TOTAL - naiveSeen.size;
      // Delivery order (xid, seq) vs seq order.
      let seqInversions = 0;
      for (let i = 1; i < seen.length; i++) {
        if (seen[i]!.position.prepare < seen[i - 1]!.position.prepare) seqInversions++;
      }
      console.info(
        `concurrency: ${TOTAL} events, ${naiveMissed} committed late (a seq-only reader skipped them), ` +
          `${seqInversions} seq inversions in delivery order; the xmin subscriber missed 0`,
      );
      expect(naiveMissed).toBeGreaterThan(0);
    } finally {
      appending = false;
      await naive.catch(() => {});
      await subscriber.stop();
      await store.close();
      await pool.end();
      await admin.end();
      await db.drop();
    }
  });

  test('an append wakes the other stores of the thread in memory, and other processes by NOTIFY', async () => {
    const db = await migratedDatabase();
    // The appending store's NOTIFY never leaves it: only the shared counter can wake the follower.
    const { pool, silent } = poolWithoutNotify(db.url);
    const appender = createPostgresEventStore({ connectionString: db.url, pool: silent });
    // Another store on the same database stands for the projector's thread; its poll never comes within the test.
    const follower = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 600_000 });
    const otherProcess = createPostgresEventStore({ connectionString: db.url });
    const listener = new pg.Client({ connectionString: db.url });
    const notified: string[] = [];
    listener.on('notification', (message) => notified.push(message.payload ?? ''));
    await listener.connect();
    await listener.query('LISTEN events');
    const subscriber = collect(follower);
    const append = (store: EventStore, streamId: string) =>
      store.append(streamId, [{ id: randomUUID(), type: 'T', data: {}, metadata: metadata() }], { expectedRevision: 'no_stream' });
    try {
      await append(appender, 'first');
      await until(() => subscriber.seen.length === 1, 'the follower read the first event');
      // The follower now waits; the second append wakes it without a NOTIFY.
      await append(appender, 'second');
      await until(() => subscriber.seen.length === 2, 'the follower was woken by the second append');
      expect(subscriber.seen.map((event) => event.streamId)).toEqual(['first', 'second']);
      // A store whose NOTIFY goes out still tells other processes, naming itself.
      await append(otherProcess, 'third');
      await until(() => notified.length > 0, 'a NOTIFY reached another connection');
      expect(notified[0]).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await subscriber.stop();
      await listener.end();
      await Promise.all([appender.close(), follower.close(), otherProcess.close()]);
      await pool.end();
      await db.drop();
    }
  });

  test("an append wakes a subscription in another thread that was handed the process's counter, with no NOTIFY and no lost wake-up", async () => {
    const db = await migratedDatabase();
    // The appender's NOTIFY never leaves it: only the shared counter can wake the worker thread.
    const { pool, silent } = poolWithoutNotify(db.url);
    const appender = createPostgresEventStore({ connectionString: db.url, pool: silent });
    // Bundled as the server is (npm packages load from node_modules), so the thread runs the store's own code.
    const cache = path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(path.join(cache, 'follower-thread-'));
    const entry = path.join(dir, 'follower-thread.mjs');
    await build({
      entryPoints: [path.join(import.meta.dirname, 'fixtures', 'follower-thread.ts')],
      outfile: entry,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      logLevel: 'error',
    });
    const seen: string[] = [];
    let failed: unknown;
    const worker = new Worker(entry, { workerData: { url: db.url, threadSignals: threadSignalBuffers(db.url) } });
    worker.on('message', (streamId: string) => seen.push(streamId));
    worker.on('error', (error) => (failed = error));
    const append = (streamId: string) =>
      appender.append(streamId, [{ id: randomUUID(), type: 'T', data: {}, metadata: metadata() }], { expectedRevision: 'no_stream' });
    try {
      await append('first');
      await until(() => {
        if (failed) throw failed;
        return seen.length === 1;
      }, 'the worker thread read the first event');
      // Appends one after another and in bursts: some land while the worker reads, some
      // between its read and its wait; a wake-up lost there would leave it asleep for good.
      for (let i = 0; i < 40; i++) {
        await append(`one-${i}`);
        if (i % 4 === 0) await sleep(i % 8);
      }
      await Promise.all(Array.from({ length: 20 }, (_, i) => append(`burst-${i}`)));
      await until(() => seen.length === 61, 'the worker thread read every event');
      expect(new Set(seen).size).toBe(61);
    } finally {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('stop');
      await exited;
      await appender.close();
      await pool.end();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('while events are held back a subscription looks again within 250 ms, however long its poll interval', () => {
    // Fresh-clone CI at load 10 once timed out a wake-up test (its poll: 10 minutes): another
    // test's transaction held the log back for seconds, the pauses had doubled to many
    // seconds, and nothing announced that transaction's end.
    const pauses: number[] = [];
    let pause = 0;
    for (let read = 0; read < 20; read++) pauses.push((pause = heldBackPauseAfter(pause, false, 600_000)));
    expect(pauses.slice(0, 4)).toEqual([2, 4, 8, 16]);
    expect(Math.max(...pauses)).toBe(250);
    // A read that got some of the events looks again at once; a short poll interval caps the pause too.
    expect(heldBackPauseAfter(250, true, 600_000)).toBe(2);
    expect(heldBackPauseAfter(64, false, 100)).toBe(100);
  });

  test('a lone appender sends at most one NOTIFY per 8 ms, and one after its last append', async () => {
    const db = await migratedDatabase();
    const pool = testPool({ connectionString: db.url });
    /** performance.now() when each NOTIFY was sent. */
    const sent: number[] = [];
    /** What reached the database, in order: an append's answer, a NOTIFY sent. */
    const order: ('appended' | 'notify')[] = [];
    const counting = Object.assign(Object.create(pool) as pg.Pool, {
      query: (config: string | pg.QueryConfig, values?: unknown[]) => {
        const text = typeof config === 'string' ? config : config.text;
        if (text.includes('pg_notify')) {
          sent.push(performance.now());
          order.push('notify');
        }
        const result = pool.query(config, values);
        return text.includes('append_events') ? result.then((answer) => (order.push('appended'), answer)) : result;
      },
    });
    const store = createPostgresEventStore({ connectionString: db.url, pool: counting });
    const started = performance.now();
    try {
      for (let i = 0; i < 30; i++) {
        await store.append(`lone-${i}`, [{ id: randomUUID(), type: 'T', data: {}, metadata: metadata() }], {
          expectedRevision: 'no_stream',
        });
      }
      // No wake-up is lost: a NOTIFY goes out after the last append's commit.
      await until(() => order[order.length - 1] === 'notify', 'a NOTIFY after the last append');
      // The appends that commit while one is due share it: each NOTIFY starts 8 ms or more after
      // the one before, so n of them, all started after `started`, span 8·(n−1) ms. Their count is
      // asserted, not the gaps between the times taken here: a time is taken when the wrapper
      // runs, after the store's own, and a thread descheduled or collecting garbage in between
      // (milliseconds on a busy machine) makes one gap short and the next long.
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.length).toBeLessThanOrEqual(1 + Math.floor((sent.at(-1)! - started) / 8));
    } finally {
      await store.close();
      await pool.end();
      await db.drop();
    }
  });

  test('close() ends running subscriptions and their LISTEN connections', async () => {
    const db = await migratedDatabase();
    const store = createPostgresEventStore({ connectionString: db.url });
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const running = (async () => {
        for await (const e of store.subscribeAll({ from: START })) void e;
      })();
      // The subscription catches up first, then listens: wait for it, however busy the machine.
      const listening = async () =>
        (
          await admin.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'`,
          )
        ).rows[0]?.n;
      await until(async () => (await listening()) === 1, 'the subscription listens');
      await store.close();
      await running;
      const others = async () =>
        (
          await admin.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid()`,
          )
        ).rows[0]?.n;
      await until(async () => (await others()) === 0, 'all store connections are gone', 5_000);
    } finally {
      await admin.end();
      await db.drop();
    }
  });
});
