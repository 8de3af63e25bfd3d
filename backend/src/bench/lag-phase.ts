import { appendFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { comparePositions, type GlobalPosition } from '@crm/projections/eventstore/port';
import pg from 'pg';
import type { BenchInstance } from './api-client.ts';
import { CheckpointLog, percentile } from './lag.ts';
import type { LoadResult } from './load-types.ts';
import { statementsDump, statementsReset } from './pg-statements.ts';
import { log, type PhaseContext } from './phase.ts';
import { PROJECTOR_THREAD_NAME } from '../infra/thread-name.ts';
import { namedThreadsCpuMs, postgresCpuReader, processCpuMs, threadCpuMs } from './postgres-cpu.ts';
import type { LoadGenerator } from './processes.ts';
import { format } from './report.ts';
import type { SeededInstance } from './seed.ts';

/** A run counts as at the rate asked when it achieved at least this share of it. */
const SUSTAINED_SHARE = 0.95;
/** How long the workers may take to catch up before a run (the seeding's reactions, the previous run's backlog). */
const SETTLE_TIMEOUT_MS = 60_000;
/** Unmeasured job updates before the first run, so the first measured second is not the API's warm-up. */
const WARM_UP_SECONDS = 1;

/**
 * Projection lag while job updates come in at a steady rate over all instances: at the
 * target's rate, and first at a rate this machine sustains. Each run starts with every
 * checkpointed worker (projector and reactors) caught up with the log, so what it measures
 * is the lag at that rate, not a backlog left by the seeding or an earlier run. Whether the
 * machine achieved the rate asked is a figure of its own: a lag "at 300/s" measured while
 * only 200/s got through is a lag at 200/s.
 */
export async function lagPhase(
  ctx: PhaseContext,
  load: LoadGenerator,
  apiUrl: string,
  instances: Array<BenchInstance & SeededInstance>,
  apiPid?: number,
) {
  const { options } = ctx;
  const checkpoints = await CheckpointLog.start(ctx.databaseUrl);
  const cpu = await cpuReader(ctx.pool, apiPid);
  try {
    const settled = [await settle(ctx.pool)];
    ctx.details.lagCheckpoint = await recycleWal(ctx.pool);
    await runAt(ctx, load, apiUrl, instances, Math.min(options.lagRate, options.lagSustainedRate || options.lagRate), WARM_UP_SECONDS);
    const runs: Record<string, unknown> = {};
    const rates = options.lagSustainedRate > 0 && options.lagSustainedRate < options.lagRate ? [options.lagSustainedRate] : [];
    for (const rate of [...rates, options.lagRate]) {
      settled.push(await settle(ctx.pool));
      runs[`${rate}/s`] = await measure(ctx, checkpoints, cpu, load, apiUrl, instances, rate, rate === options.lagRate);
    }
    ctx.details.lag = { settled, runs };
  } finally {
    await checkpoints.stop();
  }
}

function runAt(
  ctx: PhaseContext,
  load: LoadGenerator,
  apiUrl: string,
  instances: Array<BenchInstance & SeededInstance>,
  rate: number,
  seconds: number,
) {
  return load.run({
    url: apiUrl,
    kind: 'update-job',
    targets: instances.map((instance) => ({
      path: `/api/${instance.subdomain}/pipeline`,
      cookie: instance.cookie,
      ids: instance.jobIds,
    })),
    connections: 64,
    duration: seconds,
    overallRate: rate,
  });
}

async function measure(
  ctx: PhaseContext,
  checkpoints: CheckpointLog,
  cpu: () => CpuReading,
  load: LoadGenerator,
  apiUrl: string,
  instances: Array<BenchInstance & SeededInstance>,
  rate: number,
  target: boolean,
) {
  const { options, pool } = ctx;
  log(`projection lag: job updates at ${rate}/s for ${options.lagSeconds} s over ${instances.length} instances...`);
  await statementsReset(pool);
  const cpuBefore = cpu();
  const walBefore = await walReading(pool);
  const from = new Date();
  const sampling = process.env.BENCH_LAG_EVENTS ? sampleTransactions(ctx.databaseUrl, `${process.env.BENCH_LAG_EVENTS}.xids`, rate) : null;
  const result: LoadResult = await runAt(ctx, load, apiUrl, instances, rate, options.lagSeconds);
  await sampling?.stop();
  const to = new Date();
  const wal = walDifference(walBefore, await walReading(pool));
  // Let the projector pass the last of them (bounded).
  const deadline = Date.now() + 30_000;
  const events = Number(
    (await pool.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE recorded_at >= $1 AND recorded_at < $2', [from, to])).rows[0]!
      .n,
  );
  let measured = await checkpoints.lagsOfEventsBetween(pool, from, to);
  while (measured.unprojected > 0 && Date.now() < deadline) {
    await sleep(500);
    measured = await checkpoints.lagsOfEventsBetween(pool, from, to);
  }
  const cpuPerEvent = perEvent(cpuBefore, cpu(), events);
  if (process.env.BENCH_LAG_EVENTS) await writeLagEvents(process.env.BENCH_LAG_EVENTS, rate, checkpoints, pool, from, to);
  await statementsDump(pool, `${rate}/s`, 'calls', 60);
  const fromAppend = [...measured.lagsMs].sort((a, b) => a - b);
  // The read models' lag is from the commit (no reader sees an event before it); without
  // commit times (an external server without track_commit_timestamp), from the append.
  const sorted = measured.sinceCommitMs ? [...measured.sinceCommitMs].sort((a, b) => a - b) : fromAppend;
  const achieved = result.ok / result.durationS;
  const sustained = achieved >= SUSTAINED_SHARE * rate;
  const note =
    (sustained ? '' : `NOT at the rate asked: the machine sustained ${format(achieved)} of ${rate} commands/s; `) +
    (measured.sinceCommitMs ? "from each event's commit; " : "from each event's append (no commit times on this server); ") +
    `${format(achieved)} commands/s achieved (asked ${rate}/s), ${events} events, ` +
    `command p50 ${format(result.latency.p50)} ms, p99 ${format(result.latency.p99)} ms` +
    (measured.unprojected ? `, ${measured.unprojected} events not projected within 30 s` : '') +
    cpuNote(cpuPerEvent) +
    walNote(wal, events) +
    (result.non2xx || result.errors ? `, ${result.non2xx} non-2xx ${JSON.stringify(result.statuses)}, ${result.errors} errors` : '');
  ctx.figures.push({ section: 'lag', name: `projection lag p50 at ${rate} commands/s`, value: percentile(sorted, 50), unit: 'ms', note });
  ctx.figures.push({
    section: 'lag',
    name: `projection lag p99 at ${rate} commands/s`,
    value: percentile(sorted, 99),
    unit: 'ms',
    ...(target ? { target: { atMost: 50 } } : {}),
  });
  if (measured.sinceCommitMs) {
    ctx.figures.push({
      section: 'lag',
      name: `projection lag p99 at ${rate} commands/s from the append`,
      value: percentile(fromAppend, 99),
      unit: 'ms',
      note: `p50 ${format(percentile(fromAppend, 50))} ms; includes the command's own wait for a connection and its transaction before the commit`,
    });
  }
  if (target) {
    // The lag target holds at its rate: when the machine could not send that many, the
    // lag above was measured at fewer, and this says so in the result column.
    ctx.figures.push({
      section: 'lag',
      name: `commands/s achieved in the ${rate}/s lag run (the lag target's load)`,
      value: achieved,
      unit: 'commands/s',
      target: { atLeast: SUSTAINED_SHARE * rate },
    });
  }
  return {
    command: result,
    events,
    cpuPerEvent,
    wal,
    measured: sorted.length,
    unprojected: measured.unprojected,
    maxMs: sorted[sorted.length - 1] ?? null,
  };
}

/**
 * Each event's append, commit and pass by the main projector (epoch ms), one JSON line per
 * event, for lining up a slow event with the projector's trace of its batches (PROJECTOR_TRACE).
 */
async function writeLagEvents(file: string, rate: number, checkpoints: CheckpointLog, pool: pg.Pool, from: Date, to: Date) {
  const detail: Parameters<CheckpointLog['lagsOfEventsBetween']>[3] = [];
  await checkpoints.lagsOfEventsBetween(pool, from, to, detail);
  await appendFile(file, detail.map((event) => `${JSON.stringify({ rate, ...event })}\n`).join(''));
}

/** Samples (every 2 ms) the transactions that hold an xid, for what held the log's horizon back. */
function sampleTransactions(url: string, file: string, rate: number) {
  let stopping = false;
  const seen = new Map<string, { xid: string; pid: number; first: number; last: number; state: string; waits: string[]; query: string }>();
  const running = (async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      while (!stopping) {
        const { rows } = await client.query<{ pid: number; xid: string; state: string; query: string; wait: string | null }>(
          `SELECT pid, backend_xid::text AS xid, state, left(query, 120) AS query, wait_event_type || ':' || wait_event AS wait
             FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()`,
        );
        const at = performance.timeOrigin + performance.now();
        for (const row of rows) {
          const key = `${row.pid}:${row.xid}`;
          const known = seen.get(key);
          // Every wait seen, active or not: a commit stalled on a new WAL file shows as active.
          const wait = `${row.state} ${row.wait ?? ''}`;
          if (known) {
            known.last = at;
            if (row.state !== 'active') known.state = wait;
            if (!known.waits.includes(wait)) known.waits.push(wait);
          } else seen.set(key, { xid: row.xid, pid: row.pid, first: at, last: at, state: wait, waits: [wait], query: row.query });
        }
        await sleep(2);
      }
    } finally {
      await client.end();
    }
  })();
  return {
    async stop() {
      stopping = true;
      await running;
      await appendFile(file, [...seen.values()].map((x) => `${JSON.stringify({ rate, ...x })}\n`).join(''));
    },
  };
}

/**
 * A CHECKPOINT before the lag runs, so they meet the WAL files a running server has. A
 * server reuses (renames) the WAL files a checkpoint has left behind for the WAL it writes
 * next; until its first checkpoint it has none to reuse, and creates and zero-fills a new 16
 * MB file every 16 MB of WAL (one such file took 123 ms, and every commit behind it waited).
 * The benchmark's cluster is minutes old at this point and may not have checkpointed yet,
 * which no shop's long-running server is in. The checkpoint writes out what the seeding and
 * the earlier phases left in memory now, before anything is measured; the runs then start
 * right after a checkpoint, when PostgreSQL logs whole pages on their first change again,
 * which makes them write more WAL, not less. Null when it could not (an external server
 * whose user may not run CHECKPOINT): the runs then measure the server as it is.
 */
async function recycleWal(pool: pg.Pool): Promise<{ ms: number } | null> {
  const started = performance.now();
  try {
    await pool.query('CHECKPOINT');
  } catch (error) {
    log(`  no CHECKPOINT before the lag runs: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  return { ms: Math.round(performance.now() - started) };
}

interface WalReading {
  lsn: string;
  /** Bytes written to create and zero-fill new WAL files (PostgreSQL 18's pg_stat_io); null before 18. */
  initBytes: number | null;
  segmentBytes: number;
}

async function walReading(pool: pg.Pool): Promise<WalReading | null> {
  try {
    const { rows } = await pool.query<{ lsn: string; segment: string }>(
      `SELECT pg_current_wal_lsn()::text AS lsn, setting AS segment FROM pg_settings WHERE name = 'wal_segment_size'`,
    );
    let initBytes: number | null = null;
    try {
      const io = await pool.query<{ bytes: string }>(
        `SELECT coalesce(sum(write_bytes), 0)::text AS bytes FROM pg_stat_io WHERE object = 'wal' AND context = 'init'`,
      );
      initBytes = Number(io.rows[0]!.bytes);
    } catch {
      // Before PostgreSQL 18 pg_stat_io has no WAL rows.
    }
    return { lsn: rows[0]!.lsn, initBytes, segmentBytes: Number(rows[0]!.segment) };
  } catch {
    return null;
  }
}

/** WAL written between two readings, and how many new WAL files PostgreSQL created meanwhile. */
function walDifference(before: WalReading | null, after: WalReading | null) {
  if (!before || !after) return null;
  const lsn = (text: string) => {
    const [high, low] = text.split('/');
    return Number.parseInt(high!, 16) * 2 ** 32 + Number.parseInt(low!, 16);
  };
  const created = before.initBytes === null || after.initBytes === null ? null : (after.initBytes - before.initBytes) / after.segmentBytes;
  return { bytes: lsn(after.lsn) - lsn(before.lsn), filesCreated: created };
}

function walNote(wal: ReturnType<typeof walDifference>, events: number): string {
  if (!wal) return '';
  const perEvent = events ? `, ${format(wal.bytes / events / 1024)} KB per event` : '';
  const created = wal.filesCreated === null ? '' : `, ${format(wal.filesCreated)} new WAL files created and zero-filled`;
  return `; WAL ${format(wal.bytes / 2 ** 20)} MB written${perEvent}${created}`;
}

/**
 * Waits (bounded) until the main projector and every reactor have passed the last event in
 * the log; how long that took, and which had not when the time ran out.
 */
async function settle(pool: pg.Pool): Promise<{ ms: number; behind: string[] }> {
  const started = Date.now();
  const head = (
    await pool.query<{ tx: string; seq: string }>(
      'SELECT tx_id::text AS tx, seq::text AS seq FROM events ORDER BY tx_id DESC, seq DESC LIMIT 1',
    )
  ).rows[0];
  if (!head) return { ms: 0, behind: [] };
  const target: GlobalPosition = { commit: BigInt(head.tx), prepare: BigInt(head.seq) };
  let behind: string[];
  do {
    const { rows } = await pool.query<{ name: string; commit: string; prepare: string }>(
      `SELECT name, position_commit::text AS commit, position_prepare::text AS prepare
         FROM projection_checkpoints WHERE name = 'main' OR name LIKE 'reactor:%'`,
    );
    behind = rows
      .filter((row) => comparePositions({ commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, target) < 0)
      .map((row) => row.name);
    if (behind.length === 0) break;
    await sleep(200);
  } while (Date.now() - started < SETTLE_TIMEOUT_MS);
  const ms = Date.now() - started;
  log(
    `  workers caught up with the log in ${format(ms)} ms${behind.length ? ` (still behind after ${SETTLE_TIMEOUT_MS / 1000} s: ${behind.join(', ')})` : ''}`,
  );
  return { ms, behind };
}

/** CPU milliseconds used so far: the API's main thread, its projector thread, all its threads, PostgreSQL. */
interface CpuReading {
  main: number | null;
  projector: number | null;
  all: number | null;
  postgres: number | null;
}

async function cpuReader(pool: pg.Pool, apiPid: number | undefined): Promise<() => CpuReading> {
  const postgres = await postgresCpuReader(pool);
  return () => ({
    main: apiPid === undefined ? null : threadCpuMs(apiPid, apiPid),
    projector: apiPid === undefined ? null : namedThreadsCpuMs(apiPid, PROJECTOR_THREAD_NAME),
    all: apiPid === undefined ? null : processCpuMs(apiPid),
    postgres: postgres ? postgres() : null,
  });
}

/**
 * CPU per event from the run's start until the projector passed its last event: the
 * commands' work (main thread), the projector's and reactors' (the projector thread), V8's
 * and I/O helper threads (other threads) and both sides' PostgreSQL work. Unlike the lag, it does not grow with other work on the machine.
 */
function perEvent(before: CpuReading, after: CpuReading, events: number) {
  const per = (a: number | null, b: number | null) => (a === null || b === null || events === 0 ? null : (b - a) / events);
  const main = per(before.main, after.main);
  const projector = per(before.projector, after.projector);
  const all = per(before.all, after.all);
  return {
    main,
    projector,
    others: main === null || all === null ? null : all - main - (projector ?? 0),
    postgres: per(before.postgres, after.postgres),
  };
}

function cpuNote(cpu: ReturnType<typeof perEvent>): string {
  const ms = (value: number | null) => (value === null ? '?' : value.toFixed(2));
  return `, CPU per event: API main thread ${ms(cpu.main)} ms + projector thread ${ms(cpu.projector)} ms + other threads ${ms(cpu.others)} ms + PostgreSQL ${ms(cpu.postgres)} ms`;
}
