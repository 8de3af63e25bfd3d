import { describe, expect, test } from 'vitest';
import { vinFeedback } from '../src/lib/vin-feedback';

/** A VIN box's words: what the VIN decodes to is labelled as the VIN's, never read as what was typed. */
describe('vinFeedback', () => {
  test('a VIN that checks out says what the VIN says, labelled: model year, make, where it was made', () => {
    expect(vinFeedback('1hgcm8-2633a004352')).toEqual({ hint: 'The VIN says model year 2003 · Honda · made in United States.' });
  });

  test("a typed year the VIN disagrees with is named beside it; the VIN's own year alone says nothing more", () => {
    expect(vinFeedback('1HGCM82633A004352', '2004').hint).toBe(
      'The VIN says model year 2003 · Honda · made in United States. The VIN says model year 2003, not 2004: check the year or the VIN.',
    );
    expect(vinFeedback('1HGCM82633A004352', '2003').hint).toBe('The VIN says model year 2003 · Honda · made in United States.');
    expect(vinFeedback('1HGCM82633A004352', '20').hint).toBe('The VIN says model year 2003 · Honda · made in United States.');
  });

  test('a VIN from outside North America keeps its warning, one sentence each', () => {
    expect(vinFeedback('WVWZZZ1JZXW000001').hint).toBe(
      'The VIN says model year 1999 · Volkswagen · made in Germany. Check digit not verified: this VIN is from outside North America, where the 9th character need not be a check digit.',
    );
  });

  test('a wrong VIN says what is wrong, and nothing when empty', () => {
    expect(vinFeedback('1HGCM82633A00435').error).toMatch(/17 characters/);
    expect(vinFeedback('  ')).toEqual({});
  });
});
