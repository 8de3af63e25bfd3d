/**
 * Calendar days as `YYYY-MM-DD`: the day an instant falls on in a time zone (a shop's today,
 * the day of a payment or of an appointment), and arithmetic on days, which needs no zone:
 * a date is a date.
 */

const DAY_MS = 86_400_000;

/** The shape of a calendar day's text, `YYYY-MM-DD` (for a message of its own; `isCalendarDay` also checks the day is real). */
export const CALENDAR_DAY_TEXT = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whether the text is a real calendar day written `YYYY-MM-DD`: '2025-02-30' is not (JavaScript's
 * Date would read it as March 2), nor '2025-1-5' or a time.
 */
export function isCalendarDay(text: string): boolean {
  if (!CALENDAR_DAY_TEXT.test(text)) return false;
  const start = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(start) && new Date(start).toISOString().startsWith(text);
}

/** One formatter per zone: building an Intl formatter costs far more than using one. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (`YYYY-MM-DD`) on which the instant falls in the time zone. */
export function dayInZone(instant: Date, timeZone: string): string {
  let dayFormat = dayFormats.get(timeZone);
  if (!dayFormat) {
    // en-CA writes a date as YYYY-MM-DD.
    dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, dayFormat);
  }
  return dayFormat.format(instant);
}

/** The day `days` after a `YYYY-MM-DD` day (before it when negative). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
