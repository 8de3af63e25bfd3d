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

/** Midnight starting a local calendar day, as an ISO time; null for an invalid date. */
function startOfLocalDay(date: string, addDays = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const day = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + addDays);
  return Number.isNaN(day.getTime()) ? null : day.toISOString();
}

/**
 * The query string for the audit endpoints (the page and the CSV share it). Days are the
 * user's own: `from` is the start of the first day, `to` (exclusive on the server) the start
 * of the day after the last one, so the last day is included whole.
 */
export function auditQueryParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.entityType) params.set('entityType', filters.entityType);
  if (filters.userId) params.set('userId', filters.userId);
  const from = filters.fromDate ? startOfLocalDay(filters.fromDate) : null;
  const to = filters.toDate ? startOfLocalDay(filters.toDate, 1) : null;
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  return params;
}

/** True when the last day comes before the first: the server would refuse the range. */
export function isBackwardsRange(filters: Pick<AuditFilters, 'fromDate' | 'toDate'>): boolean {
  return Boolean(filters.fromDate && filters.toDate && filters.toDate < filters.fromDate);
}
