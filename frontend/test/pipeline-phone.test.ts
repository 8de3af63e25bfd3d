import { displayPhone, formatPhoneAsTyped } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';

/** Types `text` one character at a time into a box that reformats on every change, like the dialog's Phone. */
function typeInto(text: string, start = ''): string[] {
  const shown: string[] = [];
  let value = start;
  for (const character of text) {
    value = formatPhoneAsTyped(value + character);
    shown.push(value);
  }
  return shown;
}

describe('phone grouping as typed (entry dialog)', () => {
  test('groups 3-3-4 with dashes while typing, one digit at a time', () => {
    expect(typeInto('5551234567')).toEqual([
      '5',
      '55',
      '555',
      '555-1',
      '555-12',
      '555-123',
      '555-123-4',
      '555-123-45',
      '555-123-456',
      '555-123-4567',
    ]);
  });

  test('keeps digits only and stops at ten', () => {
    expect(formatPhoneAsTyped('(555) 123-4567 ext 89')).toBe('555-123-4567');
    expect(typeInto('9', '555-123-4567').at(-1)).toBe('555-123-4567');
    expect(formatPhoneAsTyped('abc')).toBe('');
  });

  test('deleting back over a dash does not get stuck', () => {
    // The box shows '555-1'; backspace removes the '1' and leaves '555-', which regroups to '555'.
    expect(formatPhoneAsTyped('555-')).toBe('555');
    expect(formatPhoneAsTyped('555-123-')).toBe('555-123');
  });

  test('a pasted formatted number is regrouped', () => {
    expect(formatPhoneAsTyped('555.123.4567')).toBe('555-123-4567');
    expect(formatPhoneAsTyped('+1 555 123 456')).toBe('155-512-3456');
  });
});

describe('displayPhone (lists and cards)', () => {
  test('ten digits are shown 3-3-4', () => {
    expect(displayPhone('5551234567')).toBe('555-123-4567');
    expect(displayPhone('(555) 123-4567')).toBe('555-123-4567');
  });

  test('a masked list phone is shown as the server gave it', () => {
    expect(displayPhone('•••-•••-4567')).toBe('•••-•••-4567');
  });

  test('a 7-digit local number is shown 3-4, as typed ("555-0100", not "5550100")', () => {
    expect(displayPhone('5550100')).toBe('555-0100');
    expect(displayPhone('555-0100')).toBe('555-0100');
  });

  test('any other count of digits stays as it is', () => {
    expect(displayPhone('555123')).toBe('555123');
    expect(displayPhone('55512345')).toBe('55512345');
    expect(displayPhone('')).toBe('');
  });
});
