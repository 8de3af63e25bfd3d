import { describe, expect, test } from 'vitest';
import { timeZoneLabel, timeZoneOptions } from '../src/features/platform/utils/time-zones.ts';
import { greetingFor, msUntilNextHour } from '../src/features/instance-shell/utils/greeting.ts';

describe("the greeting goes by the shop's clock", () => {
  // 2025-06-15 21:30 UTC: 06:30 the next morning in Tokyo, 14:30 in Los Angeles, 03:00 in Kolkata.
  const at = new Date(Date.UTC(2025, 5, 15, 21, 30));

  test('the same instant greets each shop by its own hour', () => {
    expect(greetingFor(at, 'Asia/Tokyo')).toBe('Good morning');
    expect(greetingFor(at, 'America/Los_Angeles')).toBe('Good afternoon');
    expect(greetingFor(at, 'UTC')).toBe('Good evening');
  });

  test("the next look is at the shop's full hour (a half-hour zone's hours start at :30 UTC)", () => {
    expect(msUntilNextHour(at, 'UTC')).toBe(30 * 60_000);
    expect(msUntilNextHour(at, 'Asia/Kolkata')).toBe(60 * 60_000);
    expect(msUntilNextHour(new Date(Date.UTC(2025, 5, 15, 21, 45, 10)), 'Asia/Kolkata')).toBe(45 * 60_000 - 10_000);
  });
});

describe('the time-zone select', () => {
  test('offers the runtime zones, sorted, with the given ones kept', () => {
    const zones = timeZoneOptions('Etc/GMT+3');
    expect(zones).toContain('America/Chicago');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Etc/GMT+3');
    expect([...zones].sort((a, b) => a.localeCompare(b))).toEqual(zones);
    expect(new Set(zones).size).toBe(zones.length);
  });

  test('labels a zone with its offset at that moment', () => {
    const winter = new Date(Date.UTC(2025, 0, 15));
    expect(timeZoneLabel('America/Chicago', winter)).toBe('America/Chicago (UTC-06:00)');
    expect(timeZoneLabel('America/Chicago', new Date(Date.UTC(2025, 6, 15)))).toBe('America/Chicago (UTC-05:00)');
    expect(timeZoneLabel('America/Los_Angeles', winter)).toBe('America/Los Angeles (UTC-08:00)');
    expect(timeZoneLabel('UTC', winter)).toBe('UTC (UTC+00:00)');
  });
});

describe("the shared formatters go by the shop's clock", () => {
  test('times, typed appointments, audit days and server words are in the given zone', async () => {
    const { formatDateTime, localizeTimesInText, formatDollars } = await import('@crm/projections/contract');
    const { fromDateTimeLocalValue, toDateTimeLocalValue } = await import('../src/features/pipeline/utils/date-time.ts');
    const { auditQueryParams, EMPTY_AUDIT_FILTERS } = await import('../src/features/audit/utils/audit-filters.ts');
    const chicago = { timeZone: 'America/Chicago', locale: 'en-US' };
    expect(formatDateTime('2026-12-01T20:00:00Z', chicago)).toBe('Dec 1, 2026, 2:00 PM');
    // For a reader who may be elsewhere (a customer opening the shop's estimate link): the zone named.
    expect(formatDateTime('2026-12-01T20:00:00Z', { ...chicago, zoneName: true })).toBe('Dec 1, 2026, 2:00 PM CST');
    expect(formatDateTime('2026-07-01T20:00:00Z', { ...chicago, zoneName: true, seconds: true })).toBe('Jul 1, 2026, 3:00:00 PM CDT');
    expect(toDateTimeLocalValue('2026-12-01T20:00:00Z', 'America/Chicago')).toBe('2026-12-01T14:00');
    expect(fromDateTimeLocalValue('2026-12-01T14:00', 'America/Chicago')).toBe('2026-12-01T20:00:00.000Z');
    expect(localizeTimesInText('Rescheduled job #307 (Ann) for 2026-12-01 20:00 UTC', chicago)).toBe(
      'Rescheduled job #307 (Ann) for Dec 1, 2026, 2:00 PM',
    );
    expect(localizeTimesInText('Sign-in for csr blocked until 2026-11-26T12:22:21.480Z after too many', chicago)).toBe(
      'Sign-in for csr blocked until Nov 26, 2026, 6:22 AM after too many',
    );
    expect(localizeTimesInText('No time here: 2026-12-01, job 20:00', chicago)).toBe('No time here: 2026-12-01, job 20:00');
    expect(formatDollars(18025.3)).toBe('$18,025.30');
    const { setDisplayTimeZone } = await import('@crm/projections/contract');
    setDisplayTimeZone('Asia/Tokyo');
    try {
      const params = auditQueryParams({ ...EMPTY_AUDIT_FILTERS, fromDate: '2025-03-01', toDate: '2025-03-01' });
      expect(params.get('from')).toBe('2025-02-28T15:00:00.000Z');
      expect(params.get('to')).toBe('2025-03-01T15:00:00.000Z');
    } finally {
      setDisplayTimeZone(undefined);
    }
  });
});
