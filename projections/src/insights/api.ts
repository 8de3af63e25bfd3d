import { z } from 'zod';
import { CALENDAR_DAY_TEXT, isCalendarDay } from '../shared/calendar-days.ts';
import { isStorableTime, timeRangeMessage } from '../shared/schemas.ts';
import { STAGES } from '../pipeline/index.ts';

/**
 * Insights: figures from the event history for a chosen period, counted in the shop's time
 * zone (days and weeks start at its midnight; weeks on Monday). Browser-safe.
 */

const day = (name: string) =>
  z
    .string({ error: `${name} must be a date like 2025-03-01` })
    .regex(CALENDAR_DAY_TEXT, `${name} must be a date like 2025-03-01`)
    .refine(isCalendarDay, { message: `${name} must be a real date` })
    // Twelve weeks before it and the shop's zone around it stay inside what storage holds.
    .refine(
      (value) => {
        const start = Date.parse(`${value}T00:00:00Z`);
        return isStorableTime(start - 12 * 7 * 86_400_000) && isStorableTime(start + 2 * 86_400_000);
      },
      { message: timeRangeMessage(name) },
    )
    .meta({ format: 'date' });

/** The longest period one request may ask for. */
export const INSIGHTS_MAX_DAYS = 366;
export const DEFAULT_STALE_DAYS = 14;
/** At most this many jobs are listed behind one figure (the counts are exact). */
export const INSIGHT_JOBS_MAX = 200;

export const insightsQuery = z
  .object({
    /** First day of the period (the shop's calendar), inclusive. Default: 12 weeks before `to`. */
    from: day('from').optional(),
    /** Last day of the period, inclusive. Default: today in the shop's time zone. */
    to: day('to').optional(),
    /** "Open quotes older than N days": N, 1 to 365. */
    staleDays: z.coerce
      .number({ error: 'staleDays must be a whole number of days from 1 to 365' })
      .int('staleDays must be a whole number of days from 1 to 365')
      .min(1, 'staleDays must be a whole number of days from 1 to 365')
      .max(365, 'staleDays must be a whole number of days from 1 to 365')
      .optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must be on or before to', path: ['from'] });
export type InsightsQuery = z.infer<typeof insightsQuery>;

/** A job behind a figure: open it in the pipeline by its number. */
export const insightJobSchema = z.object({ id: z.string(), jobNumber: z.string(), name: z.string() });
export type InsightJob = z.infer<typeof insightJobSchema>;

export const stageTimeSchema = z.object({
  stage: z.enum(STAGES),
  /** Stays in the stage that ended in the period. */
  count: z.number().int().nonnegative(),
  medianHours: z.number().nonnegative(),
  p90Hours: z.number().nonnegative(),
  jobs: z.array(insightJobSchema),
});

export const insightWeekSchema = z.object({
  /** Monday of the week, in the shop's calendar. */
  weekStart: z.string(),
  /** Jobs moved to Completed that week. */
  completed: z.number().int().nonnegative(),
  /**
   * Dollars invoiced that week: the totals of the invoices issued (a revision counts by what it
   * changed, so a lowered one can take some off), and for a job moved to Invoiced without an
   * invoice (no lines) its quote.
   */
  revenue: z.number(),
  /** Dollars collected that week: payments less refunds, by when the money changed hands. */
  collected: z.number(),
  completedJobs: z.array(insightJobSchema),
  invoicedJobs: z.array(insightJobSchema),
});
export type InsightWeek = z.infer<typeof insightWeekSchema>;

export const insightsSchema = z.object({
  period: z.object({ from: z.string(), to: z.string(), timeZone: z.string() }),
  /** Time spent in each stage (stays that ended in the period), in hours. */
  stageTimes: z.array(stageTimeSchema),
  /** Jobs that entered Quote in the period, and how many of them reached Paid (by now). */
  conversion: z.object({
    quoted: z.number().int().nonnegative(),
    paid: z.number().int().nonnegative(),
    /** paid / quoted, 0 to 1; null when nothing was quoted. */
    rate: z.number().min(0).max(1).nullable(),
    quotedJobs: z.array(insightJobSchema),
    paidJobs: z.array(insightJobSchema),
  }),
  weeks: z.array(insightWeekSchema),
  /** Jobs moved to Completed in the period, per technician (as the job had it then), busiest first. */
  technicians: z.array(z.object({ tech: z.string(), completed: z.number().int().nonnegative(), jobs: z.array(insightJobSchema) })),
  /** Jobs in Quote now for longer than `days` days, oldest first. */
  staleQuotes: z.object({
    days: z.number().int().positive(),
    jobs: z.array(insightJobSchema.extend({ since: z.string(), ageDays: z.number().int().nonnegative() })),
  }),
});
export type Insights = z.infer<typeof insightsSchema>;
