import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAIN_CHECKPOINT, readCheckpoint } from '@crm/projections/runtime/checkpoints';
import { START, comparePositions } from '@crm/projections/eventstore/port';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import { CUSTOMER_CASCADE } from '../../src/shared/reactions.ts';
import {
  createShop,
  expectAcknowledgedOnce,
  headPosition,
  openDb,
  rebuildAndCompare,
  requireBuild,
  scratchDir,
  seedEvents,
  signIn,
  sleep,
  spawnRebuild,
  startLoad,
  startProjector,
  startServer,
  tail,
  waitForCheckpoint,
  type ChildServer,
} from './support.ts';

/**
 * kill -9 (no shutdown handler runs) of the server and of the standalone projector in the
 * middle of a burst of writes, a customer-delete cascade, a large catch-up and a rebuild.
 * After a restart: every acknowledged write is in the log exactly once and nothing is
 * half-written, every cascade completes, and every read-model table equals a clean rebuild
 * (row digests, projections/src/runtime/rebuild.ts).
 */

interface Setup {
  db: TestDatabase;
  dir: string;
  knex: Knex;
  children: ChildServer[];
}

const setups: Setup[] = [];

async function setup(name: string): Promise<Setup> {
  const s: Setup = { db: await createTestDatabase(), dir: scratchDir(`crash-${name}`), knex: null as unknown as Knex, children: [] };
  s.knex = openDb(s.db.url);
  setups.push(s);
  return s;
}

async function server(s: Setup, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = await startServer({ dataDir: path.join(s.dir, 'api'), databaseUrl: s.db.url, env });
  s.children.push(child);
  return child;
}

async function projector(s: Setup): Promise<ChildServer> {
  const child = await startProjector({ dataDir: path.join(s.dir, 'projector'), databaseUrl: s.db.url });
  s.children.push(child);
  return child;
}

/** After the restart: the projector at the head of the log, then a rebuild equal to the live tables. */
async function expectReadModelsEqualRebuild(s: Setup): Promise<void> {
  await waitForCheckpoint(s.knex, s.db.url, MAIN_CHECKPOINT, 120_000);
  const report = await rebuildAndCompare(s.db.url);
  expect(report.tables.filter((t) => !t.identical)).toEqual([]);
  expect(report.tables.length).toBeGreaterThan(5);
}

beforeAll(() => requireBuild());

afterAll(async () => {
  for (const s of setups) {
    await Promise.all(s.children.map((c) => c.stop().catch(() => undefined)));
    await s.knex.destroy();
    await s.db.drop();
    rmSync(s.dir, { recursive: true, force: true });
  }
}, 60_000);

describe('kill -9', () => {
  test('of the server in a burst of writes: every 2xx recorded once, nothing half-written, read models equal a rebuild', async () => {
    const s = await setup('burst');
    const first = await server(s);
    const shop = await createShop(first.url, 'burst');
    let client = shop.client;
    const load = startLoad(() => client, { writers: 8, label: 'burst' });
    // The kill lands mid-burst once enough writes were acknowledged to prove something: at
    // least 3 s of load and 30 acknowledged writes (a busy machine takes longer to get there).
    const burstStarted = Date.now();
    const acknowledged = () => load.answers.filter((a) => a.kind !== 'read' && a.status >= 200 && a.status < 300).length;
    while (Date.now() - burstStarted < 3_000 || (acknowledged() < 30 && Date.now() - burstStarted < 120_000)) await sleep(100);
    await first.kill9();
    const killedAt = Date.now();
    await sleep(300);
    await load.stop();
    const inFlight = load.answers.filter((a) => a.status === 0).length;

    const second = await server(s);
    client = await signIn(second.url, 'burst');
    const restartedMs = Date.now() - killedAt;
    const check = await expectAcknowledgedOnce(s.knex, load.answers);
    console.log(
      `[reliability] crash burst: ${check.acknowledged} acknowledged, ${inFlight} cut off by the kill, restart ${restartedMs} ms`,
    );
    expect(check.acknowledged).toBeGreaterThan(10);
    expect(check.problems).toEqual([]);
    // The restarted server serves what was acknowledged before the kill.
    const last = load.answers.filter((a) => a.kind === 'customer' && a.status === 201).at(-1)!;
    await expect.poll(async () => (await client.get(`/api/customers/${last.id}`)).status, { timeout: 30_000 }).toBe(200);
    await expectReadModelsEqualRebuild(s);
  }, 240_000);

  test('of the server in a customer delete cascade: the cascade completes after the restart', async () => {
    const s = await setup('cascade');
    const first = await server(s);
    const shop = await createShop(first.url, 'cascade');
    // One customer with many jobs (written straight into the log), projected.
    const seeded = await seedEvents(s.db.url, shop.instanceId, 1, 400);
    await waitForCheckpoint(s.knex, s.db.url, MAIN_CHECKPOINT, 120_000);
    await waitForCheckpoint(s.knex, s.db.url, CUSTOMER_CASCADE, 120_000);
    const customerId = seeded.customerIds[0]!;

    // The delete is recorded, the cascade starts deleting the jobs, the server dies.
    const deleting = shop.client.delete(`/api/customers/${customerId}`).catch(() => null);
    const deletedAfter = async () =>
      Number((await s.knex('events').where({ type: 'JobDeleted' }).count<{ count: string }[]>('* as count'))[0]!.count);
    const started = Date.now();
    while ((await deletedAfter()) < 20 && Date.now() - started < 60_000) await sleep(5);
    await first.kill9();
    await deleting;
    const deletedAtKill = await deletedAfter();
    expect(deletedAtKill, 'killed in the middle of the cascade').toBeLessThan(400);

    const second = await server(s);
    await waitForCheckpoint(s.knex, s.db.url, CUSTOMER_CASCADE, 120_000);
    const deletions = (await s
      .knex('events')
      .where({ type: 'JobDeleted' })
      .select(s.knex.raw("data->>'jobId' as job_id"), s.knex.raw("data->>'reason' as reason"))) as Array<{
      job_id: string;
      reason: string;
    }>;
    console.log(`[reliability] crash cascade: killed after ${deletedAtKill} of 400 job deletions; all done after the restart`);
    // Every job of the customer deleted exactly once, by the cascade.
    expect(new Set(deletions.map((d) => d.job_id)).size).toBe(400);
    expect(deletions).toHaveLength(400);
    expect(deletions.every((d) => d.reason === 'customer-deleted')).toBe(true);
    await expectReadModelsEqualRebuild(s);
    const client = await signIn(second.url, 'cascade');
    expect((await client.get(`/api/customers/${customerId}`)).status).toBe(404);
  }, 300_000);

  test('of the standalone projector in a large catch-up, and of a rebuild: read models equal a clean rebuild', async () => {
    const s = await setup('catchup');
    const api = await server(s, { RUN_PROJECTOR: 'false' });
    const first = await projector(s);
    const shop = await createShop(api.url, 'catchup');
    await first.kill9();
    const events = 3_000 + 9_000;
    await seedEvents(s.db.url, shop.instanceId, 3_000, 9_000);
    const head = await headPosition(s.db.url);

    const second = await projector(s);
    const started = Date.now();
    let at;
    for (;;) {
      at = (await readCheckpoint(s.knex, MAIN_CHECKPOINT)) ?? START;
      if (comparePositions(at, head) >= 0 || Date.now() - started > 120_000) break;
      const applied = Number(
        (
          await s.knex.raw<{ rows: { n: string }[] }>(
            'select count(*)::text as n from events where (tx_id, seq) <= (?::text::xid8, ?::bigint)',
            [at.commit < 0n ? '0' : at.commit.toString(), at.prepare.toString()],
          )
        ).rows[0]!.n,
      );
      if (applied > events / 4) break;
      await sleep(10);
    }
    expect(comparePositions(at, head), `killed in the middle of the catch-up\n${tail(second.logFile)}`).toBeLessThan(0);
    await second.kill9();

    const third = await projector(s);
    const catchUpMs = await waitForCheckpoint(s.knex, s.db.url, MAIN_CHECKPOINT, 180_000);
    console.log(`[reliability] crash catch-up: ${events} events; the restarted projector finished the catch-up in ${catchUpMs} ms`);
    await expectReadModelsEqualRebuild(s);

    // A rebuild killed half-way leaves the live tables as they were: the next one compares equal.
    const rebuild = spawnRebuild({ dataDir: path.join(s.dir, 'rebuild'), databaseUrl: s.db.url });
    const rebuildStarted = Date.now();
    while (Date.now() - rebuildStarted < 60_000) {
      const progress = readFileSync(rebuild.logFile, 'utf8');
      // Its progress line shows events replayed (into its own schema, beside the live tables).
      if (/Rebuilding read models .*\b[1-9]\d*\/\d+ events/.test(progress)) break;
      if (rebuild.child.exitCode !== null) break;
      await sleep(10);
    }
    expect(rebuild.child.exitCode, `the rebuild was still running when killed\n${tail(rebuild.logFile)}`).toBeNull();
    rebuild.child.kill('SIGKILL');
    await rebuild.done;
    const reads = await signIn(api.url, 'catchup');
    expect((await reads.get('/api/customers?limit=5')).status).toBe(200);
    await expectReadModelsEqualRebuild(s);
    await third.stop();
  }, 400_000);
});
