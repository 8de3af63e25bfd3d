import { appendFileSync } from 'node:fs';
import type pg from 'pg';
import { createProgress } from '../cli.ts';
import type { AppendScenario, AppendScenarioResult, AppendStore, AppendWorkerMessage } from './append-worker.ts';
import type { PhaseContext } from './phase.ts';
import { statementsDump, statementsReset } from './pg-statements.ts';
import { startIpcWorker } from './processes.ts';

/** Event store appends: ours against emmett-postgresql, each in its own worker process, on the same database. */

const APPEND_MODE_NAMES: Record<AppendScenario['mode'], string> = {
  new: 'new streams',
  hot: '100 hot streams',
  contended: '4 contended streams (all appenders on them)',
};

export async function appendPhase(ctx: PhaseContext): Promise<void> {
  const { options } = ctx;
  // One appender's half-second on a shared machine swung 0.6–1.6× from run to run: each
  // scenario gets several rounds, and the note gives the spread of the rounds' ratios.
  const rounds = 3;
  const scenarios: AppendScenario[] = (['new', 'hot', 'contended'] as const).flatMap((mode) =>
    options.appenders.map((appenders) => ({ mode, appenders, durationMs: options.appendMs / rounds })),
  );
  const stores = ['ours', 'emmett'] as const;
  const workers = stores.map(() => startIpcWorker<AppendWorkerMessage, AppendScenarioResult>('bench-append.js'));
  const results: Record<AppendStore, AppendScenarioResult[]> = { ours: [], emmett: [] };
  /** Per scenario, ours ÷ emmett in each round. */
  const spreads: number[][] = [];
  await statementsReset(ctx.pool);
  try {
    await Promise.all(workers.map((worker, i) => worker.call({ id: 0, store: stores[i]!, url: ctx.databaseUrl })));
    const progress = createProgress(`append: ours and emmett (${rounds} round${rounds > 1 ? 's' : ''} each)`, 'runs');
    const runs = scenarios.length * stores.length * 2 * rounds;
    let done = 0;
    for (const scenario of scenarios) {
      const parts: Record<AppendStore, AppendScenarioResult[]> = { ours: [], emmett: [] };
      const roundRatios: number[] = [];
      // Each round runs the contestants in ABBA order, each half of its time before and half
      // after the other's: whatever the run before left behind (the previous scenario's
      // writes being vacuumed, a checkpoint) or a drift in the machine's load falls on both
      // alike, not on whichever goes first.
      const half = { ...scenario, durationMs: scenario.durationMs / 2 };
      for (let round = 0; round < rounds; round++) {
        for (const i of [0, 1, 1, 0]) {
          const sampling = sampleWaits(ctx.pool, stores[i]!);
          parts[stores[i]!].push(await workers[i]!.call({ id: 0, scenario: half }));
          await sampling.stop(scenario);
          progress(++done, runs);
        }
        // This round's two halves of each store.
        roundRatios.push(eventsPerSecondOf(parts.ours.slice(-2)) / eventsPerSecondOf(parts.emmett.slice(-2)));
      }
      spreads.push(roundRatios);
      for (const store of stores) {
        const all = parts[store];
        results[store].push({
          ...scenario,
          durationMs: options.appendMs,
          events: all.reduce((sum, r) => sum + r.events, 0),
          eventsPerSecond: eventsPerSecondOf(all),
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
    const spread = spreads[i] ?? [];
    const perRound = `rounds ${spread.map((r) => `${r.toFixed(2)}×`).join(', ')}`;
    ctx.figures.push({
      section: 'append',
      name: `${APPEND_MODE_NAMES[scenario.mode]}, ${scenario.appenders} appender${scenario.appenders > 1 ? 's' : ''}`,
      value: ours.eventsPerSecond,
      unit: 'ev/s',
      baseline: peer.eventsPerSecond,
      baselineName: 'emmett-postgresql',
      target: { ratioAtLeast: 1 },
      note: errors
        ? `${perRound}; errors: ours ${ours.errors} (${ours.firstError ?? ''}), emmett ${peer.errors} (${peer.firstError ?? ''})`
        : perRound,
    });
  });
  ctx.details.append = results;
  await statementsDump(ctx.pool, 'append phase', 'total_exec_time', 30);
  // The API's phases start from an empty event store.
  await ctx.pool.query('TRUNCATE events, streams');
}

/** The rate of several runs together: their events over the time they took. */
function eventsPerSecondOf(runs: AppendScenarioResult[]): number {
  const events = runs.reduce((sum, r) => sum + r.events, 0);
  const seconds = runs.reduce((sum, r) => sum + r.events / Math.max(r.eventsPerSecond, 1e-9), 0);
  return seconds > 0 ? events / seconds : 0;
}

/**
 * BENCH_PG_WAITS=<file>: what the contestant's backends wait for (pg_stat_activity sampled
 * every 5 ms during each run), appended to that file per scenario and store; a backend with
 * no wait event is on a CPU (or waiting for one).
 */
function sampleWaits(pool: pg.Pool, store: AppendStore): { stop: (scenario: AppendScenario) => Promise<void> } {
  const file = process.env.BENCH_PG_WAITS;
  if (!file) return { stop: async () => {} };
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { rows } = await pool.query<{ wait: string; n: number }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait, count(*)::int AS n
           FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
          GROUP BY 1`,
      );
      samples++;
      for (const row of rows) counts.set(row.wait, (counts.get(row.wait) ?? 0) + row.n);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop(scenario) {
      running = false;
      await sampling;
      const waits = [...counts].sort((a, b) => b[1] - a[1]).map(([wait, n]) => `${wait} ${(n / samples).toFixed(2)}`);
      appendFileSync(file, `${store} ${scenario.mode} ${scenario.appenders}: ${samples} samples, active backends: ${waits.join(', ')}\n`);
    },
  };
}
