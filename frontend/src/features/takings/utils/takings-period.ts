const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Today in the shop's calendar (its time zone), as YYYY-MM-DD. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The period in the address (?from&to), today in the shop's zone by default; a reversed range is put in order. */
export function periodFromParams(params: URLSearchParams, timeZone: string, now?: Date): { from: string; to: string } {
  const today = todayIn(timeZone, now);
  const from = DAY.test(params.get('from') ?? '') ? params.get('from')! : null;
  const to = DAY.test(params.get('to') ?? '') ? params.get('to')! : null;
  const start = from ?? to ?? today;
  const end = to ?? from ?? today;
  return start <= end ? { from: start, to: end } : { from: end, to: start };
}
