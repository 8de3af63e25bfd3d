import { z } from 'zod';
import { isoTimeQuery, pageLimitQuery, queryParam } from '../shared/list-query.ts';
import { INVALID_STAGE_MESSAGE, normalizeStage, STAGES, type Stage } from './stages.ts';

/** The pipeline list's query string (filters, sort, pages) and the calendar's range. */

/** `stage`: board order, then newest. Maven's "Stage A-Z" is the board order too. */
export const JOB_SORTS = ['stage', 'newest', 'oldest', 'name-asc', 'name-desc'] as const;
export type JobSort = (typeof JOB_SORTS)[number];

/** `hide` (default): everything but Canceled; `only`: Canceled only (the toggle); `include`: all. */
export const CANCELED_FILTERS = ['hide', 'only', 'include'] as const;
export type CanceledFilter = (typeof CANCELED_FILTERS)[number];

export const JOB_PAGE_SIZE = 50;
export const JOB_PAGE_SIZE_MAX = 200;
export const JOB_SEARCH_MAX = 200;

const queryText = (label: string, max: number) => queryParam(label).max(max, `${label} must be at most ${max} characters`);

export const jobListQuery = z.object({
  q: queryText('q', JOB_SEARCH_MAX)
    .transform((value) => value.trim())
    .optional(),
  stage: queryParam('stage')
    .transform((value, ctx): Stage | undefined => {
      if (value.trim() === '' || value.trim().toLowerCase() === 'all') return undefined;
      const normalized = normalizeStage(value);
      if (!normalized) {
        ctx.addIssue({ code: 'custom', message: INVALID_STAGE_MESSAGE });
        return z.NEVER;
      }
      return normalized;
    })
    // Stage names are also taken in any case and with their old spellings; the document lists the canonical ones.
    .meta({ enum: ['', 'all', ...STAGES] })
    .optional(),
  sort: z.enum(JOB_SORTS, { error: `sort must be one of: ${JOB_SORTS.join(', ')}` }).default('stage'),
  canceled: z.enum(CANCELED_FILTERS, { error: `canceled must be one of: ${CANCELED_FILTERS.join(', ')}` }).default('hide'),
  /** Only the jobs linked to this customer. */
  customerId: z.uuid({ error: 'customerId must be a customer id' }).optional(),
  limit: pageLimitQuery(JOB_PAGE_SIZE_MAX).default(JOB_PAGE_SIZE),
  cursor: queryText('cursor', 500).optional(),
});
export type JobListQuery = z.output<typeof jobListQuery>;

/** The calendar's range (the server fills in what is left out: this month, or six weeks from or up to the one given). */
export const calendarRangeQuery = z.object({ from: isoTimeQuery('from').optional(), to: isoTimeQuery('to').optional() });
