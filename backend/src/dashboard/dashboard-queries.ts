import type { Knex } from 'knex';
import { hasPermission } from '@crm/projections/contract';
import { CANCELED_STAGE, STAGES } from '@crm/projections/pipeline';
import type { DashboardStats } from '@crm/projections/platform';
import type { UserPrincipal } from '../http/auth.ts';
import { withTenant } from '../infra/tenant-db.ts';

/**
 * A history row that moved a job to the stage $stage: job_history keeps a change with both
 * values as [field, oldValue, newValue], one with a value left out as an object. Strict: in
 * lax mode the filter would look into each array's elements, not at the array.
 */
const MOVED_TO_STAGE = 'strict $[*] ? ((@[0] == "stage" && @[2] == $stage) || (@.field == "stage" && @.newValue == $stage))';

/** Stages a job has left the shop's hands in: paid, or canceled. Every other job is open. */
const CLOSED_STAGES = new Set<string>(['Paid', CANCELED_STAGE]);
const INVOICED_STAGE = 'Invoiced';

interface Periods {
  week_start: Date;
  week_end: Date;
  month_start: Date;
}

/**
 * An instance's home figures, counted in one tenant-bound transaction. "This week" (Monday
 * 00:00 to the next Monday) and "this month" are the shop's, in its own zone: PostgreSQL
 * turns `now` into the shop's wall clock, truncates it there and turns the result back
 * into an instant, so a shop in Chicago and a server in UTC agree on when Monday begins.
 * A figure of a feature the instance has off, or that the user may not read, is null; the
 * user count is for those who manage users.
 */
export async function dashboardStats(
  knex: Knex,
  user: UserPrincipal,
  now: Date,
  options: { quickStats: boolean } = { quickStats: false },
): Promise<DashboardStats> {
  const { instance } = user;
  const { features, timeZone } = instance;
  const canRead = hasPermission(user, 'canRead');
  const pipeline = canRead && features.pipeline;
  const calendar = canRead && features.calendar;
  const customers = canRead && features.customers;
  const managesUsers = hasPermission(user, 'canManageUsers');
  // The quotes and the invoiced revenue read the week's jobs and the month's history: only when asked for.
  const quick = pipeline && options.quickStats;

  return await withTenant(knex, instance.id, async (db) => {
    const periods = (
      await db.raw<{ rows: Periods[] }>(
        `SELECT date_trunc('week', ?::timestamptz AT TIME ZONE ?) AT TIME ZONE ? AS week_start,
                (date_trunc('week', ?::timestamptz AT TIME ZONE ?) + interval '1 week') AT TIME ZONE ? AS week_end,
                date_trunc('month', ?::timestamptz AT TIME ZONE ?) AT TIME ZONE ? AS month_start`,
        [now, timeZone, timeZone, now, timeZone, timeZone, now, timeZone, timeZone],
      )
    ).rows[0]!;
    const jobs = () => db.withSchema('rm').from('jobs').where('instance_id', instance.id);

    // Built here, run one after the other below: they share the transaction's one client, which
    // runs one query at a time (overlapping client.query() calls are deprecated in pg, gone in pg@9).
    const queries = [
      pipeline
        ? (db
            .withSchema('rm')
            .from('job_counts')
            .where('instance_id', instance.id)
            .groupBy('stage_order')
            .select('stage_order', db.raw('sum(total)::int AS total')) as Promise<Array<{ stage_order: number; total: number }>>)
        : null,
      customers
        ? (db.withSchema('rm').from('customer_counts').where('instance_id', instance.id).first('total') as Promise<
            { total: number } | undefined
          >)
        : null,
      calendar
        ? (jobs()
            .where('appointment', '>=', periods.week_start)
            .andWhere('appointment', '<', periods.week_end)
            .andWhereNot('stage', CANCELED_STAGE)
            .count({ n: '*' })
            .first() as Promise<{ n: string | number } | undefined>)
        : null,
      quick
        ? (jobs()
            .where('created_at', '>=', periods.week_start)
            .whereNotNull('quote')
            .andWhereNot('stage', CANCELED_STAGE)
            .first(db.raw('count(*) AS n'), db.raw('coalesce(sum(quote), 0) AS total')) as Promise<
            { n: string | number; total: string | number } | undefined
          >)
        : null,
      quick
        ? (jobs()
            .whereIn(
              'id',
              db
                .withSchema('rm')
                .from('job_history')
                .where('instance_id', instance.id)
                .andWhere('occurred_at', '>=', periods.month_start)
                .andWhereRaw('jsonb_path_exists(changes, ?::jsonpath, jsonb_build_object(?::text, ?::text))', [
                  MOVED_TO_STAGE,
                  'stage',
                  INVOICED_STAGE,
                ])
                .select('job_id'),
            )
            .first(db.raw('coalesce(sum(quote), 0) AS total')) as Promise<{ total: string | number } | undefined>)
        : null,
      managesUsers
        ? (db.withSchema('rm').from('users').where({ instance_id: instance.id, is_active: true }).count({ n: '*' }).first() as Promise<
            { n: string | number } | undefined
          >)
        : null,
    ] as const;
    const stageRows = await queries[0];
    const customerRow = await queries[1];
    const appointmentRow = await queries[2];
    const quoteRow = await queries[3];
    const revenueRow = await queries[4];
    const userRow = await queries[5];

    const totals = new Map((stageRows ?? []).map((row) => [Number(row.stage_order), Number(row.total)]));
    const byStage = stageRows ? STAGES.map((stage, order) => ({ stage, count: totals.get(order) ?? 0 })) : null;
    return {
      timeZone,
      weekStart: new Date(periods.week_start).toISOString(),
      weekEnd: new Date(periods.week_end).toISOString(),
      customers: customers ? Number(customerRow?.total ?? 0) : null,
      openJobs: byStage ? byStage.filter((row) => !CLOSED_STAGES.has(row.stage)).reduce((sum, row) => sum + row.count, 0) : null,
      appointmentsThisWeek: calendar ? Number(appointmentRow?.n ?? 0) : null,
      users: managesUsers ? Number(userRow?.n ?? 0) : null,
      jobsByStage: quick ? byStage : null,
      quotesThisWeek: quick ? { count: Number(quoteRow?.n ?? 0), total: Number(quoteRow?.total ?? 0) } : null,
      revenueThisMonth: quick ? Number(revenueRow?.total ?? 0) : null,
    };
  });
}
