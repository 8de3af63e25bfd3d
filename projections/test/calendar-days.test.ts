import { describe, expect, test } from 'vitest';
import { addDays, dayInZone, isCalendarDay } from '../src/shared/calendar-days.ts';
import { formatDate } from '../src/shared/format.ts';

/**
 * The one way the app finds a calendar day: a shop's today (takings, insights), a payment's
 * day, the day before an appointment (reminders). Each of these had its own copy before.
 */
describe('calendar days', () => {
  test('the day an instant falls on depends on the zone, across the date line and daylight saving', () => {
    const instant = new Date('2026-12-04T09:30:00Z');
    expect(dayInZone(instant, 'UTC')).toBe('2026-12-04');
    expect(dayInZone(instant, 'Pacific/Honolulu')).toBe('2026-12-03');
    expect(dayInZone(instant, 'Pacific/Kiritimati')).toBe('2026-12-04');
    expect(dayInZone(new Date('2026-12-04T10:30:00Z'), 'Pacific/Kiritimati')).toBe('2026-12-05');
    // New York's spring-forward night: 06:59Z is 01:59 EST, 07:00Z is 03:00 EDT, both March 8.
    expect(dayInZone(new Date('2026-03-08T06:59:00Z'), 'America/New_York')).toBe('2026-03-08');
    expect(dayInZone(new Date('2026-03-08T04:59:00Z'), 'America/New_York')).toBe('2026-03-07');
    // The same zone asked again (its formatter kept) gives the same answer.
    expect(dayInZone(instant, 'Pacific/Honolulu')).toBe('2026-12-03');
  });

  test('adding days crosses months, years and leap days, both ways', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-03-08', 0)).toBe('2026-03-08');
    expect(addDays('2026-12-04', -83)).toBe('2026-09-12');
  });

  test('a calendar day is a real day written YYYY-MM-DD, and only a real one is shown as a date', () => {
    for (const day of ['2026-12-04', '2028-02-29', '2000-02-29', '0001-01-01', '9999-12-31']) expect(isCalendarDay(day), day).toBe(true);
    // JavaScript's Date reads '2025-02-30' as March 2: the one check refuses it, and the rest.
    for (const text of [
      '2025-02-30',
      '2027-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-1-05',
      '2026-12-04T00:00:00Z',
      ' 2026-12-04',
      'yesterday',
      '',
    ])
      expect(isCalendarDay(text), text).toBe(false);
    expect(formatDate('2026-12-04', { locale: 'en-US', timeZone: 'Pacific/Honolulu' })).toBe('Dec 4, 2026');
    expect(formatDate('2025-02-30', { locale: 'en-US' })).toBe('2025-02-30');
  });

  test("a calendar day in each form the screens show it (takings' weekday, the insights axis) is that day in any zone", () => {
    for (const timeZone of ['Pacific/Honolulu', 'UTC', 'Pacific/Kiritimati']) {
      expect(formatDate('2026-12-04', { locale: 'en-US', timeZone, form: 'weekday' }), timeZone).toBe('Fri, Dec 4, 2026');
      expect(formatDate('2026-12-04', { locale: 'en-US', timeZone, form: 'short' }), timeZone).toBe('Dec 4');
      expect(formatDate('2026-12-04', { locale: 'en-US', timeZone, form: 'medium' }), timeZone).toBe('Dec 4, 2026');
    }
    // A day that is not real is shown as written in every form.
    expect(formatDate('2025-02-30', { locale: 'en-US', form: 'weekday' })).toBe('2025-02-30');
    // An instant in a form is shown in the zone asked for.
    expect(formatDate('2026-12-04T09:30:00Z', { locale: 'en-US', timeZone: 'Pacific/Honolulu', form: 'weekday' })).toBe('Thu, Dec 3, 2026');
  });
});
