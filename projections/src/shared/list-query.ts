import { z } from 'zod';
import { isCalendarDay } from './calendar-days.ts';
import { isStorableTime, timeRangeMessage } from './schemas.ts';

/** A query-string parameter: text, given once (one given twice arrives as a list and is refused). */
export const queryParam = (name: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be given once`) });

/** A paged list's `?limit=`: given once, a whole number from 1 to `max`. */
export const pageLimitQuery = (max: number) =>
  queryParam('limit')
    .regex(/^\d+$/, `limit must be a whole number from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `limit must be a whole number from 1 to ${max}`).max(max, `limit must be at most ${max}`))
    .meta(wholeNumberParam(1, max));

/**
 * What the API document says of a whole-number query parameter: an integer in its bounds
 * (a query string is text; OpenAPI clients send the number's digits). The text checks above
 * are what zod can express, so the document gets the bounds they enforce from here.
 */
export function wholeNumberParam(min: number, max: number) {
  return { type: 'integer', minimum: min, maximum: max, pattern: undefined } as const;
}

/** `?q=`: search text of at most `max` characters, '' when absent. */
export const searchTextQuery = (name: string, max: number) =>
  queryParam(name).max(max, `Search text must be at most ${max} characters`).optional().default('');

/**
 * A newest-first record list's `?q=`, `?limit=` (a whole number from 1 to `pageSizeMax`,
 * `pageSize` when absent) and `?cursor=` (the nextCursor of the page before), for the
 * customers and service request lists to spread into their query objects.
 */
export function recordListParams({ searchMax, pageSize, pageSizeMax }: { searchMax: number; pageSize: number; pageSizeMax: number }) {
  const limitMessage = `limit must be a whole number from 1 to ${pageSizeMax}`;
  return {
    q: searchTextQuery('q', searchMax),
    limit: queryParam('limit')
      .regex(/^\d+$/, limitMessage)
      .transform(Number)
      .pipe(z.number().min(1, limitMessage).max(pageSizeMax, limitMessage))
      .meta(wholeNumberParam(1, pageSizeMax))
      .optional()
      .default(pageSize),
    cursor: queryParam('cursor').max(500, 'Invalid cursor: pass back the nextCursor of the previous page').optional(),
  };
}

/**
 * A page of a counted list: its items, `nextCursor` (opaque; passed back as `cursor`, with the
 * same filters, for the next page; null on the last page) and `total`, how many match in all.
 */
export function recordPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable(),
    total: z.number().int().nonnegative(),
  });
}

/** What every time parameter (`asOf`, `from`, `to`) must look like, in its 400's message. */
export const ISO_TIME_FORMAT = 'an ISO 8601 date and time with a time zone offset, e.g. 2025-01-31T14:00:00Z or 2025-01-31T16:00:00+02:00';

export interface IsoTimeOptions {
  /** Also take a date alone (`2025-01-31`) as the start of that day in UTC (the audit log's ranges). */
  dateAlone?: boolean;
}

/** The message a bad time parameter gets: it names the format. */
export function isoTimeMessage(name: string, options: IsoTimeOptions = {}): string {
  return options.dateAlone
    ? `${name} must be a date (2025-01-31, a day in UTC) or ${ISO_TIME_FORMAT}`
    : `${name} must be ${ISO_TIME_FORMAT}`;
}

/** Made once: a zod schema built per parse costs more than the parse. */
const isoDateTimeWithOffset = z.iso.datetime({ offset: true });

/**
 * The one parser of a time in a query string: an ISO 8601 date and time WITH its offset
 * (`Z` or `±hh:mm`), so it names one instant whatever the server's zone. A time without an
 * offset, anything else, or the parameter given twice is refused with a message that
 * names the format. Used by time travel (`asOf`), the calendar and the audit log.
 */
export function isoTimeQuery(name: string, options: IsoTimeOptions = {}) {
  const message = isoTimeMessage(name, options);
  const typeError = (issue: { input?: unknown }) => (Array.isArray(issue.input) ? `${name} must be given once` : message);
  return z
    .string({ error: typeError })
    .transform((value, ctx): Date => {
      const trimmed = value.trim();
      const candidate = options.dateAlone && isCalendarDay(trimmed) ? `${trimmed}T00:00:00Z` : trimmed;
      if (!isoDateTimeWithOffset.safeParse(candidate).success || Number.isNaN(Date.parse(candidate))) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      // Outside what storage holds, no record can be there: a 400, never a query PostgreSQL refuses.
      if (!isStorableTime(Date.parse(candidate))) {
        ctx.addIssue({ code: 'custom', message: timeRangeMessage(name) });
        return z.NEVER;
      }
      return new Date(candidate);
    })
    .meta(
      // The document's formats: RFC 3339 date-time (its offset is required, as here), or a full date too.
      options.dateAlone
        ? {
            anyOf: [
              { type: 'string', format: 'date' },
              { type: 'string', format: 'date-time' },
            ],
            type: undefined,
          }
        : { format: 'date-time' },
    );
}

const REVISION_MAX = 2_147_483_647;
const revisionMessage = "asOfRevision must be a whole number from 0 (a revision from the record's history)";

/**
 * Time travel: `?asOf=` an instant, or `?asOfRevision=` the record right after its change with
 * that revision (as its history rows give it). Two changes saved in the same instant (an edit
 * that also moved the stage) differ only by revision. Neither: now; both: whichever comes first.
 */
export const asOfQuery = z.object({
  asOf: isoTimeQuery('asOf').optional(),
  asOfRevision: queryParam('asOfRevision')
    .regex(/^\d+$/, revisionMessage)
    .transform(Number)
    .pipe(z.number().int(revisionMessage).min(0, revisionMessage).max(REVISION_MAX, revisionMessage))
    .meta(wholeNumberParam(0, REVISION_MAX))
    .optional(),
});
