import { z } from 'zod';
import { queryParam } from '../shared/list-query.ts';
import { JOB_SEARCH_MAX } from './api.ts';
import { STAGES } from './stages.ts';

/**
 * The stage board's column heads: how many jobs each stage holds and what their quotes add
 * up to, for the same search as the list (`q`). Browser-safe: zod only.
 */

export const boardSummaryQuery = z.object({
  q: queryParam('q')
    .max(JOB_SEARCH_MAX, `q must be at most ${JOB_SEARCH_MAX} characters`)
    .transform((value) => value.trim())
    .optional(),
});

export const boardSummarySchema = z.object({
  /** Every stage, in board order (Canceled last), with zeros where there are no jobs. */
  stages: z.array(
    z.object({
      stage: z.enum(STAGES),
      count: z.number().int().nonnegative(),
      /** Dollars, as the quotes are (two decimals at most). */
      quoteTotal: z.number().nonnegative(),
    }),
  ),
});
export type BoardSummary = z.infer<typeof boardSummarySchema>;
