import { boardSummaryQuery, boardSummarySchema } from '@crm/projections/contract';
import type { AppDeps } from '../deps.ts';
import { access, userOf, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { boardSummary } from './board-queries.ts';

/** Both path families; the instance is always the session's. Two segments after `pipeline`, so no job id route takes it. */
export const BOARD_SUMMARY_PATHS = ['/api/pipeline/board/summary', '/api/:instance/pipeline/board/summary'] as const;

const DOC: RouteDoc = {
  summary: "The stage board's column heads: jobs and quote totals per stage (every stage, Canceled last), for the list's search",
  tag: 'pipeline',
  query: boardSummaryQuery,
  response: boardSummarySchema,
};

export function registerBoardRoutes(router: ApiRouter, deps: AppDeps): void {
  for (const path of BOARD_SUMMARY_PATHS) {
    router.get(
      path,
      access.can('canRead'),
      async (ctx) => {
        const { q } = parseInput(boardSummaryQuery, ctx.query);
        ctx.body = await boardSummary(deps.knex, userOf(ctx).instance.id, q);
      },
      { doc: DOC, feature: 'pipeline' },
    );
  }
}
