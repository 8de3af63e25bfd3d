import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { mileageInput, MILEAGE_TEXT_PATTERN, vehicleInput, VEHICLE_LIMITS, YEAR_TEXT_PATTERN } from '@crm/projections/vehicles';

/**
 * A model year is a number or its four digits as text (what a form's box sends). The server
 * takes text by the one pattern the API document publishes, so a client that follows the
 * document is never refused and one that does not is never accepted.
 */
const yearOf = (year: unknown) => vehicleInput.safeParse({ make: 'Ford', year });
const documented = new RegExp(YEAR_TEXT_PATTERN);

describe('a vehicle year', () => {
  test('as a number or as text inside the range it is stored as a number; outside it, or any other text, is refused', () => {
    for (const [sent, stored] of [
      [2015, 2015],
      ['2015', 2015],
      [' 2015 ', 2015],
      ['1900', 1900],
      ['2100', 2100],
      ['', null],
      [null, null],
    ] as const) {
      const parsed = yearOf(sent);
      expect(parsed.success, JSON.stringify(sent)).toBe(true);
      expect(parsed.data?.year, JSON.stringify(sent)).toBe(stored);
    }
    for (const sent of ['02015', '2015.0', '1899', '2101', '20 15', 'MMXV', '+2015', 1899, 2015.5]) {
      expect(yearOf(sent).success, JSON.stringify(sent)).toBe(false);
    }
  });

  test('the document states the same text: every text the pattern allows is taken, every other four-digit text refused', () => {
    for (let year = 1000; year <= 9999; year++) {
      const text = String(year);
      expect(yearOf(text).success, text).toBe(documented.test(text));
      expect(documented.test(text), text).toBe(year >= VEHICLE_LIMITS.yearMin && year <= VEHICLE_LIMITS.yearMax);
    }
    const schema = z.toJSONSchema(vehicleInput, { io: 'input', unrepresentable: 'any' }) as unknown as {
      properties: { year: { anyOf: Array<Record<string, unknown>> } };
    };
    expect(schema.properties.year.anyOf).toContainEqual({ type: 'string', pattern: YEAR_TEXT_PATTERN });
  });
});

describe('a mileage reading', () => {
  const mileageOf = (reading: unknown) => mileageInput('Mileage in').safeParse(reading);
  const documented = new RegExp(MILEAGE_TEXT_PATTERN);

  test('a whole number, or its digits as text with or without thousands commas, up to the limit', () => {
    for (const [sent, stored] of [
      [0, 0],
      [12345, 12345],
      ['12345', 12345],
      ['12,345', 12345],
      [' 9,999,999 ', 9_999_999],
      ['9999999', 9_999_999],
      ['', null],
      [null, null],
    ] as const) {
      const parsed = mileageOf(sent);
      expect(parsed.success, JSON.stringify(sent)).toBe(true);
      expect(parsed.data, JSON.stringify(sent)).toBe(stored);
      if (typeof sent === 'string' && sent !== '') expect(documented.test(sent), sent).toBe(true);
    }
    for (const sent of ['1,2,3', '12,34', '10,000,000', '10000000', '-5', '12.5', '1 234', 10_000_000, -1, 1.5]) {
      expect(mileageOf(sent).success, JSON.stringify(sent)).toBe(false);
      if (typeof sent === 'string') expect(documented.test(sent), sent).toBe(false);
    }
  });
});
