import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchInstance } from './api-client.ts';
import { CheckpointLog, percentile } from './lag.ts';
import { log, type PhaseContext } from './phase.ts';
import type { LoadGenerator } from './processes.ts';
import { format } from './report.ts';
import type { SeededInstance } from './seed.ts';

/** Projection lag while job updates come in at a steady rate over all instances. */
export async function lagPhase(ctx: PhaseContext, load: LoadGenerator, apiUrl: string, instances: Array<BenchInstance & SeededInstance>) {
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
