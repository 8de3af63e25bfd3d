import type { Knex } from 'knex';
import type { RepairOrder } from './state.ts';
import type { JobTotals } from '../pipeline/index.ts';
import { jobTotalsView } from './views.ts';

/**
 * The money of listed jobs (the pipeline, the board, the calendar, a customer's jobs) from
 * the repair orders' read model: only jobs that have a repair order (a line, an invoice or a
 * payment) get totals; a job that never had one keeps showing its single quote as before.
 * `db`: a connection already scoped to the instance. Server-side (not browser-safe).
 */
export async function listedJobTotals(
  db: Knex,
  instanceId: string,
  jobs: ReadonlyArray<{ id: string; quote: string }>,
): Promise<Map<string, JobTotals>> {
  if (jobs.length === 0) return new Map();
  const rows = (await db
    .withSchema('rm')
    .from('job_money')
    .where('instance_id', instanceId)
    .whereIn(
      'job_id',
      jobs.map((job) => job.id),
    )
    .select('job_id', 'state')) as Array<{ job_id: string; state: RepairOrder }>;
  const quotes = new Map(jobs.map((job) => [job.id, job.quote === '' ? 0 : Math.round(Number(job.quote) * 100)]));
  return new Map(rows.map((row) => [row.job_id, jobTotalsView(row.state, quotes.get(row.job_id) ?? 0)]));
}

/** The jobs with their totals where they have a repair order. */
export async function withListedTotals<T extends { id: string; quote: string }>(
  db: Knex,
  instanceId: string,
  jobs: T[],
): Promise<Array<T & { totals?: JobTotals }>> {
  const totals = await listedJobTotals(db, instanceId, jobs);
  return jobs.map((job) => {
    const money = totals.get(job.id);
    return money ? { ...job, totals: money } : job;
  });
}
