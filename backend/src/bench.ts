import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@crm/projections/db/embedded';
import { migrate, READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import type { NewEvent } from '@crm/projections/eventstore/port';
import { projections } from '@crm/projections/readmodels/index';
import { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import { Projector } from '@crm/projections/runtime/projector';
import pg from 'pg';
import { benchCustomers } from './customers/customer-bench.ts';
import { createProgress } from './cli.ts';
import { createKnex } from './infra/database.ts';

/**
 * `npm run bench`: throughput of the event store and the projector, each printed as a
 * ratio against a baseline measured in the same run on the same database (a plain
 * one-row INSERT per transaction), so the figures compare across machines.
 */
const N = Number(process.env.BENCH_EVENTS ?? 2000);
/** Customers seeded in one instance for the list and search timings. */
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const CONCURRENCY = 8;

async function timed(label: string, total: number, work: (i: number) => Promise<void>): Promise<number> {
  const progress = createProgress(label);
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const i = next++;
        await work(i);
        done++;
        progress(done, total);
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

const dir = mkdtempSync(path.join(tmpdir(), 'crm-bench-'));
const external = process.env.DATABASE_URL;
const cluster = external ? null : await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), persistent: false });
const adminUrl = external ?? cluster!.adminUrl;
const dbName = `bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;
const knex = createKnex(url.toString(), CONCURRENCY + 4);
await migrate(knex);
const store = createPostgresEventStore({ connectionString: url.toString() });

try {
  await knex.raw('CREATE TABLE bench_baseline (id uuid PRIMARY KEY, data jsonb NOT NULL)');
  const baseline = await timed('baseline INSERT', N, async () => {
    await knex.transaction(async (trx) => {
      await trx('bench_baseline').insert({ id: randomUUID(), data: JSON.stringify({ n: 1 }) });
    });
  });

  const instanceId = randomUUID();
  const event = (userId: string): NewEvent => ({
    id: randomUUID(),
    type: 'UserCreated',
    data: {
      userId,
      instanceId,
      username: `u-${userId.slice(0, 8)}`,
      displayName: 'Bench',
      role: 'user',
      permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
      pinHash: 'scrypt$bench',
    },
    metadata: {
      instanceId,
      actor: { kind: 'system', id: 'bench', displayName: 'Bench' },
      correlationId: 'bench',
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  });
  let lastPosition = null as Awaited<ReturnType<typeof store.append>> | null;
  const appends = await timed('event store append', N, async () => {
    const userId = randomUUID();
    lastPosition = await store.append(`user-${userId}`, [event(userId)], { expectedRevision: 'no_stream' });
  });

  const watcher = new CheckpointWatcher(knex, url.toString(), 'main', 20);
  await watcher.start();
  const projector = new Projector({ store, knex, connectionString: url.toString(), projections, schema: READ_MODEL_SCHEMA });
  const projectStarted = performance.now();
  projector.start();
  await watcher.waitFor(lastPosition!.position, 120_000);
  const projected = N / ((performance.now() - projectStarted) / 1000);
  await projector.stop();
  await watcher.stop();

  console.log('\nresults (higher is better; ratio = figure / baseline in this run)');
  console.log(`  baseline: one-row INSERT transactions   ${baseline.toFixed(0)}/s   1.00x`);
  console.log(`  event store appends (single event)       ${appends.toFixed(0)}/s   ${(appends / baseline).toFixed(2)}x`);
  console.log(`  projector catch-up (events applied)      ${projected.toFixed(0)}/s   ${(projected / baseline).toFixed(2)}x`);

  if (CUSTOMERS > 0) {
    const customers = await benchCustomers(knex, { count: CUSTOMERS, progress: createProgress('seeding customers') });
    console.log(`\ncustomer list and search, ${CUSTOMERS} customers in one instance (lower is better; ratio = time / baseline)`);
    for (const r of customers) console.log(`  ${r.label.padEnd(44)} ${r.msPerQuery.toFixed(2).padStart(8)} ms   ${r.ratio.toFixed(2)}x`);
  }
} finally {
  await store.close();
  await knex.destroy();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
