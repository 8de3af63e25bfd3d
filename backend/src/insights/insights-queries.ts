import {
  DEFAULT_STALE_DAYS,
  INSIGHT_JOBS_MAX,
  INSIGHTS_MAX_DAYS,
  type InsightJob,
  type Insights,
  type InsightsQuery,
  type InsightWeek,
} from '@crm/projections/insights';
import { STAGES, type Stage } from '@crm/projections/pipeline';
import { addDays, dayInZone } from '@crm/projections/shared';
import type { Knex } from 'knex';
import { withTenant } from '../infra/tenant-db.ts';
import { weeklyJobMoney } from '../repair-orders/index.ts';
import { invalidField } from '../shared/errors.ts';

const DAY_MS = 86_400_000;
/** A period without a start: this many days up to its end (twelve weeks). */
const DEFAULT_PERIOD_DAYS = 84;

/** The Monday on or before a date. */
function mondayOf(dayText: string): string {
  const weekday = new Date(`${dayText}T00:00:00Z`).getUTCDay();
  return addDays(dayText, -((weekday + 6) % 7));
}

interface JobRow {
  job_id: string;
  job_number: string;
  name: string;
}

const jobOf = (row: JobRow): InsightJob => ({ id: row.job_id, jobNumber: row.job_number, name: row.name });

/** Distinct jobs, in the order first seen, at most INSIGHT_JOBS_MAX. */
function distinctJobs(rows: JobRow[]): InsightJob[] {
  const seen = new Map<string, InsightJob>();
  for (const row of rows) if (!seen.has(row.job_id)) seen.set(row.job_id, jobOf(row));
  return [...seen.values()].slice(0, INSIGHT_JOBS_MAX);
}

const hours = (seconds: number | string | null) => Math.round((Number(seconds ?? 0) / 3600) * 100) / 100;

/**
 * The insights of a period, counted in the shop's time zone: its days start at the shop's
 * midnight, its weeks on Monday. Jobs deleted now are left out of every figure (they are
 * not on the pipeline a figure links to).
 */
export async function insightsOf(knex: Knex, instanceId: string, timeZone: string, query: InsightsQuery, now: Date): Promise<Insights> {
  const to = query.to ?? dayInZone(now, timeZone);
  const from = query.from ?? addDays(to, -(DEFAULT_PERIOD_DAYS - 1));
  if (from > to) throw invalidField('from', 'from must be on or before to');
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (span > INSIGHTS_MAX_DAYS) throw invalidField('to', `The period may span at most ${INSIGHTS_MAX_DAYS} days`);
  const staleDays = query.staleDays ?? DEFAULT_STALE_DAYS;

  return await withTenant(knex, instanceId, async (db) => {
    // The period's ends as instants: the shop's midnight at its first day and after its last.
    const bounds = (await db
      .raw(`SELECT (?::date)::timestamp AT TIME ZONE ? AS start, ((?::date) + 1)::timestamp AT TIME ZONE ? AS "end"`, [
        from,
        timeZone,
        to,
        timeZone,
      ])
      .then((r: { rows: Array<{ start: Date; end: Date }> }) => r.rows[0]))!;
    const intervals = () =>
      db
        .withSchema('rm')
        .from('insight_stage_intervals as i')
        .join('insight_jobs as j', 'j.job_id', 'i.job_id')
        .where('i.instance_id', instanceId)
        .andWhere('j.deleted', false);
    const enteredIn = (stage: Stage) =>
      intervals().andWhere('i.stage', stage).andWhere('i.entered_at', '>=', bounds.start).andWhere('i.entered_at', '<', bounds.end);

    // Time in each stage: the stays that ended in the period.
    const stayRows = (await intervals()
      .andWhere('i.left_at', '>=', bounds.start)
      .andWhere('i.left_at', '<', bounds.end)
      .groupBy('i.stage')
      .select(
        'i.stage',
        db.raw('count(*)::int AS count'),
        db.raw('percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM i.left_at - i.entered_at)) AS median'),
        db.raw('percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM i.left_at - i.entered_at)) AS p90'),
      )) as Array<{ stage: Stage; count: number; median: number; p90: number }>;
    const stayJobs = (await intervals()
      .andWhere('i.left_at', '>=', bounds.start)
      .andWhere('i.left_at', '<', bounds.end)
      .orderBy([{ column: 'i.left_at' }, { column: 'i.job_id' }])
      .select('i.stage', 'i.job_id', 'j.job_number', 'j.name')) as Array<JobRow & { stage: Stage }>;
    const stageTimes = STAGES.flatMap((stage) => {
      const row = stayRows.find((r) => r.stage === stage);
      if (!row) return [];
      return [
        {
          stage,
          count: row.count,
          medianHours: hours(row.median),
          p90Hours: hours(row.p90),
          jobs: distinctJobs(stayJobs.filter((r) => r.stage === stage)),
        },
      ];
    });

    // Quote → paid: jobs quoted in the period, and which of them reached Paid by now.
    const quotedRows = (await enteredIn('Quote')
      .orderBy([{ column: 'i.entered_at' }, { column: 'i.job_id' }])
      .select('i.job_id', 'j.job_number', 'j.name')) as JobRow[];
    const quotedIds = [...new Set(quotedRows.map((r) => r.job_id))];
    // Of those, the ones with a stay in Paid: the instance's paid jobs (by the stage index), met with them here.
    const everPaid = new Set(
      quotedIds.length === 0 ? [] : ((await intervals().andWhere('i.stage', 'Paid').distinct().pluck('i.job_id')) as string[]),
    );
    const paidIds = new Set(quotedIds.filter((id) => everPaid.has(id)));
    const paidRows = quotedRows.filter((r) => paidIds.has(r.job_id));

    // Per week: jobs moved to Completed, and the quotes of jobs moved to Invoiced.
    const weekOf = db.raw(`to_char(date_trunc('week', i.entered_at AT TIME ZONE ?), 'YYYY-MM-DD') AS week`, [timeZone]);
    const completedRows = (await enteredIn('Completed')
      .orderBy([{ column: 'i.entered_at' }, { column: 'i.job_id' }])
      .select('i.job_id', 'j.job_number', 'j.name', 'i.tech', weekOf)) as Array<JobRow & { tech: string; week: string }>;
    const invoicedRows = (await enteredIn('Invoiced')
      .orderBy([{ column: 'i.entered_at' }, { column: 'i.job_id' }])
      .select('i.job_id', 'j.job_number', 'j.name', 'i.quote', weekOf)) as Array<JobRow & { quote: string | null; week: string }>;
    // Revenue: what the invoices issued in the week made, and what was collected (payments
    // less refunds). A job invoiced without lines (no invoice, the old single quote) counts
    // the quote it had when moved to Invoiced, as before lines existed.
    const movedIds = [...new Set(invoicedRows.map((r) => r.job_id))];
    const money = await weeklyJobMoney(db, instanceId, timeZone, bounds.start, bounds.end, movedIds);
    const moneyIds = [...new Set([...money.invoiced, ...money.collected].map((r) => r.jobId))];
    const moneyJobs = new Map(
      (moneyIds.length === 0
        ? []
        : ((await db
            .withSchema('rm')
            .from('insight_jobs')
            .where('instance_id', instanceId)
            .whereIn('job_id', moneyIds)
            .andWhere('deleted', false)
            .orderBy('job_id')
            .select('job_id', 'job_number', 'name')) as JobRow[])
      ).map((row) => [row.job_id, row]),
    );
    const cents = (rows: typeof money.invoiced, week: string) =>
      rows.filter((r) => r.week === week && moneyJobs.has(r.jobId)).reduce((sum, r) => sum + r.cents, 0);
    const weeks: InsightWeek[] = [];
    for (let week = mondayOf(from); week <= to; week = addDays(week, 7)) {
      const completed = distinctJobs(completedRows.filter((r) => r.week === week));
      // A job moved to Invoiced twice in one week counts once, with the quote it had when last moved.
      const legacy = new Map<string, JobRow & { quote: string | null }>();
      for (const row of invoicedRows) if (row.week === week && !money.invoicedJobIds.has(row.job_id)) legacy.set(row.job_id, row);
      const legacyCents = [...legacy.values()].reduce((sum, row) => sum + Math.round(Number(row.quote ?? 0) * 100), 0);
      const invoicedJobs = [
        ...money.invoiced.filter((r) => r.week === week && moneyJobs.has(r.jobId)).map((r) => moneyJobs.get(r.jobId)!),
        ...legacy.values(),
      ];
      weeks.push({
        weekStart: week,
        completed: new Set(completedRows.filter((r) => r.week === week).map((r) => r.job_id)).size,
        revenue: (cents(money.invoiced, week) + legacyCents) / 100,
        collected: cents(money.collected, week) / 100,
        completedJobs: completed,
        invoicedJobs: distinctJobs(invoicedJobs),
      });
    }

    // Busiest technicians: jobs each moved to Completed in the period.
    const byTech = new Map<string, JobRow[]>();
    for (const row of completedRows) {
      const tech = row.tech.trim() || 'Unassigned';
      byTech.set(tech, [...(byTech.get(tech) ?? []), row]);
    }
    const technicians = [...byTech.entries()]
      .map(([tech, rows]) => ({ tech, completed: new Set(rows.map((r) => r.job_id)).size, jobs: distinctJobs(rows) }))
      .sort((a, b) => b.completed - a.completed || a.tech.localeCompare(b.tech));

    // Open quotes older than N days: in Quote now, since before now − N days.
    const staleRows = (await intervals()
      .andWhere('i.stage', 'Quote')
      .whereNull('i.left_at')
      .andWhere('i.entered_at', '<', new Date(now.getTime() - staleDays * DAY_MS))
      .orderBy([{ column: 'i.entered_at' }, { column: 'i.job_id' }])
      .limit(INSIGHT_JOBS_MAX)
      .select('i.job_id', 'j.job_number', 'j.name', 'i.entered_at')) as Array<JobRow & { entered_at: Date }>;

    return {
      period: { from, to, timeZone },
      stageTimes,
      conversion: {
        quoted: quotedIds.length,
        paid: paidIds.size,
        rate: quotedIds.length === 0 ? null : Math.round((paidIds.size / quotedIds.length) * 10_000) / 10_000,
        quotedJobs: distinctJobs(quotedRows),
        paidJobs: distinctJobs(paidRows),
      },
      weeks,
      technicians,
      staleQuotes: {
        days: staleDays,
        jobs: staleRows.map((row) => ({
          ...jobOf(row),
          since: new Date(row.entered_at).toISOString(),
          ageDays: Math.floor((now.getTime() - new Date(row.entered_at).getTime()) / DAY_MS),
        })),
      },
    };
  });
}
