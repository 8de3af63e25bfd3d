import { setTimeout as sleep } from 'node:timers/promises';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@crm/projections/db/embedded';
import { migrate } from '@crm/projections/db/migrate';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import pg from 'pg';
import type { Knex } from 'knex';
import { createProgress } from '../cli.ts';
import type { ScreensReport } from '../bench-screens.ts';
import { createKnex } from '../infra/database.ts';
import { BenchApi, createInstance, type BenchInstance } from './api-client.ts';
import type { AppendScenario, AppendScenarioResult, AppendStore, AppendWorkerMessage } from './append-worker.ts';
import { BASELINE_DDL, BASELINE_TABLE, CRUD_DDL, CRUD_TABLES } from './baseline-sql.ts';
import { measureFrontend } from './frontend-size.ts';
import { CheckpointLog, percentile } from './lag.ts';
import type { LoadKind, LoadResult, LoadSpec, LoadTarget } from './load-types.ts';
import type { BenchOptions } from './options.ts';
import {
  nodeChildPids,
  rssBytes,
  startIpcWorker,
  startApiServer,
  startBaselineServer,
  startLoadGenerator,
  SUPER_ADMIN,
  type ApiServer,
  type BaselineServer,
  type LoadGenerator,
} from './processes.ts';
import { evaluate, format, renderMarkdown, renderTable, type Figure } from './report.ts';
import { seedInstance, writeStreams, type SeedDomain, type SeededInstance } from './seed.ts';

/**
 * `npm run bench`: on a fresh database (embedded PostgreSQL, or a new database on
 * DATABASE_URL's server), every figure beside the baseline it is compared with, both
 * measured in this run on that database. Phases: event store appends (ours against
 * emmett), seeding, reads at scale, the command path, projection lag under a steady rate,
 * server memory, rebuild, and the frontend bundle. HTTP load comes from a separate process
 * (autocannon), against the real server in its own process and a bare Koa baseline in
 * another. It reports; it never fails on a figure.
 */

const MB = 1024 * 1024;
const SEARCH = 'garcia';
const AUTOCOMPLETE = 'rodrig';

interface Context {
  options: BenchOptions;
  figures: Figure[];
  details: Record<string, unknown>;
  databaseUrl: string;
  pool: pg.Pool;
}

const log = (message: string) => console.error(message);

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
  let rssTimer: NodeJS.Timeout | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      if (rssTimer) clearInterval(rssTimer);
      await load?.stop().catch(() => undefined);
      await baseline?.stop().catch(() => undefined);
      await api?.stop().catch(() => undefined);
      await pool?.end().catch(() => undefined);
      if (admin) {
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
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
    cluster = external ? null : await startEmbeddedPostgres({ dataDir: path.join(work, 'pg'), persistent: false });
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
    const ctx: Context = { options, figures: [], details: {}, databaseUrl, pool };
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
    const apiPid = api.child.pid!;
    // The API process and its projector child (RUN_PROJECTOR=true runs the projector,
    // reactors and message sender there): each one's peak and the peak of their sum.
    let peakRss = 0;
    let peakChildRss = 0;
    let peakTotalRss = 0;
    const sampleRss = () => {
      const apiRss = rssBytes(apiPid) ?? 0;
      const childRss = nodeChildPids(apiPid).reduce((sum, pid) => sum + (rssBytes(pid) ?? 0), 0);
      peakRss = Math.max(peakRss, apiRss);
      peakChildRss = Math.max(peakChildRss, childRss);
      peakTotalRss = Math.max(peakTotalRss, apiRss + childRss);
      return { apiRss, childRss };
    };
    rssTimer = setInterval(sampleRss, 500);

    const superAdmin = new BenchApi(api.url);
    await superAdmin.expect(200, 'POST', '/api/super-admin/login', SUPER_ADMIN);
    const instances: BenchInstance[] = [];
    for (let i = 0; i <= options.otherInstances; i++) instances.push(await createInstance(superAdmin, `bench${i}`));
    const seeded = await seedPhase(ctx, domain, instances);
    const big = { ...instances[0]!, ...seeded[0]! };
    const others = instances.slice(1).map((instance, i) => ({ ...instance, ...seeded[i + 1]! }));

    if (!options.skip.has('reads')) await readsPhase(ctx, load, api.url, baseline.url, big);
    if (!options.skip.has('commands')) await commandsPhase(ctx, load, api.url, baseline.url, big, others);
    if (!options.skip.has('lag')) await lagPhase(ctx, load, api.url, [big, ...others]);

    clearInterval(rssTimer);
    rssTimer = null;
    const end = sampleRss();
    // Judged on the peak (sampled every 500 ms): what the processes needed, not what they kept.
    ctx.figures.push({
      section: 'memory',
      name: 'peak RSS during the load, API server and its projector child together',
      value: peakTotalRss > 0 ? peakTotalRss / MB : null,
      unit: 'MB',
      target: { atMost: 300 },
      note:
        `peaks: API process ${format(peakRss / MB)} MB, projector child ${format(peakChildRss / MB)} MB; ` +
        `at the end of the load ${format(end.apiRss / MB)} MB and ${format(end.childRss / MB)} MB`,
    });
    await load.stop();
    load = null;
    await baseline.stop();
    baseline = null;
    await api.stop();
    api = null;

    if (!options.skip.has('rebuild')) await rebuildPhase(ctx);
    if (!options.skip.has('frontend')) frontendPhase(ctx, repoRoot);
    if (!options.skip.has('screens')) screensPhase(ctx, repoRoot);

    const evaluated = ctx.figures.map(evaluate);
    const finished = new Date();
    console.log(`\nnpm run bench${options.quick ? ' -- --quick' : ''}: ${Math.round((finished.getTime() - started.getTime()) / 1000)} s`);
    console.log(
      `  ${options.customers.toLocaleString('en-US')} customers and ${options.jobs.toLocaleString('en-US')} jobs in one instance, ` +
        `${options.otherInstances} other instances with ${options.otherRows} of each; ${os.cpus().length} CPUs, PostgreSQL ${version}\n`,
    );
    console.log(renderTable(evaluated));
    for (const figure of evaluated.filter((f) => f.note)) console.log(`  ${figure.section}: ${figure.name}: ${figure.note}`);
    const missed = evaluated.filter((f) => f.met === false).length;
    const met = evaluated.filter((f) => f.met === true).length;
    console.log(`\n${met} targets met, ${missed} missed (the benchmark reports; it does not fail on them).`);
    const file = path.join(resultsDir, 'latest.json');
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          startedAt: started.toISOString(),
          finishedAt: finished.toISOString(),
          mode: options.quick ? 'quick' : 'full',
          machine: { cpus: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 1024 ** 3), node: process.version, postgres: version },
          sizes: {
            customers: options.customers,
            jobs: options.jobs,
            otherInstances: options.otherInstances,
            otherRows: options.otherRows,
            autocannonSeconds: options.duration,
            readConnections: options.readConnections,
          },
          figures: evaluated,
          markdown: renderMarkdown(evaluated),
          details: ctx.details,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`Written to ${path.relative(process.cwd(), file) || file}`);
  } finally {
    await cleanup();
  }
}

// ---- append: ours against emmett --------------------------------------------------------

const APPEND_MODE_NAMES: Record<AppendScenario['mode'], string> = {
  new: 'new streams',
  hot: '100 hot streams',
  contended: '4 contended streams (all appenders on them)',
};

async function appendPhase(ctx: Context): Promise<void> {
  const { options } = ctx;
  const rounds = options.quick ? 1 : 3;
  const scenarios: AppendScenario[] = (['new', 'hot', 'contended'] as const).flatMap((mode) =>
    options.appenders.map((appenders) => ({ mode, appenders, durationMs: options.appendMs / rounds })),
  );
  const stores = ['ours', 'emmett'] as const;
  const workers = stores.map(() => startIpcWorker<AppendWorkerMessage, AppendScenarioResult>('bench-append.js'));
  const results: Record<AppendStore, AppendScenarioResult[]> = { ours: [], emmett: [] };
  try {
    await Promise.all(workers.map((worker, i) => worker.call({ id: 0, store: stores[i]!, url: ctx.databaseUrl })));
    const progress = createProgress(`append: ours and emmett (${rounds} round${rounds > 1 ? 's' : ''} each)`, 'runs');
    const runs = scenarios.length * stores.length * rounds;
    let done = 0;
    for (const scenario of scenarios) {
      const parts: Record<AppendStore, AppendScenarioResult[]> = { ours: [], emmett: [] };
      // Alternating in short rounds, so load from elsewhere on the machine hits both alike.
      for (let round = 0; round < rounds; round++) {
        for (const [i, store] of stores.entries()) {
          parts[store].push(await workers[i]!.call({ id: 0, scenario }));
          progress(++done, runs);
        }
      }
      for (const store of stores) {
        const all = parts[store];
        const events = all.reduce((sum, r) => sum + r.events, 0);
        const seconds = all.reduce((sum, r) => sum + r.events / Math.max(r.eventsPerSecond, 1e-9), 0);
        results[store].push({
          ...scenario,
          durationMs: options.appendMs,
          events,
          eventsPerSecond: seconds > 0 ? events / seconds : 0,
          errors: all.reduce((sum, r) => sum + r.errors, 0),
          firstError: all.find((r) => r.firstError)?.firstError,
        });
      }
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
  scenarios.forEach((scenario, i) => {
    const ours = results.ours[i]!;
    const peer = results.emmett[i]!;
    const errors = ours.errors + peer.errors;
    ctx.figures.push({
      section: 'append',
      name: `${APPEND_MODE_NAMES[scenario.mode]}, ${scenario.appenders} appender${scenario.appenders > 1 ? 's' : ''}`,
      value: ours.eventsPerSecond,
      unit: 'ev/s',
      baseline: peer.eventsPerSecond,
      baselineName: 'emmett-postgresql',
      target: { ratioAtLeast: 1 },
      note: errors ? `errors: ours ${ours.errors} (${ours.firstError ?? ''}), emmett ${peer.errors} (${peer.firstError ?? ''})` : undefined,
    });
  });
  ctx.details.append = results;
  // The API's phases start from an empty event store.
  await ctx.pool.query('TRUNCATE events, streams');
}

// ---- seeding ------------------------------------------------------------------------------

async function seedPhase(ctx: Context, domain: SeedDomain, instances: BenchInstance[]): Promise<SeededInstance[]> {
  const { options, pool } = ctx;
  const sizes = instances.map((_, i) =>
    i === 0 ? { customers: options.customers, jobs: options.jobs } : { customers: options.otherRows, jobs: options.otherRows },
  );
  const total = sizes.reduce((sum, s) => sum + s.customers + s.jobs + (s.jobs > 0 ? 1 : 0), 0);
  const progress = createProgress('seeding (events written)', 'records');
  let written = 0;
  const seedStarted = performance.now();
  const seeded: SeededInstance[] = [];
  const knex = createKnex(ctx.databaseUrl, 4);
  try {
    for (const [i, instance] of instances.entries()) {
      seeded.push(
        await seedInstance(domain, {
          instanceId: instance.id,
          ...sizes[i]!,
          seed: 42 + i,
          write: (streams) => writeStreams(knex, streams),
          onWritten: (records) => progress((written += records), total),
        }),
      );
    }
  } finally {
    await knex.destroy();
  }
  const writeSeconds = (performance.now() - seedStarted) / 1000;

  // The server's projector catches up on everything written.
  const events = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
  const projecting = createProgress('projecting (events)', 'events');
  const projectStarted = performance.now();
  let last = -1;
  let lastChange = Date.now();
  for (;;) {
    const projected = await projectedCount(pool);
    projecting(Math.min(projected, events), events);
    if (projected >= events) break;
    if (projected !== last) {
      last = projected;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > 300_000) {
      throw new Error(`the projector made no progress for 5 minutes at ${projected} of ${events} events; see bench/results/server.log`);
    }
    await sleep(1000);
  }
  const projectSeconds = (performance.now() - projectStarted) / 1000;
  // Where autovacuum would get to on its own after this many inserts: visibility map, statistics.
  await pool.query('VACUUM (ANALYZE)');
  ctx.details.seed = { records: total, events, writeSeconds, projectSeconds, projectedEventsPerSecond: events / projectSeconds };
  log(
    `seeded ${format(total)} records in ${format(writeSeconds)} s; the server projected ${format(events)} events in ${format(projectSeconds)} s`,
  );
  return seeded;
}

/** How many events the main projector's checkpoint has passed. */
async function projectedCount(pool: pg.Pool): Promise<number> {
  const checkpoint = (
    await pool.query<{ commit: string; prepare: string }>(
      `SELECT position_commit::text AS commit, position_prepare::text AS prepare FROM projection_checkpoints WHERE name = 'main'`,
    )
  ).rows[0];
  if (!checkpoint || BigInt(checkpoint.commit) < 0n) return 0;
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE (tx_id, seq) <= ($1::text::xid8, $2::bigint)', [
    checkpoint.commit,
    checkpoint.prepare,
  ]);
  return Number(rows[0]!.n);
}

// ---- HTTP load -------------------------------------------------------------------------

/** One request first: a scenario whose route does not answer 2xx is reported, not timed. */
async function probe(url: string, target: LoadTarget): Promise<string | null> {
  const response = await fetch(url + target.path, { headers: target.cookie ? { cookie: target.cookie } : {} });
  const text = await response.text();
  return response.ok ? null : `${response.status} ${text.slice(0, 200)}`;
}

async function measure(load: LoadGenerator, spec: LoadSpec): Promise<LoadResult> {
  return await load.run(spec);
}

const latencyNote = (r: LoadResult) =>
  `p50 ${format(r.latency.p50)} ms, p99 ${format(r.latency.p99)} ms${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx ${JSON.stringify(r.statuses)}, ${r.errors} errors` : ''}`;

async function readsPhase(ctx: Context, load: LoadGenerator, apiUrl: string, baselineUrl: string, big: BenchInstance & SeededInstance) {
  const { options } = ctx;
  const monday = new Date();
  monday.setUTCHours(0, 0, 0, 0);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  // The week before this one: appointments fall within two weeks after a job's creation.
  const from = new Date(monday.getTime() - 7 * 86_400_000).toISOString();
  const to = monday.toISOString();
  const inst = `instance=${big.id}`;
  const scenarios: Array<{ name: string; api: string; baseline: string }> = [
    { name: 'pipeline list, first page', api: `/api/${big.subdomain}/pipeline`, baseline: `/reads/jobs-list?${inst}` },
    {
      name: `pipeline search ?q=${SEARCH}`,
      api: `/api/${big.subdomain}/pipeline?q=${SEARCH}`,
      baseline: `/reads/jobs-list?${inst}&q=${SEARCH}`,
    },
    { name: 'customer list, first page', api: '/api/customers', baseline: `/reads/customers-list?${inst}` },
    { name: `customer search ?q=${SEARCH}`, api: `/api/customers?q=${SEARCH}`, baseline: `/reads/customers-list?${inst}&q=${SEARCH}` },
    {
      name: `autocomplete ?query=${AUTOCOMPLETE}`,
      api: `/api/customers/search?query=${AUTOCOMPLETE}`,
      baseline: `/reads/autocomplete?${inst}&query=${AUTOCOMPLETE}`,
    },
    { name: 'audit log, first page', api: '/api/admin/audit', baseline: `/reads/audit?${inst}` },
    {
      name: 'calendar week',
      api: `/api/calendar/appointments?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      baseline: `/reads/calendar?${inst}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    },
  ];
  const progress = createProgress(`reads (${options.readConnections} connections, ${options.duration} s each)`, 'runs');
  const details: Record<string, unknown> = {};
  let done = 0;
  for (const scenario of scenarios) {
    const apiTarget: LoadTarget = { path: scenario.api, cookie: big.cookie };
    const baseTarget: LoadTarget = { path: scenario.baseline };
    const failed = (await probe(apiUrl, apiTarget)) ?? (await probe(baselineUrl, baseTarget));
    if (failed) {
      ctx.figures.push({ section: 'reads', name: scenario.name, value: null, unit: 'req/s', note: `not measured: ${failed}` });
      progress((done += 2), scenarios.length * 2);
      continue;
    }
    const spec = { kind: 'get' as LoadKind, connections: options.readConnections, duration: options.duration };
    const ours = await measure(load, { ...spec, url: apiUrl, targets: [apiTarget] });
    progress(++done, scenarios.length * 2);
    const bare = await measure(load, { ...spec, url: baselineUrl, targets: [baseTarget] });
    progress(++done, scenarios.length * 2);
    details[scenario.name] = { api: ours, baseline: bare };
    ctx.figures.push({
      section: 'reads',
      name: `${scenario.name} (throughput)`,
      value: ours.rps,
      unit: 'req/s',
      baseline: bare.rps,
      baselineName: 'bare Koa + same SQL',
      target: { ratioAtLeast: 0.7 },
      note: `API ${latencyNote(ours)}; baseline ${latencyNote(bare)}`,
    });
    ctx.figures.push({
      section: 'reads',
      name: `${scenario.name} (p99)`,
      value: ours.latency.p99,
      unit: 'ms',
      baseline: bare.latency.p99,
      target: { atMost: 30 },
    });
  }
  ctx.details.reads = details;
}

async function commandsPhase(
  ctx: Context,
  load: LoadGenerator,
  apiUrl: string,
  baselineUrl: string,
  big: BenchInstance & SeededInstance,
  others: Array<BenchInstance & SeededInstance>,
) {
  const { options, pool } = ctx;
  // Rows for the baseline's UPDATE, as many as the jobs the API updates.
  const baselineIds = Array.from({ length: Math.min(5000, Math.max(100, big.jobIds.length)) }, () => randomUUID());
  await pool.query(
    `INSERT INTO ${BASELINE_TABLE} (id, instance_id, data)
     SELECT id, $2, jsonb_build_object('notes', '') FROM unnest($1::uuid[]) AS id`,
    [baselineIds, big.id],
  );
  // The CRUD-equivalent baseline updates the same number of rows, copies of one of the instance's jobs.
  await pool.query(
    `INSERT INTO ${CRUD_TABLES.jobs}
     SELECT r.* FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n),
       LATERAL jsonb_populate_record(NULL::${CRUD_TABLES.jobs},
         (SELECT to_jsonb(j) FROM rm.jobs j WHERE j.instance_id = $2 LIMIT 1)
           || jsonb_build_object('id', u.id, 'number', 200000000 + u.n, 'job_number', 'U' || u.n)) AS r`,
    [baselineIds, big.id],
  );
  const spreads = [
    { name: 'one instance', instances: [big] },
    { name: `${others.length} instances`, instances: others },
  ].filter((s) => s.instances.length > 0);
  const operations: Array<{ name: string; kind: LoadKind; method: string }> = [
    { name: 'create job', kind: 'create-job', method: 'POST' },
    { name: 'update job', kind: 'update-job', method: 'PUT' },
  ];
  const total = operations.length * options.commandConnections.length * (spreads.length + 2);
  const progress = createProgress(`commands (${options.duration} s each)`, 'runs');
  let done = 0;
  const details: Record<string, unknown> = {};
  for (const operation of operations) {
    const bases = new Map<number, LoadResult>();
    for (const connections of options.commandConnections) {
      const targets: LoadTarget[] =
        operation.kind === 'create-job' ? [{ path: `/jobs?instance=${big.id}` }] : [{ path: '/jobs', ids: baselineIds }];
      bases.set(
        connections,
        await measure(load, { url: baselineUrl, kind: operation.kind, targets, connections, duration: options.duration }),
      );
      progress(++done, total);
    }
    details[`${operation.name} baseline`] = Object.fromEntries(bases);
    // The same save as a CRUD app makes it (crudSave in baseline-server.ts), with the big instance's session.
    const cruds = new Map<number, LoadResult>();
    for (const connections of options.commandConnections) {
      const targets: LoadTarget[] = [
        { path: '/crud/jobs', cookie: big.cookie, ...(operation.kind === 'update-job' ? { ids: baselineIds } : {}) },
      ];
      cruds.set(
        connections,
        await measure(load, { url: baselineUrl, kind: operation.kind, targets, connections, duration: options.duration }),
      );
      progress(++done, total);
    }
    details[`${operation.name} CRUD equivalent`] = Object.fromEntries(cruds);
    for (const spread of spreads) {
      const results = new Map<number, LoadResult>();
      const targets: LoadTarget[] = spread.instances.map((instance) => ({
        path: `/api/${instance.subdomain}/pipeline`,
        cookie: instance.cookie,
        ids: operation.kind === 'create-job' ? instance.customerIds : instance.jobIds,
      }));
      for (const connections of options.commandConnections) {
        const result = await measure(load, { url: apiUrl, kind: operation.kind, targets, connections, duration: options.duration });
        results.set(connections, result);
        progress(++done, total);
        const bare = bases.get(connections)!;
        const top = connections === Math.max(...options.commandConnections);
        ctx.figures.push({
          section: 'commands',
          name: `${operation.method} ${operation.name}, ${spread.name}, ${connections} conn (throughput)`,
          value: result.rps,
          unit: 'req/s',
          baseline: bare.rps,
          baselineName: `bare Koa + one ${operation.kind === 'create-job' ? 'INSERT' : 'UPDATE'}`,
          target: top ? { ratioAtLeast: 0.5 } : undefined,
          note: `API ${latencyNote(result)}; baseline ${latencyNote(bare)}`,
        });
        const crud = cruds.get(connections)!;
        ctx.figures.push({
          section: 'commands',
          name: `${operation.method} ${operation.name}, ${spread.name}, ${connections} conn (vs CRUD equivalent)`,
          value: result.rps,
          unit: 'req/s',
          baseline: crud.rps,
          baselineName: 'CRUD equivalent: session lookup, tenant setting, jobs row + history + activity in one transaction',
          target: { ratioAtLeast: 1 },
          note: `CRUD ${latencyNote(crud)}`,
        });
        ctx.figures.push({
          section: 'commands',
          name: `${operation.method} ${operation.name}, ${spread.name}, ${connections} conn (p99)`,
          value: result.latency.p99,
          unit: 'ms',
          baseline: bare.latency.p99,
          target: { atMost: 50 },
        });
      }
      const lowest = results.get(Math.min(...options.commandConnections))!;
      const highest = results.get(Math.max(...options.commandConnections))!;
      ctx.figures.push({
        section: 'commands',
        name: `${operation.method} ${operation.name}, ${spread.name}: throughput at ${Math.max(...options.commandConnections)} conn vs 1`,
        value: highest.rps,
        unit: 'req/s',
        baseline: lowest.rps,
        baselineName: 'the same at 1 connection',
        target: { ratioAtLeast: 1 },
      });
      details[`${operation.name}, ${spread.name}`] = Object.fromEntries(results);
    }
  }
  ctx.details.commands = details;
}

async function lagPhase(ctx: Context, load: LoadGenerator, apiUrl: string, instances: Array<BenchInstance & SeededInstance>) {
  const { options, pool } = ctx;
  const checkpoints = await CheckpointLog.start(ctx.databaseUrl);
  try {
    log(`projection lag: job updates at ${options.lagRate}/s for ${options.lagSeconds} s over ${instances.length} instances...`);
    const from = new Date();
    const result = await load.run({
      url: apiUrl,
      kind: 'update-job',
      targets: instances.map((instance) => ({
        path: `/api/${instance.subdomain}/pipeline`,
        cookie: instance.cookie,
        ids: instance.jobIds,
      })),
      connections: 64,
      duration: options.lagSeconds,
      overallRate: options.lagRate,
    });
    const to = new Date();
    // Let the projector pass the last of them (bounded).
    const deadline = Date.now() + 30_000;
    const events = Number(
      (await pool.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE recorded_at >= $1 AND recorded_at < $2', [from, to]))
        .rows[0]!.n,
    );
    let measured = await checkpoints.lagsOfEventsBetween(pool, from, to);
    while (measured.unprojected > 0 && Date.now() < deadline) {
      await sleep(500);
      measured = await checkpoints.lagsOfEventsBetween(pool, from, to);
    }
    const sorted = [...measured.lagsMs].sort((a, b) => a - b);
    const rate = result.ok / result.durationS;
    const note =
      `${format(rate)} commands/s achieved (asked ${options.lagRate}/s), ${events} events, ` +
      `command p99 ${format(result.latency.p99)} ms${measured.unprojected ? `, ${measured.unprojected} events not projected within 30 s` : ''}` +
      (result.non2xx || result.errors ? `, ${result.non2xx} non-2xx ${JSON.stringify(result.statuses)}, ${result.errors} errors` : '');
    ctx.figures.push({
      section: 'lag',
      name: `projection lag p50 at ${options.lagRate} commands/s`,
      value: percentile(sorted, 50),
      unit: 'ms',
      note,
    });
    ctx.figures.push({
      section: 'lag',
      name: `projection lag p99 at ${options.lagRate} commands/s`,
      value: percentile(sorted, 99),
      unit: 'ms',
      target: { atMost: 50 },
    });
    ctx.details.lag = {
      command: result,
      events,
      measured: sorted.length,
      unprojected: measured.unprojected,
      maxMs: sorted[sorted.length - 1] ?? null,
    };
  } finally {
    await checkpoints.stop();
  }
}

// ---- rebuild and frontend ----------------------------------------------------------------

async function rebuildPhase(ctx: Context): Promise<void> {
  const knex = createKnex(ctx.databaseUrl, 4);
  const store = createPostgresEventStore({ connectionString: ctx.databaseUrl });
  try {
    const progress = createProgress('rebuild', 'events');
    const started = performance.now();
    let replayedAt = started;
    const report = await rebuildReadModels({
      store,
      knex,
      projections,
      onProgress: ({ replayed, total }) => {
        replayedAt = performance.now();
        progress(replayed, total);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const replaySeconds = (replayedAt - started) / 1000;
    const copied = await bareCopyOfEvents(knex);
    const steps = Object.entries(report.timings)
      .map(([step, ms]) => `${step} ${format(ms / 1000)} s`)
      .join(', ');
    ctx.figures.push({
      section: 'rebuild',
      name: `${format(report.eventsReplayed)} events (replay, compare, swap)`,
      value: report.eventsReplayed / seconds,
      unit: 'ev/s',
      baseline: copied.eventsPerSecond,
      target: { atLeast: 20_000 },
      note:
        `${format(seconds)} s in all (${steps}); replay alone ${format(report.eventsReplayed / replaySeconds)} ev/s; ` +
        `tables identical: ${report.identical}; baseline: one INSERT … SELECT copying the ${format(copied.events)} event rows into a fresh table`,
    });
    ctx.details.rebuild = {
      seconds,
      replaySeconds,
      timings: report.timings,
      events: report.eventsReplayed,
      identical: report.identical,
      tables: report.tables,
      bareCopy: copied,
    };
  } finally {
    await store.close();
    await knex.destroy();
  }
}

/**
 * The rebuild's baseline in the same run: PostgreSQL copying the same event rows into a
 * fresh table in one statement (no parsing, no read models), events per second.
 */
async function bareCopyOfEvents(knex: Knex): Promise<{ events: number; seconds: number; eventsPerSecond: number }> {
  await knex.raw('DROP TABLE IF EXISTS bench_events_copy');
  const started = performance.now();
  const result = await knex.raw<{ rowCount: number }>('CREATE UNLOGGED TABLE bench_events_copy AS SELECT * FROM events');
  const seconds = (performance.now() - started) / 1000;
  await knex.raw('DROP TABLE bench_events_copy');
  const events = result.rowCount;
  return { events, seconds, eventsPerSecond: events / seconds };
}

/**
 * The pipeline screen against the customers screen with the same rows, in Chromium
 * (bench-screens.ts, its own process and database on this server): time until the rows
 * show, and the longest main-thread task while loading them and while typing a search.
 */
function screensPhase(ctx: Context, repoRoot: string): void {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const rows = ctx.options.screenRows;
  const name = `pipeline screen, ${rows} rows`;
  if (!existsSync(chrome)) {
    ctx.figures.push({ section: 'screens', name, value: null, unit: 'ms', note: `not measured: no Chromium at ${chrome}` });
    return;
  }
  log(`Screens: the pipeline and customers screens with ${rows} rows each, in Chromium...`);
  const out = path.join(os.tmpdir(), `crm-bench-screens-${process.pid}.json`);
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'backend/dist/bench-screens.js')], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: ctx.databaseUrl, BENCH_SCREEN_ROWS: String(rows), BENCH_SCREENS_OUT: out },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (run.status !== 0 || !existsSync(out)) {
    ctx.figures.push({ section: 'screens', name, value: null, unit: 'ms', note: `not measured: the screens run exited ${run.status}` });
    return;
  }
  const report = JSON.parse(readFileSync(out, 'utf8')) as ScreensReport;
  rmSync(out, { force: true });
  const baselineName = `customers screen, ${rows} rows`;
  const { pipeline, customers } = report;
  ctx.figures.push(
    {
      section: 'screens',
      name: `${name}: first page shown`,
      value: pipeline.firstRowsMs,
      unit: 'ms',
      baseline: customers.firstRowsMs,
      baselineName,
      target: { ratioAtMost: 1.5 },
    },
    {
      section: 'screens',
      name: `${name}: all rows shown`,
      value: pipeline.allRowsMs,
      unit: 'ms',
      baseline: customers.allRowsMs,
      baselineName,
      target: { ratioAtMost: 1.5 },
    },
    // A long task is one over 50 ms; under 200 ms a screen still feels immediate.
    {
      section: 'screens',
      name: `${name}: longest task while loading`,
      value: pipeline.longestTaskMs,
      unit: 'ms',
      baseline: customers.longestTaskMs,
      baselineName,
      target: { atMost: 200 },
    },
    {
      section: 'screens',
      name: `${name}: longest task while typing a search`,
      value: pipeline.typingLongestTaskMs,
      unit: 'ms',
      baseline: customers.typingLongestTaskMs,
      baselineName,
      target: { atMost: 200 },
    },
  );
  ctx.details.screens = report;
}

function frontendPhase(ctx: Context, repoRoot: string): void {
  const dist = path.join(repoRoot, 'frontend/dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    log('Building the frontend (frontend/dist is missing)...');
    const built = spawnSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: repoRoot, stdio: 'inherit' });
    if (built.status !== 0) {
      ctx.figures.push({ section: 'frontend', name: 'initial JS (gzip)', value: null, unit: 'KB', note: 'not measured: the build failed' });
      return;
    }
  }
  const sizes = measureFrontend(dist);
  ctx.figures.push({
    section: 'frontend',
    name: `initial JS, ${sizes.initialFiles.length} files (gzip)`,
    value: sizes.initialJsGzip / 1024,
    unit: 'KB',
    target: { atMost: 250 },
    note: `initial CSS ${format(sizes.initialCssGzip / 1024)} KB gzip; ${sizes.lazyChunks} lazy chunks`,
  });
  ctx.figures.push({
    section: 'frontend',
    name: `largest lazy chunk${sizes.largestLazy ? ` (${path.basename(sizes.largestLazy.file)})` : ''} (gzip)`,
    value: sizes.largestLazy ? sizes.largestLazy.gzip / 1024 : null,
    unit: 'KB',
  });
  ctx.details.frontend = sizes;
}
