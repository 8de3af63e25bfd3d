/**
 * Calendar days as `YYYY-MM-DD`: the day an instant falls on in a time zone (a shop's today,
 * the day of a payment or of an appointment), and arithmetic on days, which needs no zone:
 * a date is a date.
 */

const DAY_MS = 86_400_000;

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
