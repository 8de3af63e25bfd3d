import { dayInZone, isCalendarDay } from '@crm/projections/shared';

/** The period in the address (?from&to), today in the shop's zone by default; a reversed range is put in order. */
export function periodFromParams(params: URLSearchParams, timeZone: string, now?: Date): { from: string; to: string } {
  const today = dayInZone(now ?? new Date(), timeZone);
  const from = isCalendarDay(params.get('from') ?? '') ? params.get('from')! : null;
  const to = isCalendarDay(params.get('to') ?? '') ? params.get('to')! : null;
  const start = from ?? to ?? today;
  const end = to ?? from ?? today;
  return start <= end ? { from: start, to: end } : { from: end, to: start };
}
