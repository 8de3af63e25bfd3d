import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@crm/projections/db/embedded';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { START, comparePositions, type GlobalPosition } from '@crm/projections/eventstore/port';
import { projections } from '@crm/projections/read-models';
import { MAIN_CHECKPOINT, readCheckpoint } from '@crm/projections/runtime/checkpoints';
import { rebuildReadModels, type RebuildReport } from '@crm/projections/runtime/rebuild';
import { deciderSeedDomain } from '../../src/bench-seed-domain.ts';
import { seedInstance, writeStreams, type SeededInstance } from '../../src/bench/seed.ts';
import { ApiClient } from '../support/server.ts';

/**
 * What the crash and outage tests share: a PostgreSQL cluster of their own (they stop it),
 * the built server and projector as real child processes (they kill them), a load that
 * records every answer, and the checks afterwards (every acknowledged write recorded once,
 * every read model equal to a clean rebuild).
 */

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const DIST = path.join(REPO_ROOT, 'backend/dist');
export const SUPER_ADMIN = { username: 'superadmin', password: 'reliability-super-admin' };

/** A scratch directory the embedded cluster's own user can enter (tests run as root in CI). */
export function scratchDir(prefix: string): string {
  const root = path.join(REPO_ROOT, '.test-data');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(path.join(root, `${prefix}-`));
  chmodSync(dir, 0o755);
  return dir;
}

export interface Cluster {
  port: number;
  /** URL of the `crm` database (created at start). */
  url: string;
  adminUrl: string;
  /** Fast shutdown, as an operator's `pg_ctl stop` or a failover does. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** A PostgreSQL cluster this test controls (the run's shared one must never be stopped). */
export async function startCluster(dir: string): Promise<Cluster> {
  const port = await freePort();
  const dataDir = path.join(dir, 'pg');
  let handle: EmbeddedPostgresHandle | null = await startEmbeddedPostgres({ dataDir, port });
  const admin = new pg.Client({ connectionString: handle.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE crm');
  await admin.end();
  const cluster: Cluster = {
    port,
    url: handle.urlFor('crm'),
    adminUrl: handle.adminUrl,
    async stop() {
      await handle?.stop();
      handle = null;
    },
    async start() {
      handle = await startEmbeddedPostgres({ dataDir, port });
    },
    async destroy() {
      await handle?.stop();
      handle = null;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

export function requireBuild(): void {
  for (const entry of ['main.js', 'projector-main.js', 'rebuild-main.js']) {
    if (!existsSync(path.join(DIST, entry))) {
      throw new Error(`backend/dist/${entry} is missing: run \`npm run test:reliability\` (it builds the server first)`);
    }
  }
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  logFile: string;
  /** kill -9: no shutdown handler runs. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited(child);
  clearTimeout(timer);
}

function spawnEntry(entry: string, env: Record<string, string>, logFile: string, args: string[] = []): ChildProcess {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(DIST, entry), ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      EVENTSTORE_URL: '',
      HOST: '127.0.0.1',
      SUPER_ADMIN_USERNAME: SUPER_ADMIN.username,
      SUPER_ADMIN_PASSWORD: SUPER_ADMIN.password,
      SESSION_SECRET: 'reliability-session-secret-reliability-session',
      LOG_LEVEL: 'warn',
      SIGN_IN_RATE_LIMIT: '100000',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  // A process that could not be started (EAGAIN on a busy machine) emits 'error': unheard, an
  // uncaught exception in the test fork. Heard, it lands in the log the waits below print.
  child.on('error', (error) => appendFileSync(logFile, `\n${entry} could not be started: ${error.message}\n`));
  return child;
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: exited with code ${child.exitCode}:\n${tail(logFile)}`);
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url}: no /healthz within 2 minutes:\n${tail(logFile)}`);
    await sleep(100);
  }
}

export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** The built server (`npm start`) as a child process; `env` adds to or overrides its environment. */
export async function startServer(options: { dataDir: string; databaseUrl?: string; env?: Record<string, string> }): Promise<ChildServer> {
  const port = await freePort();
  const logFile = path.join(options.dataDir, 'server.log');
  const child = spawnEntry(
    'main.js',
    { PORT: String(port), DATA_DIR: options.dataDir, DATABASE_URL: options.databaseUrl ?? '', ...options.env },
    logFile,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, logFile);
  return childHandle(url, child, logFile);
}

/** `npm run projector` as a child process. */
export async function startProjector(options: { dataDir: string; databaseUrl: string }): Promise<ChildServer> {
  const port = await freePort();
  const logFile = path.join(options.dataDir, 'projector.log');
  const child = spawnEntry(
    'projector-main.js',
    { PORT: String(port), DATA_DIR: options.dataDir, DATABASE_URL: options.databaseUrl },
    logFile,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, logFile);
  return childHandle(url, child, logFile);
}

/** `npm run projections:rebuild` as a child process (not awaited: the test kills it). */
export function spawnRebuild(options: { dataDir: string; databaseUrl: string }): {
  child: ChildProcess;
  logFile: string;
  done: Promise<void>;
} {
  const logFile = path.join(options.dataDir, 'rebuild.log');
  const child = spawnEntry('rebuild-main.js', { DATA_DIR: options.dataDir, DATABASE_URL: options.databaseUrl }, logFile);
  return { child, logFile, done: exited(child) };
}

function childHandle(url: string, child: ChildProcess, logFile: string): ChildServer {
  return {
    url,
    child,
    logFile,
    async kill9() {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: () => stopChild(child),
  };
}

export { sleep };

// ---- API set-up ----------------------------------------------------------------------

export async function createShop(url: string, subdomain: string): Promise<{ instanceId: string; client: ApiClient }> {
  const superAdmin = new ApiClient(url);
  const superSignIn = await superAdmin.post('/api/super-admin/login', SUPER_ADMIN);
  if (superSignIn.status !== 200) throw new Error(`super admin sign-in: ${superSignIn.status} ${superSignIn.text}`);
  const created = await superAdmin.post('/api/crm-instances', {
    name: subdomain.toUpperCase(),
    displayName: `${subdomain} Auto`,
    subdomain,
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  if (created.status !== 201) throw new Error(`instance: ${created.status} ${created.text}`);
  return { instanceId: created.body.id, client: await signIn(url, subdomain) };
}

export async function signIn(url: string, subdomain: string): Promise<ApiClient> {
  const client = new ApiClient(url);
  const res = await client.post('/api/auth/login', { username: 'owner', pin: '1234', instance: subdomain });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.text}`);
  return client;
}

// ---- load ----------------------------------------------------------------------------

export interface Answer {
  kind: 'customer' | 'job' | 'read';
  /** The name the write sent (unique per write): how its events are found afterwards. */
  name: string;
  status: number;
  /** 0 when the request failed without an answer (connection refused: the server is dead). */
  retryAfter: string | null;
  id: string | null;
  title: string | null;
  startedAt: number;
  ms: number;
}

/**
 * Writers (customers and jobs with new customers, unique names) and readers until stopped;
 * every answer recorded. A request that gets no answer (the server was killed) counts as
 * status 0: not acknowledged.
 */
export function startLoad(getClient: () => ApiClient, options: { writers: number; readers?: number; label: string }) {
  const answers: Answer[] = [];
  let running = true;
  let seq = 0;
  const worker = async (kind: 'write' | 'read', n: number) => {
    while (running) {
      const i = seq++;
      const started = Date.now();
      const client = getClient();
      const name = `${options.label} ${n}-${i}`;
      const kindOf: Answer['kind'] = kind === 'read' ? 'read' : i % 3 === 0 ? 'job' : 'customer';
      let answer: Answer;
      try {
        const res =
          kindOf === 'read'
            ? await client.request('GET', '/api/customers?limit=20', undefined, {})
            : kindOf === 'job'
              ? await client.request('POST', '/api/user-info', { name, phone: '5550100', part: 'Brake pads' })
              : await client.request('POST', '/api/customers', { name, phone: '5550101' });
        const body = res.body as { id?: string; title?: string } | null;
        answer = {
          kind: kindOf,
          name,
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          id: res.status < 300 && body && typeof body.id === 'string' ? body.id : null,
          title: body && typeof body.title === 'string' ? body.title : null,
          startedAt: started,
          ms: Date.now() - started,
        };
      } catch {
        answer = { kind: kindOf, name, status: 0, retryAfter: null, id: null, title: null, startedAt: started, ms: Date.now() - started };
        await sleep(50);
      }
      answers.push(answer);
      if (answer.status === 503 || answer.status === 0) await sleep(100);
    }
  };
  const workers = [
    ...Array.from({ length: options.writers }, (_, n) => worker('write', n)),
    ...Array.from({ length: options.readers ?? 0 }, (_, n) => worker('read', n)),
  ];
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

// ---- checks --------------------------------------------------------------------------

export function openDb(databaseUrl: string): Knex {
  return knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 4 } });
}

/**
 * Every acknowledged write is in the event log exactly once: a customer write's name is on
 * one CustomerCreated; a job write's name on one JobCreated and one CustomerCreated (its new
 * customer), the customer the job links. Answers: the counts, for the report.
 */
export async function expectAcknowledgedOnce(knex: Knex, answers: Answer[]): Promise<{ acknowledged: number; problems: string[] }> {
  const acknowledged = answers.filter((a) => a.kind !== 'read' && a.status >= 200 && a.status < 300);
  const names = acknowledged.map((a) => a.name);
  const rows = (await knex('events')
    .whereIn('type', ['CustomerCreated', 'JobCreated'])
    .whereRaw("data->>'name' = any(?)", [names])
    .select(
      'type',
      knex.raw("data->>'name' as name"),
      knex.raw("data->>'customerId' as customer_id"),
      knex.raw("data->>'jobId' as job_id"),
    )) as Array<{
    type: string;
    name: string;
    customer_id: string | null;
    job_id: string | null;
  }>;
  const problems: string[] = [];
  for (const answer of acknowledged) {
    const mine = rows.filter((r) => r.name === answer.name);
    const customers = mine.filter((r) => r.type === 'CustomerCreated');
    const jobs = mine.filter((r) => r.type === 'JobCreated');
    if (customers.length !== 1) problems.push(`${answer.name}: ${customers.length} CustomerCreated`);
    if (answer.kind === 'job') {
      if (jobs.length !== 1) problems.push(`${answer.name}: ${jobs.length} JobCreated`);
      else if (jobs[0]!.customer_id !== customers[0]?.customer_id) problems.push(`${answer.name}: job not linked to its customer`);
      if (jobs[0] && jobs[0].job_id !== answer.id) problems.push(`${answer.name}: answered job ${answer.id}, recorded ${jobs[0].job_id}`);
    } else if (customers[0] && customers[0].customer_id !== answer.id) {
      problems.push(`${answer.name}: answered customer ${answer.id}, recorded ${customers[0].customer_id}`);
    }
  }
  // Nothing half-written either: no job write (acknowledged or not) left a customer without its job.
  const jobNames = answers.filter((a) => a.kind === 'job').map((a) => a.name);
  const halves = (
    await knex.raw<{ rows: Array<{ name: string }> }>(
      `select c.data->>'name' as name from events c
        where c.type = 'CustomerCreated' and c.data->>'name' = any(?)
          and not exists (select 1 from events j where j.type = 'JobCreated' and j.data->>'customerId' = c.data->>'customerId')`,
      [jobNames],
    )
  ).rows.map((row) => row.name);
  for (const name of halves) problems.push(`${name}: customer without its job (half-written)`);
  return { acknowledged: acknowledged.length, problems };
}

/** Head of the log (what a reader can see now). */
export async function headPosition(databaseUrl: string): Promise<GlobalPosition> {
  const store = createPostgresEventStore({ connectionString: databaseUrl });
  try {
    return await store.headPosition();
  } finally {
    await store.close();
  }
}

/** Waits until the named checkpoint reaches the head of the log; answers how long it took. */
export async function waitForCheckpoint(knex: Knex, databaseUrl: string, name = MAIN_CHECKPOINT, timeoutMs = 60_000): Promise<number> {
  const head = await headPosition(databaseUrl);
  const started = Date.now();
  for (;;) {
    const at = (await readCheckpoint(knex, name)) ?? START;
    if (comparePositions(at, head) >= 0) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`checkpoint ${name} did not reach the head of the log within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Replays every event into fresh tables and compares each with the live one (row digests), then swaps. */
export async function rebuildAndCompare(databaseUrl: string): Promise<RebuildReport> {
  const knex = openDb(databaseUrl);
  const store = createPostgresEventStore({ connectionString: databaseUrl });
  try {
    return await rebuildReadModels({ store, knex, projections });
  } finally {
    await store.close();
    await knex.destroy();
  }
}

export const READ_MODELS = READ_MODEL_SCHEMA;

// ---- bulk seeding --------------------------------------------------------------------

/** The benchmark's bulk seeding with the real deciders: records exactly as the commands decide them. */
const seedDomain = deciderSeedDomain({ id: 'reliability-seed', displayName: 'Seeder', correlationId: 'reliability-seed' });

/** Writes `customers` customers and `jobs` jobs (each for one of them) straight into the event log. */
export async function seedEvents(databaseUrl: string, instanceId: string, customers: number, jobs: number): Promise<SeededInstance> {
  const knex = openDb(databaseUrl);
  try {
    return await seedInstance(seedDomain, {
      instanceId,
      customers,
      jobs,
      seed: 7,
      write: (streams) => writeStreams(knex, streams),
      onWritten: () => undefined,
    });
  } finally {
    await knex.destroy();
  }
}
