import { describe, expect, test } from 'vitest';
import {
  checkVin,
  decodeVin,
  manufacturerOf,
  parseVehicleLabel,
  vehicleLabel,
  vehicleLabelKey,
  vinCheckDigit,
  vinModelYear,
  WMI_MAKES,
} from '../src/vehicles/index.ts';

/** Published VINs (manufacturers' and registries' examples, recalls) whose check digit is right. */
const REAL_NORTH_AMERICAN = [
  { vin: '1M8GDM9AXKP042788', year: 1989, make: null }, // the 49 CFR 565 worked example (check digit X)
  { vin: '1HGCM82633A004352', year: 2003, make: 'Honda' },
  { vin: '1G1ZT53826F109149', year: 2006, make: 'Chevrolet' },
  { vin: '1GNEK13ZX3R298984', year: 2003, make: 'Chevrolet' },
  { vin: '11111111111111111', year: 2001, make: null },
];

describe('check digit', () => {
  test.each(REAL_NORTH_AMERICAN)('$vin is accepted and decoded', ({ vin, year, make }) => {
    const check = checkVin(vin);
    expect(check).toEqual({ ok: true, vin, decoded: { year, make, country: 'United States', checkDigit: 'valid' }, warning: null });
  });

  test('a Japanese-built VIN for the North American market carries a valid check digit too', () => {
    expect(checkVin('JH4KA7561PC008269')).toMatchObject({ ok: true, decoded: { year: 1993, make: 'Acura', checkDigit: 'valid' } });
  });

  test.each(REAL_NORTH_AMERICAN.map(({ vin }) => vin))('%s with one character changed is refused, naming the check digit', (vin) => {
    for (const position of [0, 4, 10, 16]) {
      const original = vin[position]!;
      const replacement = original === '2' ? '3' : '2';
      const altered = vin.slice(0, position) + replacement + vin.slice(position + 1);
      // A change can leave the sum unchanged only when the weight is 0 (position 9 itself) or the values collide mod 11.
      if (vinCheckDigit(altered) === altered[8]) continue;
      const check = checkVin(altered);
      expect(check.ok, altered).toBe(false);
      if (!check.ok) expect(check.message).toMatch(/check digit is wrong: the 9th character is .*calls for/);
    }
  });

  test('swapped neighbours (the usual typo) are caught', () => {
    expect(checkVin('1HGCM82633A004325').ok).toBe(false);
    expect(checkVin('1HGMC82633A004352').ok).toBe(false);
  });

  test('the check digit itself changed is refused with what it should be', () => {
    expect(checkVin('1M8GDM9A1KP042788')).toEqual({
      ok: false,
      message: 'VIN check digit is wrong: the 9th character is 1, the rest of the VIN calls for X. Check the VIN for a typo.',
    });
  });

  test('outside North America a wrong check digit is accepted with a warning', () => {
    const check = checkVin('WVWZZZ1JZXW000001');
    expect(check).toMatchObject({ ok: true, decoded: { make: 'Volkswagen', country: 'Germany', checkDigit: 'not-verified' } });
    expect(check.ok && check.warning).toMatch(/not verified/);
  });

  test.each([
    ['abc', 'VIN must be 17 characters (this one has 3)'],
    ['1HGCM82633A00435', 'VIN must be 17 characters (this one has 16)'],
    ['1HGCM82633A0043521', 'VIN must be 17 characters (this one has 18)'],
    ['1HGCM82633A00435O', 'VIN cannot contain the letters I, O or Q (they read like 1 and 0)'],
    ['IHGCM82633A004352', 'VIN cannot contain the letters I, O or Q (they read like 1 and 0)'],
    ['1HGCM82633A00435Q', 'VIN cannot contain the letters I, O or Q (they read like 1 and 0)'],
    ['1HGCM82633A0043.2', 'VIN can hold only letters and digits (not .)'],
  ])('%s is refused: %s', (vin, message) => {
    expect(checkVin(vin)).toEqual({ ok: false, message });
  });

  test('spaces, dashes and lower case are forgiven', () => {
    expect(checkVin(' 1hgcm8-2633a 004352 ')).toMatchObject({ ok: true, vin: '1HGCM82633A004352' });
  });
});

describe('decoder', () => {
  test('model year: position 10, its cycle from position 7', () => {
    expect(vinModelYear('1HGCM82633A004352')).toBe(2003);
    expect(vinModelYear('5YJ3E1EA2KF317000')).toBe(2019);
    expect(vinModelYear('1FTEW1EPXLFA00000')).toBe(2020);
    expect(vinModelYear('1FTEW12EXAFA00000')).toBe(1980);
    expect(vinModelYear('1FTEW12EXUFA00000')).toBeNull();
  });

  test('manufacturers of common codes', () => {
    expect(manufacturerOf('1FTFW1ET5DFC10312')).toBe('Ford');
    expect(manufacturerOf('5YJ3E1EA2KF317000')).toBe('Tesla');
    expect(manufacturerOf('JTDKN3DU0A0000000')).toBe('Toyota');
    expect(manufacturerOf('WBA3A5C51CF256651')).toBe('BMW');
    expect(manufacturerOf('KNDJP3A50H7000000')).toBe('Kia');
    expect(manufacturerOf('ZZZ00000000000000')).toBeNull();
    expect(WMI_MAKES.size).toBeGreaterThan(300);
  });

  test('decodeVin: none for no VIN, the decoded facts for a stored one', () => {
    expect(decodeVin('')).toBeNull();
    expect(decodeVin('1HGCM82633A004352')).toEqual({ year: 2003, make: 'Honda', country: 'United States', checkDigit: 'valid' });
  });
});

describe('old free-text vehicles', () => {
  test.each([
    ['2015 Ford F-150', { year: 2015, make: 'Ford', model: 'F-150' }],
    ['  2019  Honda   Civic EX ', { year: 2019, make: 'Honda', model: 'Civic EX' }],
    ['1999 Jeep', { year: 1999, make: 'Jeep', model: '' }],
    ['Civic', { year: null, make: '', model: 'Civic' }],
    ['Blue van, dented', { year: null, make: '', model: 'Blue van, dented' }],
  ])('%s', (text, expected) => {
    expect(parseVehicleLabel(text)).toEqual(expected);
  });

  test('text longer than a field is cut whole characters only: never half of an emoji, which PostgreSQL refuses', () => {
    const model = parseVehicleLabel(`${'a'.repeat(79)}😀 wagon`).model;
    expect(model).toBe('a'.repeat(79));
    const make = parseVehicleLabel(`2015 ${'m'.repeat(49)}😀 X`).make;
    expect(make).toBe('m'.repeat(49));
    // One that ends right after the emoji keeps it.
    expect(parseVehicleLabel(`${'a'.repeat(78)}😀 wagon`).model).toBe(`${'a'.repeat(78)}😀`);
    expect(parseVehicleLabel('🚗 Škoda Octavia').model).toBe('🚗 Škoda Octavia');
  });

  test('two labels name the same vehicle without case and extra spaces', () => {
    expect(vehicleLabelKey('  2015 ford   F-150 ')).toBe(vehicleLabelKey('2015 Ford F-150'));
    expect(vehicleLabelKey('2015 Ford F-150')).not.toBe(vehicleLabelKey('2015 Ford F-150 XLT'));
  });

  test('labels', () => {
    expect(vehicleLabel({ year: 2015, make: 'Ford', model: 'F-150', trim: 'XLT', plate: '', vin: '' })).toBe('2015 Ford F-150 XLT');
    expect(vehicleLabel({ year: null, make: '', model: '', trim: '', plate: 'ABC123', vin: '' })).toBe('Plate ABC123');
  });
});
