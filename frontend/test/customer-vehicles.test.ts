import { describe, expect, test } from 'vitest';
import { vehiclesWithoutRecord } from '../src/features/vehicles/utils/vehicles-without-record';

describe("the customer page's one list of vehicles", () => {
  test('a vehicle typed on the customer that has a record is listed once, as the record', () => {
    expect(vehiclesWithoutRecord(['2018 Mazda MX-5', '2010 Saab 9-3'], [{ label: '2018 Mazda MX-5' }])).toEqual(['2010 Saab 9-3']);
  });

  test('labels match without case and extra spaces; repeats and blanks are left out', () => {
    expect(vehiclesWithoutRecord(['2018  mazda MX-5 ', 'Civic', 'civic', ' '], [{ label: '2018 Mazda MX-5' }])).toEqual(['Civic']);
  });

  test('a vehicle longer than a record takes is listed as the record it became, not as one without a record', () => {
    const long = `${'Long '.repeat(18)}wagon`;
    expect(vehiclesWithoutRecord([long, 'Civic'], [{ label: long.slice(0, 80).trim() }])).toEqual(['Civic']);
  });

  test('with no records every typed vehicle is listed, in its order', () => {
    expect(vehiclesWithoutRecord(['Civic', 'F-150'], [])).toEqual(['Civic', 'F-150']);
  });
});
