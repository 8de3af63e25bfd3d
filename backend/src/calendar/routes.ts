import {
  appointmentListSchema,
  CALENDAR_MAX_DAYS,
  CALENDAR_MESSAGES,
  calendarQuery,
  calendarRangeQuery,
  calendarSchema,
  resolveCalendarBound,
} from '@crm/projections/pipeline';
import type { AppDeps } from '../deps.ts';
import { access, userOf, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { clampTime } from '@crm/projections/shared';
import { invalidField } from '../shared/errors.ts';
import { appointmentsJson } from './calendar-queries.ts';

/** The older clients' calendar feed, with and without the instance in the path (the session's instance either way). */
export const LEGACY_CALENDAR_PATHS = ['/api/calendar/appointments', '/api/:instance/calendar/appointments'] as const;
/** The legacy feed took up to 92 days (the dashboard's and older callers' ranges); the calendar screen's route takes 62. */
export const LEGACY_RANGE_MAX_DAYS = 92;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** What one side of a legacy range defaults to from the other: a month view's six weeks. */
const DEFAULT_SPAN_MS = 42 * DAY_MS;

/**
 * Legacy: without from and to the current month (UTC); with one of them, six weeks from or up
 * to it. Made once per app (`now` asked only when the month is needed): building a zod schema
 * per request cost more than the rest of the route's own work.
 */
const legacyQuery = (now: () => Date) =>
  calendarRangeQuery
    .transform(({ from, to }) => {
      if (from && to) return { from, to };
      // Six weeks from an end near the edge of what storage holds stay inside it.
      if (from) return { from, to: clampTime(new Date(from.getTime() + DEFAULT_SPAN_MS)) };
      if (to) return { from: clampTime(new Date(to.getTime() - DEFAULT_SPAN_MS)), to };
      const today = now();
      return {
        from: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)),
        to: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1)),
      };
    })
    .refine((range) => range.to.getTime() > range.from.getTime(), { message: CALENDAR_MESSAGES.toAfterFrom, path: ['to'] })
    .refine((range) => range.to.getTime() - range.from.getTime() <= LEGACY_RANGE_MAX_DAYS * DAY_MS, {
      message: `The range may span at most ${LEGACY_RANGE_MAX_DAYS} days`,
      path: ['to'],
    });

const DOCS = {
  range: {
    summary: `The appointments overlapping [from, to) (days alone are midnights in the shop's time zone; at most ${CALENDAR_MAX_DAYS} days)`,
    tag: 'calendar',
    query: calendarQuery,
    response: calendarSchema,
  },
  legacy: {
    summary: 'The appointments overlapping a time range (default: this month, UTC; at most 92 days)',
    tag: 'calendar',
    query: calendarRangeQuery,
    response: appointmentListSchema,
  },
} satisfies Record<string, RouteDoc>;

/**
 * The calendar: the visible range of a month, week or day view (server-side, indexed), and
 * the older clients' feed. Both belong to the calendar feature: while the instance has it
 * off they answer 404. Rescheduling is a pipeline command (PATCH …/pipeline/{id}/appointment).
 */
export function registerCalendarRoutes(router: ApiRouter, deps: AppDeps): void {
  const read = access.can('canRead');

  router.get(
    '/api/:instance/calendar',
    read,
    async (ctx) => {
      const instance = userOf(ctx).instance;
      const query = parseInput(calendarQuery, ctx.query);
      const from = resolveCalendarBound(query.from, instance.timeZone);
      const to = resolveCalendarBound(query.to, instance.timeZone);
      if (to.getTime() <= from.getTime()) throw invalidField('to', CALENDAR_MESSAGES.toAfterFrom);
      // Days in the shop's zone: a range of whole days across a daylight-saving change may be an hour longer.
      if (to.getTime() - from.getTime() > CALENDAR_MAX_DAYS * DAY_MS + HOUR_MS) throw invalidField('to', CALENDAR_MESSAGES.tooLong);
      const items = await appointmentsJson(deps.knex, instance.id, from, to);
      // The items are JSON text PostgreSQL built: sent as they are, inside the body's object.
      ctx.type = 'json';
      ctx.body = `{"timeZone":${JSON.stringify(instance.timeZone)},"from":"${from.toISOString()}","to":"${to.toISOString()}","items":${items}}`;
    },
    { feature: 'calendar', doc: DOCS.range },
  );

  const legacy = legacyQuery(() => deps.now());
  for (const path of LEGACY_CALENDAR_PATHS) {
    router.get(
      path,
      read,
      async (ctx) => {
        const { from, to } = parseInput(legacy, ctx.query);
        ctx.type = 'json';
        ctx.body = `{"items":${await appointmentsJson(deps.knex, userOf(ctx).instance.id, from, to)}}`;
      },
      { feature: 'calendar', doc: DOCS.legacy },
    );
  }
}
