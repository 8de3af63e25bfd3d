import { displayTimeZone } from '@crm/projections/contract';
import { isCalendarDay } from '@crm/projections/shared';
import { DateTime } from 'luxon';

/** The audit log's filters as the form holds them; '' is "any". */
export interface AuditFilters {
  entityType: string;
  userId: string;
  /** `YYYY-MM-DD` (a date input), the first day shown. */
  fromDate: string;
  /** `YYYY-MM-DD`, the last day shown (inclusive). */
  toDate: string;
  q: string;
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = { entityType: '', userId: '', fromDate: '', toDate: '', q: '' };

/** Midnight starting a calendar day in the shop's zone, as an ISO time; null for an invalid date. */
function startOfShopDay(date: string, addDays = 0, zone: string = displayTimeZone()): string | null {
  if (!isCalendarDay(date)) return null;
  const day = DateTime.fromISO(date, { zone });
  return day.isValid ? day.plus({ days: addDays }).toUTC().toISO() : null;
}

/**
 * The query string for the audit endpoints (the page and the CSV share it). Days are the
 * shop's (its time zone, whatever the browser's): `from` is the start of the first day, `to` (exclusive on the server) the start
 * of the day after the last one, so the last day is included whole.
 */
export function auditQueryParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.entityType) params.set('entityType', filters.entityType);
  if (filters.userId) params.set('userId', filters.userId);
  const from = filters.fromDate ? startOfShopDay(filters.fromDate) : null;
  const to = filters.toDate ? startOfShopDay(filters.toDate, 1) : null;
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  return params;
}

/** True when the last day comes before the first: the server would refuse the range. */
export function isBackwardsRange(filters: Pick<AuditFilters, 'fromDate' | 'toDate'>): boolean {
  return Boolean(filters.fromDate && filters.toDate && filters.toDate < filters.fromDate);
}

/** Address keys of the screen's filters (the days as typed: the shop's days). */
const ADDRESS_KEYS: Record<keyof AuditFilters, string> = { entityType: 'entity', userId: 'user', fromDate: 'from', toDate: 'to', q: 'q' };

/** The filters a link or a reload carries in its address; what is missing or malformed is "any". */
export function auditFiltersFromParams(params: URLSearchParams): AuditFilters {
  const filters = { ...EMPTY_AUDIT_FILTERS };
  for (const [field, key] of Object.entries(ADDRESS_KEYS) as Array<[keyof AuditFilters, string]>) filters[field] = params.get(key) ?? '';
  for (const day of ['fromDate', 'toDate'] as const) if (!isCalendarDay(filters[day])) filters[day] = '';
  return filters;
}

/** The address for the filters; other params are kept, empty filters left out. */
export function auditFiltersToParams(filters: AuditFilters, current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [field, key] of Object.entries(ADDRESS_KEYS) as Array<[keyof AuditFilters, string]>) {
    if (filters[field]) next.set(key, filters[field]);
    else next.delete(key);
  }
  return next;
}
