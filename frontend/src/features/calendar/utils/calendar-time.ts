import { DEFAULT_DURATION_MINUTES } from '@crm/projections/pipeline';
import { DateTime } from 'luxon';

/**
 * Calendar dates in the SHOP's time zone, whatever the browser's: react-big-calendar works
 * with JS Dates (instants), and every day, hour and week boundary is worked out here (and by
 * the localizer, see zonedLocalizer) in the shop's zone with luxon.
 */

export type CalendarView = 'month' | 'week' | 'day';
export const CALENDAR_VIEWS: readonly CalendarView[] = ['day', 'week', 'month'];

/** Hours the week and day views show (8 AM to 6 PM). */
export const DAY_START_HOUR = 8;
export const DAY_END_HOUR = 18;
/** Drag, resize and the time field move in quarter hours. */
export const STEP_MINUTES = 15;

/** The days a view shows, [from, to) as dates in the zone (the API takes them as the zone's midnights). */
export function visibleRange(view: CalendarView, date: Date, zone: string): { from: string; to: string } {
  const day: DateTime = DateTime.fromJSDate(date, { zone }).startOf('day');
  let first: DateTime = day;
  let last: DateTime = day;
  if (view === 'week') {
    first = sundayOf(day);
    last = first.plus({ days: 6 });
  } else if (view === 'month') {
    first = sundayOf(day.startOf('month'));
    last = sundayOf(day.endOf('month').startOf('day')).plus({ days: 6 });
  }
  return { from: first.toISODate()!, to: last.plus({ days: 1 }).toISODate()! };
}

/** The Sunday that starts the week of `day` (weeks run Sunday to Saturday). */
function sundayOf(day: DateTime): DateTime {
  return day.minus({ days: day.weekday % 7 });
}

/** prev / next / Today. */
export function navigateDate(view: CalendarView, date: Date, action: 'PREV' | 'NEXT' | 'TODAY', zone: string, now = new Date()): Date {
  if (action === 'TODAY') return now;
  const sign = action === 'NEXT' ? 1 : -1;
  const unit = view === 'month' ? { months: sign } : view === 'week' ? { weeks: sign } : { days: sign };
  return DateTime.fromJSDate(date, { zone }).plus(unit).toJSDate();
}

/** The heading's month-year label ('March 2026'); a week across two months names both. */
export function monthYearLabel(view: CalendarView, date: Date, zone: string): string {
  const day = DateTime.fromJSDate(date, { zone }).setLocale('en-US');
  if (view !== 'week') return day.toFormat('LLLL yyyy');
  const first = sundayOf(day.startOf('day'));
  const last = first.plus({ days: 6 });
  if (first.month === last.month) return first.toFormat('LLLL yyyy');
  return first.year === last.year
    ? `${first.toFormat('LLLL')} – ${last.toFormat('LLLL yyyy')}`
    : `${first.toFormat('LLLL yyyy')} – ${last.toFormat('LLLL yyyy')}`;
}

/** The day view's full date ('Monday, March 9, 2026'). */
export function fullDateLabel(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).setLocale('en-US').toFormat('cccc, LLLL d, yyyy');
}

/** 8 AM / 6 PM on the day shown, in the zone (the week and day views' min and max). */
export function hourOn(date: Date, hour: number, zone: string): Date {
  return DateTime.fromJSDate(date, { zone }).set({ hour, minute: 0, second: 0, millisecond: 0 }).toJSDate();
}

/**
 * Month view keeps the time of day: the block lands on the dropped day at the hour and
 * minute it had (in the zone, so a drop across a daylight-saving change keeps 9:00 at 9:00).
 */
export function keepTimeOfDay(original: Date, droppedDay: Date, zone: string): Date {
  const from = DateTime.fromJSDate(original, { zone });
  return DateTime.fromJSDate(droppedDay, { zone }).set({ hour: from.hour, minute: from.minute, second: 0, millisecond: 0 }).toJSDate();
}

/** Minutes between two instants, in whole steps of 15 (at least one step). */
export function durationMinutes(start: Date, end: Date): number {
  const minutes = Math.round((end.getTime() - start.getTime()) / 60_000 / STEP_MINUTES) * STEP_MINUTES;
  return Math.max(STEP_MINUTES, minutes);
}

/** What a datetime-local input shows for an instant, in the zone ('2026-03-09T09:00'). */
export function toLocalInput(iso: string | Date, zone: string): string {
  const dt = typeof iso === 'string' ? DateTime.fromISO(iso, { zone }) : DateTime.fromJSDate(iso, { zone });
  return dt.isValid ? dt.toFormat("yyyy-LL-dd'T'HH:mm") : '';
}

/** A datetime-local input's value read in the zone, as an ISO instant; null when empty or no time. */
export function fromLocalInput(value: string, zone: string): string | null {
  if (!value.trim()) return null;
  const dt = DateTime.fromISO(value, { zone });
  return dt.isValid ? dt.toUTC().toISO() : null;
}

/** A block's end from its start and duration (the default when none). */
export function blockEnd(start: Date, duration: number | null): Date {
  return new Date(start.getTime() + (duration ?? DEFAULT_DURATION_MINUTES) * 60_000);
}

// ---- phones ------------------------------------------------------------------------------

/** A swipe navigates when it moved at least this far sideways … */
export const SWIPE_MIN_PX = 50;

/** … and more than twice as far sideways as up or down. Left (negative dx) is next, right is prev. */
export function swipeAction(dx: number, dy: number): 'NEXT' | 'PREV' | null {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= 2 * Math.abs(dy)) return null;
  return dx < 0 ? 'NEXT' : 'PREV';
}
