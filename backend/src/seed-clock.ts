/**
 * The seed's clock: instants in the shop's time zone on working days (weekdays, 8:00 to
 * 16:30), counted from today.
 */

/** The offset (ms) of a zone from UTC at an instant: the zone's wall clock read as if it were UTC, minus the instant. */
function zoneOffset(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour') % 24, part('minute'), part('second')) - instant;
}

/** The instant a wall-clock time in a zone stands for (checked twice, so a DST change between guess and answer is caught). */
function zonedTime(year: number, month: number, day: number, hour: number, minute: number, zone: string): Date {
  const wall = Date.UTC(year, month, day, hour, minute);
  let instant = wall - zoneOffset(wall, zone);
  instant = wall - zoneOffset(instant, zone);
  return new Date(instant);
}

/** Today's date in the zone, as year, month (0-based) and day. */
function todayIn(zone: string): { year: number; month: number; day: number } {
  const shifted = new Date(Date.now() + zoneOffset(Date.now(), zone));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth(), day: shifted.getUTCDate() };
}

/**
 * A slot on the n-th working day from today (0: today, or the next weekday on a weekend;
 * negative: before today), on the hour or half hour between 8:00 and 16:30 in the shop's
 * zone. Counting weekdays (not calendar days that then slide off weekends) keeps Mondays and
 * Fridays from collecting a weekend's worth of bookings. Spread deterministically so the
 * calendar looks like weeks of real bookings, a few a day.
 */
export function workingSlot(dayOffset: number, i: number, zone: string): Date {
  const { year, month, day } = todayIn(zone);
  const weekend = (d: Date) => d.getUTCDay() === 0 || d.getUTCDay() === 6;
  const step = dayOffset < 0 ? -1 : 1;
  let date = new Date(Date.UTC(year, month, day));
  while (weekend(date)) date = new Date(date.getTime() + step * 86_400_000);
  for (let left = Math.abs(dayOffset); left > 0;) {
    date = new Date(date.getTime() + step * 86_400_000);
    if (!weekend(date)) left--;
  }
  const halfHours = (i * 7) % 18; // 0..17: 8:00 .. 16:30
  return zonedTime(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 8 + Math.floor(halfHours / 2), (halfHours % 2) * 30, zone);
}

/** A past instant: `daysAgo` working days before today (at least 1), in working hours, spread by `i`. */
export function pastSlot(daysAgo: number, i: number, zone: string): Date {
  return workingSlot(-Math.max(1, Math.round(daysAgo)), i, zone);
}

/** `at`, or a few minutes after `before` when that is later: one record's steps keep their order. */
export function after(before: Date | null, at: Date): Date {
  return before && at.getTime() <= before.getTime() ? new Date(before.getTime() + 5 * 60_000) : at;
}

/** YYYY-MM-DD of an instant in a zone. */
export function isoDateIn(date: Date, zone: string): string {
  const shifted = new Date(date.getTime() + zoneOffset(date.getTime(), zone));
  return shifted.toISOString().slice(0, 10);
}
