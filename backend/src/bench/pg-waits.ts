import { appendFileSync } from 'node:fs';
import type pg from 'pg';

/**
 * BENCH_PG_WAITS=<file>: what the bench database's backends wait for while a run goes on
 * (`pg_stat_activity` sampled every 5 ms), one line per run appended to that file with the
 * active backends per wait event averaged over the samples; a backend with no wait event is
 * on a CPU (or waiting for one). Off (nothing sampled) without the variable.
 */
export function sampleWaits(pool: pg.Pool): { stop: (label: string) => Promise<void> } {
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
    async stop(label) {
      running = false;
      await sampling;
      const waits = [...counts].sort((a, b) => b[1] - a[1]).map(([wait, n]) => `${wait} ${(n / samples).toFixed(2)}`);
      appendFileSync(file, `${label}: ${samples} samples, active backends: ${waits.join(', ')}\n`);
    },
  };
}
