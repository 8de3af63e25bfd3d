import { describe, expect, test } from 'vitest';
import { auditFiltersFromParams, auditQueryParams } from '../src/features/audit/utils/audit-filters';
import { periodFromParams } from '../src/features/takings/utils/takings-period';

/**
 * Days in a screen's address (a link, a reload) are read with the one calendar-day check: a day
 * that does not exist is "no day", never the day JavaScript's Date rolls it over to.
 */
describe('days in the address', () => {
  const now = new Date('2026-12-04T18:00:00Z');

  test('the takings period keeps real days and drops days that do not exist', () => {
    expect(periodFromParams(new URLSearchParams('from=2026-11-02&to=2026-11-30'), 'UTC', now)).toEqual({
      from: '2026-11-02',
      to: '2026-11-30',
    });
    expect(periodFromParams(new URLSearchParams('from=2026-02-30&to=2026-03-05'), 'UTC', now)).toEqual({
      from: '2026-03-05',
      to: '2026-03-05',
    });
    expect(periodFromParams(new URLSearchParams('from=2026-13-01'), 'Pacific/Honolulu', now)).toEqual({
      from: '2026-12-04',
      to: '2026-12-04',
    });
  });

  test('the audit filters drop a day that does not exist instead of asking for another', () => {
    const filters = auditFiltersFromParams(new URLSearchParams('from=2026-04-31&to=2026-05-02&q=brakes'));
    expect(filters).toMatchObject({ fromDate: '', toDate: '2026-05-02', q: 'brakes' });
    expect(auditQueryParams(filters).has('from')).toBe(false);
  });
});
