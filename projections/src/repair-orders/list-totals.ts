import type { RepairOrder } from './state.ts';
import type { JobTotals } from '../pipeline/index.ts';
import { jobTotalsView } from './views.ts';

/**
 * The money of listed jobs (the pipeline, the board, a customer's jobs) from the repair
 * orders' read model: only jobs that have a repair order (a line, an invoice or a payment)
 * get totals; a job that never had one keeps showing its single quote as before.
 *
 * It rides in the page's own statement: `jobMoneyColumn(alias)` is a select-list column
 * (the job's repair-order state, null without one) over the page's rows named `alias`, so a
 * list page stays one round trip. A scalar subquery, not a join, so the page's order stays
 * as its ORDER BY made it. Server-side (not browser-safe).
 */
export function jobMoneyColumn(alias: string): string {
  return `(SELECT m.state FROM rm.job_money m WHERE m.job_id = ${alias}.id AND m.instance_id = ${alias}.instance_id) AS ${JOB_MONEY_STATE}`;
}

/** The name of the column `jobMoneyColumn` adds to each row. */
export const JOB_MONEY_STATE = 'money_state';

/** The job with its totals when its row brought a repair order's state (`jobMoneyColumn`). */
export function withListedTotals<T extends { quote: string }>(job: T, row: Record<string, unknown>): T & { totals?: JobTotals } {
  const state = row[JOB_MONEY_STATE] as RepairOrder | null | undefined;
  if (!state) return job;
  const quoteCents = job.quote === '' ? 0 : Math.round(Number(job.quote) * 100);
  return { ...job, totals: jobTotalsView(state, quoteCents) };
}
