import { createProgress } from '../cli.ts';
import type { AppendScenario, AppendScenarioResult, AppendStore, AppendWorkerMessage } from './append-worker.ts';
import type { PhaseContext } from './phase.ts';
import { statementsDump, statementsReset } from './pg-statements.ts';
import { sampleWaits } from './pg-waits.ts';
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
          const sampling = sampleWaits(ctx.pool);
          parts[stores[i]!].push(await workers[i]!.call({ id: 0, scenario: half }));
          await sampling.stop(`${stores[i]!} ${scenario.mode} ${scenario.appenders}`);
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
