export type Greeting = 'Good morning' | 'Good afternoon' | 'Good evening';

/** The wall-clock hour, minute and second of an instant in a zone (the runtime's own when none is given). */
function wallClock(date: Date, timeZone?: string): { hour: number; minute: number; second: number } {
  if (!timeZone) return { hour: date.getHours(), minute: date.getMinutes(), second: date.getSeconds() };
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: part('hour') % 24, minute: part('minute'), second: part('second') };
}

/**
 * Morning 05:00–11:59, afternoon 12:00–17:59, otherwise evening, by the clock of the shop
 * (`timeZone`, its IANA zone) rather than the browser's: staff travelling or a super admin
 * abroad see the greeting the shop's own day calls for.
 */
export function greetingFor(date: Date, timeZone?: string): Greeting {
  const { hour } = wallClock(date, timeZone);
  if (hour >= 5 && hour < 12) return 'Good morning';
  if (hour >= 12 && hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** Milliseconds from `date` to the next full hour in the zone (a half-hour zone's hours start at :30 UTC). */
export function msUntilNextHour(date: Date, timeZone?: string): number {
  const { minute, second } = wallClock(date, timeZone);
  return (60 - minute) * 60_000 - second * 1000 - date.getMilliseconds();
}
