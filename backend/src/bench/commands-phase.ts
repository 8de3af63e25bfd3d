import { randomUUID } from 'node:crypto';
import { createProgress } from '../cli.ts';
import type { BenchInstance } from './api-client.ts';
import { BASELINE_TABLE, CRUD_TABLES } from './baseline-sql.ts';
import type { LoadKind, LoadResult, LoadTarget } from './load-types.ts';
import { log, type PhaseContext } from './phase.ts';
import { statementsDump, statementsReset } from './pg-statements.ts';
import { sampleWaits } from './pg-waits.ts';
import { PROJECTOR_THREAD_NAME } from '../infra/thread-name.ts';
import { namedThreadsCpuMs, postgresCpuReader, processCpuMs, threadCpuMs } from './postgres-cpu.ts';
import type { LoadGenerator } from './processes.ts';
import { latencyNote, p99Figure } from './report.ts';
import type { SeededInstance } from './seed.ts';

/** Seconds of unmeasured load at 8 connections on each route before its runs (see warmUp). */
const WARM_UP_SECONDS = 4;

/**
 * The command path: creating and updating jobs in one instance and spread over the others,
 * against bare Koa with one INSERT/UPDATE and against the same save done the CRUD way.
 */
export async function commandsPhase(
  ctx: PhaseContext,
  load: LoadGenerator,
  apiUrl: string,
  baselineUrl: string,
  big: BenchInstance & SeededInstance,
  others: Array<BenchInstance & SeededInstance>,
  pids: { api: number | undefined; baseline: number | undefined },
) {
  const { options, pool } = ctx;
  const postgresCpu = await postgresCpuReader(pool);
  /**
   * Every run starts with the projector and the reactors caught up: the seeding's events
   * (the reactors work through them for tens of seconds after the projector has) and the
   * previous run's would otherwise be processed during this run, charging one side's
   * asynchronous work to the other's figure (baselines included). The asynchronous work a
   * run's own commands cause still runs during it and is in its figures.
   */
  const settle = async () => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const { rows } = await pool.query<{ behind: string }>(
        `SELECT count(*) AS behind FROM projection_checkpoints c
          WHERE (c.name = 'main' OR c.name LIKE 'reactor:%')
            AND EXISTS (SELECT 1 FROM events e WHERE CASE WHEN c.position_commit < 0 THEN true
                 ELSE (e.tx_id, e.seq) > (c.position_commit::text::xid8, c.position_prepare::bigint) END)`,
      );
      if (Number(rows[0]!.behind) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    log('commands: the projector or a reactor was still behind after 60 s; measuring anyway');
  };
  /**
   * Unmeasured load on a route before its measured runs, once the asynchronous work has
   * settled: a second at one connection, then WARM_UP_SECONDS at 8. A first run otherwise
   * measures code still being compiled, on the API's main thread and on its projector thread
   * (which meets the command's events only now). With one second at one connection, whichever
   * spread of creates ran first took 1.6-2.8 times the projector thread's CPU per create of the
   * same runs made second (one instance first: 0.57 / 0.59 / 0.74x the CRUD equivalent at
   * 1 / 8 / 32 connections, then ten instances 0.96 / 0.87 / 0.85x; ten first: 0.67 / 0.52 /
   * 0.66x, then one instance 0.87 / 0.66 / 0.82x).
   */
  // The measured runs settle before they start, so the warm-up's own projector work is not in them.
  const warmUp = async (url: string, kind: LoadKind, targets: LoadTarget[]) => {
    await settle();
    await load.run({ url, kind, targets, connections: 1, duration: 1 });
    await load.run({ url, kind, targets, connections: 8, duration: WARM_UP_SECONDS });
  };
  /**
   * A load run with the CPU each process spent on it per answered command: the server's main
   * thread (its event loop), the API's projector thread (by its name), its other threads
   * (V8's garbage collection and compiler helpers, I/O) and PostgreSQL (every backend, the
   * projector's included). At one connection the
   * machine is not saturated and req/s is latency; at 8 and 32 it is CPU, and this says whose.
   * The projector's work on a run's last commands may land in the next run.
   */
  const withCpu = async (
    pid: number | undefined,
    label: string,
    run: () => Promise<LoadResult>,
  ): Promise<LoadResult & { cpu: CpuPerCommand | null }> => {
    await settle();
    // BENCH_PG_WAITS: what PostgreSQL's backends wait for during the run (row locks, WAL flushes).
    const waits = sampleWaits(pool);
    const read = () => ({
      main: pid === undefined ? null : threadCpuMs(pid, pid),
      projector: pid === undefined ? null : namedThreadsCpuMs(pid, PROJECTOR_THREAD_NAME),
      all: pid === undefined ? null : processCpuMs(pid),
      postgres: postgresCpu ? postgresCpu() : null,
    });
    const before = read();
    const result = await run();
    const after = read();
    await waits.stop(`commands: ${label}`);
    const answered = result.ok + result.non2xx;
    const per = (a: number | null, b: number | null) => (a === null || b === null || answered === 0 ? null : (b - a) / answered);
    const main = per(before.main, after.main);
    const projector = per(before.projector, after.projector);
    const all = per(before.all, after.all);
    return {
      ...result,
      cpu: {
        main,
        projector,
        others: main === null || all === null ? null : all - main - (projector ?? 0),
        postgres: per(before.postgres, after.postgres),
      },
    };
  };
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
    const bareTargets: LoadTarget[] =
      operation.kind === 'create-job' ? [{ path: `/jobs?instance=${big.id}` }] : [{ path: '/jobs', ids: baselineIds }];
    // Every side is warmed up on its route first (see warmUp).
    await warmUp(baselineUrl, operation.kind, bareTargets);
    for (const connections of options.commandConnections) {
      await settle();
      bases.set(
        connections,
        await load.run({ url: baselineUrl, kind: operation.kind, targets: bareTargets, connections, duration: options.duration }),
      );
      progress(++done, total);
    }
    details[`${operation.name} baseline`] = Object.fromEntries(bases);
    // The same save as a CRUD app makes it (crudSave in baseline-server.ts), with the big instance's session.
    const cruds = new Map<number, LoadResult & { cpu: CpuPerCommand | null }>();
    const crudTargets: LoadTarget[] = [
      { path: '/crud/jobs', cookie: big.cookie, ...(operation.kind === 'update-job' ? { ids: baselineIds } : {}) },
    ];
    await warmUp(baselineUrl, operation.kind, crudTargets);
    for (const connections of options.commandConnections) {
      cruds.set(
        connections,
        await withCpu(pids.baseline, `${operation.name}, CRUD equivalent, ${connections} conn`, () =>
          load.run({ url: baselineUrl, kind: operation.kind, targets: crudTargets, connections, duration: options.duration }),
        ),
      );
      progress(++done, total);
    }
    details[`${operation.name} CRUD equivalent`] = Object.fromEntries(cruds);
    const apiTargets = (instances: Array<BenchInstance & SeededInstance>): LoadTarget[] =>
      instances.map((instance) => ({
        path: `/api/${instance.subdomain}/pipeline`,
        cookie: instance.cookie,
        ids: operation.kind === 'create-job' ? instance.customerIds : instance.jobIds,
      }));
    await warmUp(apiUrl, operation.kind, apiTargets(spreads[0]!.instances));
    for (const spread of spreads) {
      const results = new Map<number, LoadResult>();
      const targets = apiTargets(spread.instances);
      for (const connections of options.commandConnections) {
        // BENCH_PG_STATEMENTS: each run's statements (the commands' and the projector's apart).
        await settle();
        await statementsReset(pool);
        const result = await withCpu(pids.api, `${operation.name}, ${spread.name}, ${connections} conn`, () =>
          load.run({ url: apiUrl, kind: operation.kind, targets, connections, duration: options.duration }),
        );
        await statementsDump(pool, `commands: ${operation.name}, ${spread.name}, ${connections} conn`, 'total_exec_time', 25);
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
          note: `CRUD ${latencyNote(crud)}${cpuNote(crud.cpu, 'its server')}; API${cpuNote(result.cpu, 'main thread')}`,
        });
        ctx.figures.push({
          section: 'commands',
          name: `${operation.method} ${operation.name}, ${spread.name}, ${connections} conn (p99)`,
          value: p99Figure(result),
          unit: 'ms',
          baseline: p99Figure(bare),
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

/** CPU milliseconds per answered command, by process; null where /proc could not be read. */
interface CpuPerCommand {
  main: number | null;
  /** The API's projector thread; null for a server without one (the baselines). */
  projector: number | null;
  others: number | null;
  postgres: number | null;
}

function cpuNote(cpu: CpuPerCommand | null, mainName: string): string {
  if (!cpu) return '';
  const ms = (value: number | null) => (value === null ? '?' : value.toFixed(2));
  const projector = cpu.projector === null ? '' : ` + projector thread ${ms(cpu.projector)} ms`;
  return `, CPU per command ${mainName} ${ms(cpu.main)} ms${projector} + other threads ${ms(cpu.others)} ms + PostgreSQL ${ms(cpu.postgres)} ms`;
}
