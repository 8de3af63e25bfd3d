import { z } from 'zod';

/**
 * The dashboards' figures, counted on the server: an instance's home (GET /api/dashboard and
 * the same under /api/{instance}/ and /api/maven/) and the provider's figures per instance
 * (GET /api/crm-instances/stats). Periods ("this week", "this month") are the shop's own, in
 * its time zone, whatever the zone of the server or the browser. A figure the caller may not
 * see (the feature is off, or the user may not read) is null. Browser-safe: zod only.
 */

/** `quickStats=true` adds the Maven home's figures (jobs by stage, quotes this week, invoiced this month); the instance home does without them. */
export const dashboardQuery = z.object({
  quickStats: z
    .enum(['true', 'false'], { error: 'quickStats must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});

export const stageCountSchema = z.object({ stage: z.string(), count: z.number().int().nonnegative() });

export const dashboardStatsSchema = z.object({
  /** The zone the periods below were counted in. */
  timeZone: z.string(),
  /** Start of the shop's week (Monday 00:00 in its zone) and of the next, ISO. */
  weekStart: z.string(),
  weekEnd: z.string(),
  customers: z.number().int().nonnegative().nullable(),
  /** Jobs not yet paid and not canceled. */
  openJobs: z.number().int().nonnegative().nullable(),
  /** Jobs with an appointment starting this week. */
  appointmentsThisWeek: z.number().int().nonnegative().nullable(),
  /** Active users of the instance: for those who manage users only. */
  users: z.number().int().nonnegative().nullable(),
  /** Jobs per stage in board order (Canceled last); null without quickStats. */
  jobsByStage: z.array(stageCountSchema).nullable(),
  /** Jobs created this week that carry a quote, and their sum in dollars; null without quickStats. */
  quotesThisWeek: z.object({ count: z.number().int().nonnegative(), total: z.number() }).nullable(),
  /** Sum in dollars of the quotes of jobs moved to Invoiced this month; null without quickStats. */
  revenueThisMonth: z.number().nullable(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/** The provider dashboard's figures of one instance. */
export const instanceStatsSchema = z.object({
  instanceId: z.string(),
  users: z.number().int().nonnegative(),
  jobs: z.number().int().nonnegative(),
  customers: z.number().int().nonnegative(),
  /** When anything last happened in the instance (ISO), null when nothing has. */
  lastActivityAt: z.string().nullable(),
});
export type InstanceStats = z.infer<typeof instanceStatsSchema>;
export const instanceStatsListSchema = z.array(instanceStatsSchema);
