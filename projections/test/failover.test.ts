import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { positionToString, type EventStore } from '../src/eventstore/port.ts';
import { projections } from '../src/read-models.ts';
import { CheckpointWatcher, CHECKPOINT_CHANNEL } from '../src/runtime/checkpoints.ts';
import { Projector } from '../src/runtime/projector.ts';
import { describeSubscribers } from '../src/runtime/projector-health.ts';
import { testEventMetadata } from '../src/testing/events.ts';
import type { TestDatabase } from '../src/testing/database.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';

/**
 * Connections that die under the processes of a scaled-out deployment: the leader's lock
 * connection (a standby must take over, the old leader must step down) and an API
 * process's LISTEN connection (read-your-writes must keep being woken by notifications).
 * PostgreSQL ends them here with pg_terminate_backend, as a restart or a cut would.
 */

let db: TestDatabase;
let knex: Knex;
let store: EventStore;
let env: StoreDatabase | undefined;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 6 });
  ({ db, knex, store } = env);
});

afterAll(() => env?.close());

/** Ends the server sessions whose current or last query matches. */
async function terminate(where: string, binding: string): Promise<number> {
  const { rows } = await knex.raw<{ rows: Array<{ ended: boolean }> }>(
    `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${where}`,
    [binding],
  );
  return rows.filter((r) => r.ended).length;
}

describe('fail-over when a connection dies', () => {
  test('the leader whose lock connection is cut steps down, and the standby takes over', async () => {
    const make = () =>
      new Projector({
        store,
        knex,
        connectionString: db.url,
        projections,
        schema: READ_MODEL_SCHEMA,
        checkpointName: 'cut',
        standbyRetryMs: 100,
        retry: { initialDelayMs: 2000, maxDelayMs: 2000 },
      });
    const first = make();
    const second = make();
    first.start();
    await expect.poll(() => first.isLeader).toBe(true);
    second.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.isLeader).toBe(false);

    // The leader's lock: the session that holds the advisory lock of this set.
    const ended = await terminate(
      `pid IN (SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objid::bigint = (hashtext(?) & 4294967295))`,
      `projector:${READ_MODEL_SCHEMA}:cut`,
    );
    expect(ended).toBe(1);
    await expect.poll(() => first.isLeader, { timeout: 5000 }).toBe(false);
    await expect.poll(() => second.isLeader, { timeout: 5000 }).toBe(true);
    await second.stop();
    await first.stop();
  });

  test('a lone leader whose lock connection is cut takes the lock again within a second, however long its backoff has grown', async () => {
    // A lost connection says nothing about the events: it is retried at the transient pause
    // (at most half a second), never at the long backoff meant for failures of the event
    // itself. After a database restart the projector must be back by itself within seconds.
    const projector = new Projector({
      store,
      knex,
      connectionString: db.url,
      projections,
      schema: READ_MODEL_SCHEMA,
      checkpointName: 'lone',
      retry: { initialDelayMs: 30_000, maxDelayMs: 30_000 },
    });
    projector.start();
    try {
      await expect.poll(() => projector.isLeader).toBe(true);
      const ended = await terminate(
        `pid IN (SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objid::bigint = (hashtext(?) & 4294967295))`,
        `projector:${READ_MODEL_SCHEMA}:lone`,
      );
      expect(ended).toBe(1);
      await expect.poll(() => projector.isLeader, { timeout: 5000 }).toBe(false);
      await expect.poll(() => projector.isLeader, { timeout: 5000 }).toBe(true);
    } finally {
      await projector.stop();
    }
  });

  test('a standby retrying the lock for long leaves no listener behind (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const make = () =>
      new Projector({
        store,
        knex,
        connectionString: db.url,
        projections,
        schema: READ_MODEL_SCHEMA,
        checkpointName: 'patient',
        standbyRetryMs: 5,
      });
    const leader = make();
    const standby = make();
    try {
      leader.start();
      await expect.poll(() => leader.isLeader).toBe(true);
      standby.start();
      // Dozens of retries: each once added an abort listener to the projector's one signal.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(standby.isLeader).toBe(false);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await standby.stop();
      await leader.stop();
    }
  });

  test('a checkpoint watcher whose LISTEN connection is cut listens again: notifications still wake its waiters', async () => {
    // Polling once a minute: only a notification can wake the waiter in time.
    const watcher = new CheckpointWatcher(knex, db.url, 'watched', 60_000);
    await watcher.start();
    try {
      expect(watcher.listening).toBe(true);
      expect(await terminate(`query ILIKE ?`, `LISTEN ${CHECKPOINT_CHANNEL}%`)).toBe(1);
      await expect.poll(() => watcher.listening, { timeout: 5000 }).toBe(false);
      await expect.poll(() => watcher.listening, { timeout: 10_000 }).toBe(true);

      const target = { commit: 42n, prepare: 7n };
      const reached = watcher.waitFor(target, 5000, 'watched');
      await knex.raw('SELECT pg_notify(?, ?)', [CHECKPOINT_CHANNEL, 'watched:42/7']);
      expect(await reached).toBe(true);
    } finally {
      await watcher.stop();
    }
  });

  test('health tells what each process knows: the active one its position, a standby none of its own but the stored checkpoint', async () => {
    // A standby once reported "-1/-1", as if the read models stood before the first event.
    const make = () =>
      new Projector({
        store,
        knex,
        connectionString: db.url,
        projections,
        schema: READ_MODEL_SCHEMA,
        checkpointName: 'health',
        standbyRetryMs: 100,
      });
    const active = make();
    const standby = make();
    try {
      active.start();
      await expect.poll(() => active.isLeader).toBe(true);
      standby.start();
      const instanceId = randomUUID();
      const appended = await store.append(
        `crminstance-${instanceId}`,
        [
          {
            id: randomUUID(),
            type: 'CrmInstanceCreated',
            data: {
              instanceId,
              name: 'HEALTH',
              subdomain: 'health',
              displayName: 'health',
              description: '',
              features: { pipeline: true, customers: true, calendar: false, admin: true },
            },
            metadata: testEventMetadata(instanceId),
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      const at = positionToString(appended.position);
      await expect
        .poll(() => describeSubscribers(knex, [active, standby]), { timeout: 10_000 })
        .toEqual([
          { checkpoint: 'health', active: true, position: at, stored: at },
          { checkpoint: 'health', active: false, position: null, stored: at },
        ]);
      expect(standby.position).toBeNull();

      // The standby takes over: it now knows its own position, and the one that stopped none.
      await active.stop();
      await expect.poll(() => standby.isLeader, { timeout: 5000 }).toBe(true);
      await expect
        .poll(() => describeSubscribers(knex, [active, standby]), { timeout: 10_000 })
        .toEqual([
          { checkpoint: 'health', active: false, position: null, stored: at },
          { checkpoint: 'health', active: true, position: at, stored: at },
        ]);
    } finally {
      await standby.stop();
      await active.stop();
    }
  });
});
