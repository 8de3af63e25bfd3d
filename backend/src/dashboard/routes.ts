import { dashboardQuery, dashboardStatsSchema } from '@crm/projections/contract';
import { RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import type { AppDeps } from '../deps.ts';
import { parseInput } from '../http/validation.ts';
import { access, userOf, type ApiRouter, type RouteDoc, type RouteOptions } from '../http/router.ts';
import { dashboardStats } from './dashboard-queries.ts';

/** The home screen's figures in every path family; the instance is the session's whatever the path. */
export const DASHBOARD_PATHS: ReadonlyArray<{ path: string; options?: RouteOptions }> = [
  { path: '/api/dashboard' },
  { path: `/api/${RESERVED_INSTANCE_SUBDOMAIN}/dashboard`, options: { pathInstance: RESERVED_INSTANCE_SUBDOMAIN } },
  { path: '/api/:instance/dashboard' },
];

const DOCS = {
  stats: {
    summary:
      "The instance home's figures: customers, open jobs, appointments this week, jobs by stage, quotes this week, revenue invoiced this month (the shop's time zone), users for user managers",
    tag: 'dashboard',
    query: dashboardQuery,
    response: dashboardStatsSchema,
  },
} satisfies Record<string, RouteDoc>;

export function registerDashboardRoutes(router: ApiRouter, deps: AppDeps): void {
  for (const { path, options } of DASHBOARD_PATHS) {
    // Any signed-in user of the instance: each figure says null where its feature is off or the user may not see it.
    router.get(
      path,
      access.signedIn,
      async (ctx) => {
        const { quickStats } = parseInput(dashboardQuery, ctx.query);
        ctx.body = await dashboardStats(deps.knex, userOf(ctx), deps.now(), { quickStats });
      },
      { ...options, doc: DOCS.stats },
    );
  }
}
