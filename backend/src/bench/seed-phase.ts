import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { createProgress } from '../cli.ts';
import { createKnex } from '../infra/database.ts';
import type { BenchInstance } from './api-client.ts';
import { log, type PhaseContext } from './phase.ts';
import { format } from './report.ts';
import { seedInstance, writeStreams, type SeedDomain, type SeededInstance } from './seed.ts';

/**
 * Seeding: the instances' customers and jobs written as events in bulk, then the time the
 * running server's projector takes to catch up on them.
 */
export async function seedPhase(ctx: PhaseContext, domain: SeedDomain, instances: BenchInstance[]): Promise<SeededInstance[]> {
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
