import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@crm/projections/db/embedded';
import { migrate } from '@crm/projections/db/migrate';
import pg from 'pg';
import { createKnex } from '../infra/database.ts';
import { BenchApi, createInstance, type BenchInstance } from './api-client.ts';
import { appendPhase } from './append-phase.ts';
import { BASELINE_DDL, CRUD_DDL } from './baseline-sql.ts';
import { commandsPhase } from './commands-phase.ts';
import { frontendPhase } from './frontend-phase.ts';
import { lagPhase } from './lag-phase.ts';
import { sampleServerMemory } from './memory.ts';
import type { BenchOptions } from './options.ts';
import { log, type PhaseContext } from './phase.ts';
import {
  startApiServer,
  startBaselineServer,
  startLoadGenerator,
  SUPER_ADMIN,
  type ApiServer,
  type BaselineServer,
  type LoadGenerator,
} from './processes.ts';
import { readsPhase } from './reads-phase.ts';
import { rebuildPhase } from './rebuild-phase.ts';
import type { Figure } from './report.ts';
import { reportResults } from './results.ts';
import { screensPhase } from './screens-phase.ts';
import { seedPhase } from './seed-phase.ts';
import type { SeedDomain } from './seed.ts';

/**
 * `npm run bench`: on a fresh database (embedded PostgreSQL, or a new database on
 * DATABASE_URL's server), every figure beside the baseline it is compared with, both
 * measured in this run on that database. Phases: event store appends (ours against
 * emmett), seeding, reads at scale, the command path, projection lag under a steady rate,
 * server memory, rebuild, and the frontend bundle. HTTP load comes from a separate process
 * (autocannon), against the real server in its own process and a bare Koa baseline in
 * another. It reports; it never fails on a figure.
 */

export async function runBench(domain: SeedDomain, options: BenchOptions, repoRoot: string): Promise<void> {
  const started = new Date();
  const work = mkdtempSync(path.join(os.tmpdir(), 'crm-bench-'));
  const resultsDir = path.join(repoRoot, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const external = process.env.DATABASE_URL;
  let cluster: EmbeddedPostgresHandle | null = null;
  let admin: pg.Client | null = null;
  const dbName = `bench_${Date.now()}`;
  let pool: pg.Pool | null = null;
  let api: ApiServer | null = null;
  let baseline: BaselineServer | null = null;
  let load: LoadGenerator | null = null;
  let memory: ReturnType<typeof sampleServerMemory> | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      memory?.stop();
      await load?.stop().catch(() => undefined);
      await baseline?.stop().catch(() => undefined);
      await api?.stop().catch(() => undefined);
      await pool?.end().catch(() => undefined);
      if (admin) {
        // Kept on request, to rebuild the same store again and again (on DATABASE_URL's server).
        if (process.env.BENCH_KEEP_DATABASE) log(`Kept the database ${dbName}.`);
        else await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
        await admin.end().catch(() => undefined);
      }
      await cluster?.stop().catch(() => undefined);
      rmSync(work, { recursive: true, force: true });
    })());
  // Ctrl+C: stop the servers and the database, and leave no data behind.
  const interrupted = (signal: NodeJS.Signals) => {
    log(`\n${signal}: stopping the benchmark...`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    log(external ? 'Using the PostgreSQL server of DATABASE_URL (a new database on it).' : 'Starting an embedded PostgreSQL...');
    cluster = external
      ? null
      : await startEmbeddedPostgres({
          dataDir: path.join(work, 'pg'),
          persistent: false,
          // The lag phase measures from each event's commit (pg_xact_commit_timestamp).
          settings: {
            track_commit_timestamp: 'on',
            ...(process.env.BENCH_PG_STATEMENTS
              ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' }
              : {}),
          },
        });
    const adminUrl = external ?? cluster!.adminUrl;
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    const databaseUrl = url.toString();
    const knex = createKnex(databaseUrl, 4);
    try {
      await migrate(knex);
      await knex.raw(BASELINE_DDL);
      await knex.raw(CRUD_DDL);
    } finally {
      await knex.destroy();
    }
    pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    // Idle clients dropped at the end (DROP DATABASE … WITH (FORCE)) must not crash the run.
    pool.on('error', () => {});
    const version = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version;
    const ctx: PhaseContext = { options, figures: [], details: {}, databaseUrl, pool };
    // Every figure carries the load average when it was taken: on a shared machine a
    // figure means little without it.
    const figures = ctx.figures;
    figures.push = (...added: Figure[]) =>
      Array.prototype.push.apply(
        figures,
        added.map((f) => ({ ...f, load: f.load ?? os.loadavg()[0] })),
      );

    if (!options.skip.has('append')) await appendPhase(ctx);

    log('Starting the API server, the baseline server and the load generator...');
    api = await startApiServer({ databaseUrl, dataDir: path.join(work, 'data'), logFile: path.join(resultsDir, 'server.log') });
    baseline = await startBaselineServer(databaseUrl);
    load = startLoadGenerator();
    memory = sampleServerMemory(api.child.pid!);

    const superAdmin = new BenchApi(api.url);
    await superAdmin.expect(200, 'POST', '/api/super-admin/login', SUPER_ADMIN);
    const instances: BenchInstance[] = [];
    for (let i = 0; i <= options.otherInstances; i++) instances.push(await createInstance(superAdmin, `bench${i}`));
    memory.phase('seeding');
    const seeded = await seedPhase(ctx, domain, instances);
    const big = { ...instances[0]!, ...seeded[0]! };
    const others = instances.slice(1).map((instance, i) => ({ ...instance, ...seeded[i + 1]! }));

    memory.phase('reads');
    if (!options.skip.has('reads'))
      await readsPhase(ctx, load, api.url, baseline.url, big, { api: api.child.pid, baseline: baseline.child.pid });
    memory.phase('commands');
    if (!options.skip.has('commands'))
      await commandsPhase(ctx, load, api.url, baseline.url, big, others, { api: api.child.pid, baseline: baseline.child.pid });
    memory.phase('lag');
    if (!options.skip.has('lag')) await lagPhase(ctx, load, api.url, [big, ...others], api.child.pid);

    ctx.figures.push(memory.finish());
    memory = null;
    await load.stop();
    load = null;
    await baseline.stop();
    baseline = null;
    await api.stop();
    api = null;

    if (!options.skip.has('rebuild')) await rebuildPhase(ctx);
    if (!options.skip.has('frontend')) frontendPhase(ctx, repoRoot);
    if (!options.skip.has('screens')) screensPhase(ctx, repoRoot);

    reportResults({ options, started, finished: new Date(), postgres: version, figures: ctx.figures, details: ctx.details }, resultsDir);
  } finally {
    await cleanup();
  }
}
