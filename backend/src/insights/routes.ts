import { insightsQuery, insightsSchema } from '@crm/projections/insights';
import { catchUpAsyncReadModels, type AppDeps } from '../deps.ts';
import { access, userOf, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { insightsOf } from './insights-queries.ts';

export const INSIGHTS_PATH = '/api/:instance/insights';

const DOCS = {
  insights: {
    summary:
      "Figures from the event history for a period in the shop's time zone: time in each stage (median, p90), quote → paid conversion, jobs completed and revenue invoiced per week, busiest technicians, open quotes older than N days; each with the jobs behind it (admins and managers)",
    tag: 'insights',
    query: insightsQuery,
    response: insightsSchema,
  },
} satisfies Record<string, RouteDoc>;

export function registerInsightsRoutes(router: ApiRouter, deps: AppDeps): void {
  router.get(
    INSIGHTS_PATH,
    // Admins and managers (the users who may manage users): the guard and the API document say so.
    access.can('canManageUsers'),
    async (ctx) => {
      const user = userOf(ctx);
      const query = parseInput(insightsQuery, ctx.query);
      await catchUpAsyncReadModels(deps);
      ctx.body = await insightsOf(deps.knex, user.instance.id, user.instance.timeZone, query, deps.now());
    },
    // Figures of the pipeline's jobs: gone (404) while the instance has its pipeline off.
    { feature: 'pipeline', doc: DOCS.insights },
  );
}
