import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { positionToString, type EventStore } from '@crm/projections/eventstore/port';
import { projections } from '@crm/projections/read-models';
import { MAIN_CHECKPOINT, readCheckpoint } from '@crm/projections/runtime/checkpoints';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import { reachedLastCommitted } from '@crm/projections/testing/events';
import { bundleServer, REPO, SharedSessionClient, startServerProcess, type ServerProcess } from './support.ts';

/**
 * The scaled-out deployment on one machine: two API processes (RUN_PROJECTOR=false) and two
 * `npm run projector` processes on one PostgreSQL, as infra/ runs them. Sessions, the
 * sign-in limit and read-your-writes must hold whichever process a request reaches, and
 * killing the active projector with SIGKILL must cost nothing but a pause.
 */

const SUPER_ADMIN = { username: 'superadmin', password: 'scale-out-super-admin' };
const SIGN_IN_LIMIT = 20;

let db: TestDatabase;
let root: string;
let knex: Knex;
let store: EventStore;
let apis: ServerProcess[] = [];
let projectors: ServerProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  mkdirSync(path.join(REPO, '.test-data'), { recursive: true });
  root = mkdtempSync(path.join(REPO, '.test-data', 'scale-'));
  bundleServer(root);
  const common = {
    DATABASE_URL: db.url,
    DATA_DIR: path.join(root, 'data'),
    // Every process signs and reads the same cookies.
    SESSION_SECRET: 'scale-out-session-secret-shared-by-all-processes',
    SUPER_ADMIN_USERNAME: SUPER_ADMIN.username,
    SUPER_ADMIN_PASSWORD: SUPER_ADMIN.password,
    LOG_LEVEL: 'info',
    SIGN_IN_RATE_LIMIT: String(SIGN_IN_LIMIT),
    // The test stands in for the reverse proxy: X-Forwarded-For names the client.
    TRUST_PROXY: 'true',
  };
  // All four at once, as a deployment starts them: one migrates, the others wait for it.
  const started = await Promise.allSettled([
    startServerProcess(root, 'projector-1', 'projector-main', common),
    startServerProcess(root, 'projector-2', 'projector-main', common),
    startServerProcess(root, 'api-a', 'main', { ...common, RUN_PROJECTOR: 'false' }),
    startServerProcess(root, 'api-b', 'main', { ...common, RUN_PROJECTOR: 'false' }),
  ]);
  const ok = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  projectors = ok.filter((p) => p.name.startsWith('projector'));
  apis = ok.filter((p) => p.name.startsWith('api'));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 4 } });
  store = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 50 });
}, 150_000);

afterAll(async () => {
  await Promise.all([...apis, ...projectors].map((p) => p.stop()));
  await store?.close();
  await knex?.destroy();
  await db?.drop();
  if (root) rmSync(root, { recursive: true, force: true });
}, 60_000);

/** Which projector processes hold the main read models' lock, by their own /healthz. */
async function activeProjectors(): Promise<ServerProcess[]> {
  const active: ServerProcess[] = [];
  for (const p of projectors) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
    try {
      const health = (await (await fetch(`${p.url}/healthz`)).json()) as { subscribers: Array<{ checkpoint: string; active: boolean }> };
      if (health.subscribers.some((s) => s.checkpoint === MAIN_CHECKPOINT && s.active)) active.push(p);
    } catch {
      // not answering: not active
    }
  }
  return active;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
}

let instance = '';
const owner = new SharedSessionClient();

describe('two API processes and two projectors on one database', () => {
  test('a session made on one API process is valid on the other', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    const admin = new SharedSessionClient();
    expect((await admin.request(a.url, 'POST', '/api/super-admin/login', SUPER_ADMIN)).status).toBe(200);
    expect((await admin.request(b.url, 'GET', '/api/super-admin/current')).status).toBe(200);
    const created = await admin.request(b.url, 'POST', '/api/crm-instances', {
      name: 'SCALE',
      displayName: 'Scale Auto',
      subdomain: 'scale',
      adminUsername: 'owner',
      adminDisplayName: 'Owner',
      adminPin: '1357',
    });
    expect(created.status, created.text).toBe(201);
    instance = created.body.subdomain;
    // Created through B, listed through A at once: the read models are one.
    const listed = await admin.request(a.url, 'GET', '/api/crm-instances');
    expect(listed.text).toContain(created.body.id);

    expect((await owner.request(b.url, 'POST', '/api/auth/login', { instance, username: 'owner', pin: '1357' })).status).toBe(200);
    const me = await owner.request(a.url, 'GET', '/api/user/current');
    expect(me.status, me.text).toBe(200);
    expect(me.body.username).toBe('owner');
    // Signing out on A ends the session on B too.
    const other = new SharedSessionClient();
    expect((await other.request(a.url, 'POST', '/api/auth/login', { instance, username: 'owner', pin: '1357' })).status).toBe(200);
    expect((await other.request(a.url, 'POST', '/api/auth/logout')).status).toBe(204);
    expect((await other.request(b.url, 'GET', '/api/user/current')).status).toBe(401);
  });

  test('a lock or a permission change on one process takes effect on the other at its next request (sessions are cached per process)', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    const created = await owner.request(a.url, 'POST', '/api/admin/users', { username: 'cached', pin: '2468' });
    expect(created.status, created.text).toBe(201);
    const user = new SharedSessionClient();
    expect((await user.request(b.url, 'POST', '/api/auth/login', { instance, username: 'cached', pin: '2468' })).status).toBe(200);
    // Read on both processes, so each holds the session (with its user) in its cache.
    for (const base of [a.url, b.url, a.url, b.url]) expect((await user.request(base, 'GET', '/api/user/current')).status).toBe(200);
    expect((await user.request(b.url, 'GET', '/api/user-info')).status).toBe(200);

    // Read permission taken away through A: B refuses the very next read.
    const limited = await owner.request(a.url, 'PATCH', `/api/admin/users/${created.body.id}/permissions`, { canRead: false });
    expect(limited.status, limited.text).toBe(200);
    expect((await user.request(b.url, 'GET', '/api/user-info')).status).toBe(403);
    expect((await owner.request(b.url, 'PATCH', `/api/admin/users/${created.body.id}/permissions`, { canRead: true })).status).toBe(200);
    expect((await user.request(a.url, 'GET', '/api/user-info')).status).toBe(200);
    expect((await user.request(b.url, 'GET', '/api/user-info')).status).toBe(200);

    // Locked through B: neither process serves the session any more.
    const locked = await owner.request(b.url, 'PATCH', `/api/admin/users/${created.body.id}/lock`, { isLocked: true });
    expect(locked.status, locked.text).toBe(200);
    expect((await user.request(a.url, 'GET', '/api/user/current')).status).toBe(401);
    expect((await user.request(b.url, 'GET', '/api/user/current')).status).toBe(401);
  });

  test('the sign-in limit counts attempts on both processes together', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    const guesser = new SharedSessionClient({ 'x-forwarded-for': '203.0.113.50' });
    const attempt = (base: string) => guesser.request(base, 'POST', '/api/auth/login', { instance, username: 'nobody', pin: '0000' });
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMIT; i++) statuses.push((await attempt(i % 2 === 0 ? a.url : b.url)).status);
    // Each process saw only half the limit; together they used it up.
    expect(statuses).toEqual(Array.from({ length: SIGN_IN_LIMIT }, () => 401));
    const refusedOnA = await attempt(a.url);
    expect(refusedOnA.status).toBe(429);
    expect(Number(refusedOnA.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await attempt(b.url)).status).toBe(429);
    // Another client is not held back by it.
    const other = new SharedSessionClient({ 'x-forwarded-for': '203.0.113.51' });
    expect((await other.request(b.url, 'POST', '/api/auth/login', { instance, username: 'nobody', pin: '0000' })).status).toBe(401);
  });

  test('kill -9 of the active projector: the standby takes over, nothing is skipped or applied twice, read-your-writes holds on both', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    // What the processes said, when this fails (their logs go with the test's folder).
    onTestFailed(() => {
      for (const p of [...apis, ...projectors]) console.error(`--- ${p.name} (last lines)\n${p.log().split('\n').slice(-40).join('\n')}`);
    });
    const [active] = await waitFor<[ServerProcess]>(
      'an active projector',
      async () => {
        const found = await activeProjectors();
        return found.length === 1 ? (found as [ServerProcess]) : null;
      },
      20_000,
    );
    const standby = projectors.find((p) => p !== active)!;
    // The standby tells what it knows: no position of its own (it once said -1/-1), on
    // /readyz the checkpoint stored by the active one, and projector_active 0. /healthz, a
    // liveness probe, answers from memory and sends no query.
    for (const path of ['/healthz', '/readyz']) {
      const body = (await (await fetch(`${standby.url}${path}`)).json()) as {
        subscribers: Array<{ checkpoint: string; active: boolean; position: string | null; stored?: string | null }>;
      };
      const main = body.subscribers.find((s) => s.checkpoint === MAIN_CHECKPOINT);
      expect(main, path).toMatchObject({ active: false, position: null });
      if (path === '/readyz') expect(main?.stored, path).toMatch(/^-?\d+\/-?\d+$/);
      else expect(main, path).not.toHaveProperty('stored');
    }
    expect(await (await fetch(`${standby.url}/metrics`)).text()).toContain(`projector_active{checkpoint="${MAIN_CHECKPOINT}"} 0`);

    const created: Array<{ id: string; name: string }> = [];
    const failures: string[] = [];
    /** How long each create took to answer: appended, then woken by the projector's notification. */
    const createMs: number[] = [];
    let stop = false;
    const check = (ok: boolean, message: string) => {
      if (!ok) failures.push(message);
    };
    // Each worker writes through one process and reads back through both: the answer of a
    // command comes after the projector passed it (the process waits for the checkpoint's
    // notification; neither runs a projector of its own), so both must see it at once.
    const worker = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const [here, there] = (n + i) % 2 === 0 ? [a, b] : [b, a];
        const name = `Load ${n}-${i}`;
        const startedAt = performance.now();
        const made = await owner.request(here.url, 'POST', '/api/customers', { name });
        createMs.push(performance.now() - startedAt);
        if (made.status !== 201) {
          check(false, `create on ${here.name}: ${made.status} ${made.text}`);
          continue;
        }
        const record = { id: made.body.id as string, name };
        created.push(record);
        for (const p of [here, there]) {
          const read = await owner.request(p.url, 'GET', `/api/customers/${made.body.id}`);
          check(read.status === 200, `${p.name} did not see ${name} just created on ${here.name}: ${read.status}`);
        }
        const renamed = await owner.request(
          there.url,
          'PUT',
          `/api/customers/${made.body.id}`,
          { name: `${name} renamed` },
          { 'if-match': '"0"' },
        );
        check(renamed.status === 200, `update on ${there.name}: ${renamed.status} ${renamed.text}`);
        const list = await owner.request(here.url, 'GET', `/api/customers?q=${encodeURIComponent(`${name} renamed`)}`);
        const found = (list.body?.items ?? []) as Array<{ id: string; name: string; revision: number }>;
        const row = found.find((c) => c.id === made.body.id);
        check(
          row?.name === `${name} renamed` && row.revision === 1,
          `${here.name} did not see the rename made on ${there.name}: ${JSON.stringify(row)}`,
        );
        if (renamed.status === 200) record.name = `${name} renamed`;
      }
    };
    const workers = Array.from({ length: 6 }, (_, n) => worker(n));

    await waitFor('some load before the kill', async () => created.length >= 30, 30_000);
    const killedAt = Date.now();
    active.child.kill('SIGKILL');
    const [successor] = await waitFor(
      'the standby to take over',
      async () => {
        const found = await activeProjectors();
        return found.length === 1 ? found : null;
      },
      15_000,
    );
    const takeoverMs = Date.now() - killedAt;
    const atKill = created.length;
    await waitFor('load after the takeover', async () => created.length >= atKill + 30, 30_000);
    stop = true;
    await Promise.all(workers);
    console.info(
      `scale-out: ${created.length} customers created and renamed through two API processes; standby took over ${takeoverMs} ms after kill -9; create answered in ${percentile(createMs, 0.5)} ms (median), ${percentile(createMs, 0.95)} ms (p95)`,
    );

    expect(successor).toBe(standby);
    expect(takeoverMs).toBeLessThan(5000);
    expect(failures).toEqual([]);

    // The successor catches up with the whole log.
    await waitFor(
      'the projector to reach the head of the log',
      async () => reachedLastCommitted(knex, await readCheckpoint(knex, MAIN_CHECKPOINT)),
      20_000,
    );

    // Every customer once, as last written; nothing parked.
    const rows = (await knex('rm.customers')
      .whereIn(
        'id',
        created.map((c) => c.id),
      )
      .select('id', 'name')) as Array<{ id: string; name: string }>;
    expect(rows).toHaveLength(created.length);
    expect(new Map(rows.map((r) => [r.id, r.name]))).toEqual(new Map(created.map((c) => [c.id, c.name])));
    expect(Number((await knex('parked_events').count({ n: '*' }))[0]!.n)).toBe(0);

    // The same read models as a clean replay of every event: none skipped, none applied twice.
    const report = await rebuildReadModels({ knex, store, projections });
    const differing = report.tables.filter((t) => !t.identical);
    expect(differing, `tables that differ from a clean rebuild at ${positionToString(report.position)}`).toEqual([]);
    expect(report.identical).toBe(true);
  });
});
