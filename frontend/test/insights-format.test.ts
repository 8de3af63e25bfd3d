import { describe, expect, test } from 'vitest';
import { formatHours } from '../src/features/insights/components/insights-charts';

describe('formatHours (the insights axis and figures)', () => {
  test('ticks of an axis spanning a minute and a half read as different labels', () => {
    // recharts' ticks for 0..1.5 minutes, in hours.
    const ticks = [0, 0.00625, 0.0125, 0.01875, 0.025].map(formatHours);
    expect(ticks).toEqual(['0 min', '0.4 min', '0.8 min', '1.1 min', '1.5 min']);
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  test('minutes, hours and days as before past ten minutes', () => {
    expect(formatHours(0.75)).toBe('45 min');
    expect(formatHours(5.5)).toBe('5.5 h');
    expect(formatHours(76.8)).toBe('3.2 d');
  });
});
