import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import type { Knex } from 'knex';
import { createProgress } from '../cli.ts';
import { createKnex } from '../infra/database.ts';
import { statementsDump, statementsReset } from './pg-statements.ts';
import type { PhaseContext } from './phase.ts';
import { postgresCpuReader } from './postgres-cpu.ts';
import { format } from './report.ts';

/** Rebuilding every read model from the event log, against PostgreSQL copying the same rows. */
export async function rebuildPhase(ctx: PhaseContext): Promise<void> {
  const knex = createKnex(ctx.databaseUrl, 4);
  const store = createPostgresEventStore({ connectionString: ctx.databaseUrl });
  try {
    const progress = createProgress('rebuild', 'events');
    await statementsReset(ctx.pool);
    const postgresCpu = await postgresCpuReader(knex);
    const postgresCpuAtStart = postgresCpu?.() ?? 0;
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
    const postgresCpuSeconds = postgresCpu ? (postgresCpu() - postgresCpuAtStart) / 1000 : null;
    const replaySeconds = (replayedAt - started) / 1000;
    // Where PostgreSQL's time went: the COPYs, the index builds, the log's reads, the comparison.
    await statementsDump(ctx.pool, `rebuild of ${report.eventsReplayed} events`, 'total_exec_time', 40);
    // The comparison (every live table against its rebuilt one) is a check, not the rebuild's
    // work: the target figure leaves it out, the one after it includes it.
    const compareSeconds = (report.timings.compare ?? 0) / 1000;
    const copied = await bareCopyOfEvents(knex);
    const steps = Object.entries(report.timings)
      .map(([step, ms]) => `${step} ${format(ms / 1000)} s`)
      .join(', ');
    // CPU seconds, which the load does not stretch: this process's per step and PostgreSQL's
    // (every process of the cluster: backends, parallel workers, autovacuum).
    const processCpuSeconds = Object.values(report.processCpu).reduce((sum, ms) => sum + ms, 0) / 1000;
    const cpuSteps = Object.entries(report.processCpu)
      .map(([step, ms]) => `${step} ${format(ms / 1000)} s`)
      .join(', ');
    const baselineNote = `baseline: one INSERT … SELECT copying the ${format(copied.events)} event rows into a fresh table`;
    ctx.figures.push(
      {
        section: 'rebuild',
        name: `${format(report.eventsReplayed)} events (replay, indexes, swap)`,
        value: report.eventsReplayed / (seconds - compareSeconds),
        unit: 'ev/s',
        baseline: copied.eventsPerSecond,
        target: { atLeast: 20_000 },
        note:
          `${format(seconds - compareSeconds)} s without the comparison (${steps}; replay:<projection> is each ` +
          `projection's busy time, overlapping); replay alone ${format(report.eventsReplayed / replaySeconds)} ev/s; ${baselineNote}`,
      },
      {
        section: 'rebuild',
        name: `${format(report.eventsReplayed)} events with the comparison of every table`,
        value: report.eventsReplayed / seconds,
        unit: 'ev/s',
        baseline: copied.eventsPerSecond,
        note: `${format(seconds)} s in all, the comparison ${format(compareSeconds)} s; tables identical: ${report.identical}`,
      },
      {
        section: 'rebuild',
        name: `${format(report.eventsReplayed)} events per CPU second (this process and PostgreSQL, the comparison included)`,
        value: report.eventsReplayed / (processCpuSeconds + (postgresCpuSeconds ?? 0)),
        unit: 'ev/s',
        note:
          `this process ${format(processCpuSeconds)} s of CPU (${cpuSteps}), PostgreSQL ` +
          (postgresCpuSeconds === null ? 'not measured (not on this machine)' : `${format(postgresCpuSeconds)} s`) +
          `; on 2 CPUs of its own a rebuild could reach at most twice this figure`,
      },
    );
    ctx.details.rebuild = {
      seconds,
      replaySeconds,
      timings: report.timings,
      processCpu: report.processCpu,
      postgresCpuSeconds,
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
