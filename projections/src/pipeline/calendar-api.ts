import { z } from 'zod';
import { ISO_TIME_FORMAT } from '../shared/list-query.ts';
import { isStorableTime, textInput, timeRangeMessage } from '../shared/schemas.ts';
import { APPOINTMENT_RANGE, appointmentViewSchema, isStorableAppointment } from './api.ts';
import { JOB_LIMITS, JOB_MESSAGES } from './fields.ts';

/**
 * The calendar's part of the API contract: the visible range it asks for, what it answers,
 * and the reschedule command (drag, resize, lane change). Browser-safe.
 */

/** The calendar asks for at most this many days at once (a month view shows six weeks). */
export const CALENDAR_MAX_DAYS = 62;
/** The longest block the calendar offers; longer ones (typed in the entry dialog) still show. */
export const CALENDAR_DURATIONS = [30, 60, 90, 120, 180, 240, 480] as const;

export const CALENDAR_MESSAGES = {
  appointmentRequired: 'Appointment is required: an ISO date and time with a time zone, e.g. 2025-03-01T09:00:00Z',
  toAfterFrom: 'to must be after from',
  tooLong: `The range may span at most ${CALENDAR_MAX_DAYS} days`,
} as const;

/** One end of the range: an instant, or a day alone (its midnight in the shop's time zone). */
export type CalendarBound = { kind: 'instant'; at: Date } | { kind: 'date'; date: string };

const DATE_ALONE = /^(\d{4})-(\d{2})-(\d{2})$/;

function calendarBound(name: string) {
  const message = `${name} must be a date (2025-01-31, that day's start in the shop's time zone) or ${ISO_TIME_FORMAT}`;
  const typeError = (issue: { input?: unknown }) =>
    Array.isArray(issue.input) ? `${name} must be given once` : issue.input === undefined ? `${name} is required` : message;
  return (
    z
      .string({ error: typeError })
      .transform((value, ctx): CalendarBound => {
        const trimmed = value.trim();
        const date = DATE_ALONE.exec(trimmed);
        if (date) {
          const [, y, m, d] = date.map(Number) as [number, number, number, number];
          const check = new Date(Date.UTC(y, m - 1, d));
          if (check.getUTCFullYear() === y && check.getUTCMonth() === m - 1 && check.getUTCDate() === d) {
            if (isStorableTime(check.getTime())) return { kind: 'date', date: trimmed };
            ctx.addIssue({ code: 'custom', message: timeRangeMessage(name) });
            return z.NEVER;
          }
        } else if (isoDateTime.safeParse(trimmed).success && !Number.isNaN(Date.parse(trimmed))) {
          if (isStorableTime(Date.parse(trimmed))) return { kind: 'instant', at: new Date(trimmed) };
          ctx.addIssue({ code: 'custom', message: timeRangeMessage(name) });
          return z.NEVER;
        }
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      })
      // The document's formats: a full date (that day's start in the shop's zone) or RFC 3339 date-time with its offset.
      .meta({
        anyOf: [
          { type: 'string', format: 'date' },
          { type: 'string', format: 'date-time' },
        ],
        type: undefined,
      })
  );
}

/** `GET /api/{instance}/calendar?from=&to=`: the visible range, [from, to). */
export const calendarQuery = z.object({ from: calendarBound('from'), to: calendarBound('to') });
export type CalendarQuery = z.output<typeof calendarQuery>;

/**
 * The appointments that overlap [from, to): one ending exactly at `from` or starting
 * exactly at `to` is not in it. `from` and `to` as resolved (ISO), in the shop's `timeZone`.
 */
export const calendarSchema = z.object({
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  items: z.array(appointmentViewSchema),
});
export type CalendarAnswer = z.infer<typeof calendarSchema>;

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * `PATCH …/pipeline/{id}/appointment`: where the block goes (required), how long it is
 * (left out: as it was; null: the default), and the technician's lane (left out: as it was).
 */
export const appointmentInput = z.strictObject({
  appointment: z
    .string({ error: CALENDAR_MESSAGES.appointmentRequired })
    .transform((value, ctx) => {
      const trimmed = value.trim();
      if (!isoDateTime.safeParse(trimmed).success || Number.isNaN(Date.parse(trimmed))) {
        ctx.addIssue({ code: 'custom', message: CALENDAR_MESSAGES.appointmentRequired });
        return z.NEVER;
      }
      if (!isStorableAppointment(Date.parse(trimmed))) {
        ctx.addIssue({ code: 'custom', message: APPOINTMENT_RANGE.message });
        return z.NEVER;
      }
      return new Date(trimmed).toISOString();
    })
    .meta({ format: 'date-time' }),
  duration: z
    .union([z.number(), z.string(), z.null()], { error: JOB_MESSAGES.duration })
    .transform((value, ctx): number | null => {
      if (value === null || value === '') return null;
      const minutes = typeof value === 'string' ? (/^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN) : value;
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > JOB_LIMITS.durationMax) {
        ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.duration });
        return z.NEVER;
      }
      return minutes;
    })
    .meta({ anyOf: [{ type: 'integer', minimum: 1, maximum: JOB_LIMITS.durationMax }, { const: '' }, { type: 'null' }] })
    .optional(),
  tech: textInput('Tech', JOB_LIMITS.tech).optional(),
});
export type AppointmentInput = z.output<typeof appointmentInput>;

// ---- the shop's time zone ------------------------------------------------------------------

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
export function zoneOffsetMs(instant: number, zone: string): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a day (`2025-03-09`) starts in `zone` (a day that starts in a daylight-saving gap starts when the clock resumes). */
export function startOfDayInZone(date: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  // Two passes: the offset at the first guess may differ from the one at the answer (a change that night).
  let instant = wall - zoneOffsetMs(wall, zone);
  instant = wall - zoneOffsetMs(instant, zone);
  return new Date(instant);
}

/** A range's end resolved to an instant in the shop's zone. */
export function resolveCalendarBound(bound: CalendarBound, zone: string): Date {
  return bound.kind === 'instant' ? bound.at : startOfDayInZone(bound.date, zone);
}
