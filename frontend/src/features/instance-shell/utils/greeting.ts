export type Greeting = 'Good morning' | 'Good afternoon' | 'Good evening';

/** spec-platform.md §2: morning 05:00–11:59, afternoon 12:00–17:59, otherwise evening (local time). */
export function greetingFor(date: Date): Greeting {
  const hour = date.getHours();
  if (hour >= 5 && hour < 12) return 'Good morning';
  if (hour >= 12 && hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** Milliseconds from `date` to the start of the next hour, when the greeting is looked at again. */
export function msUntilNextHour(date: Date): number {
  const next = new Date(date);
  next.setHours(date.getHours() + 1, 0, 0, 0);
  return next.getTime() - date.getTime();
}
