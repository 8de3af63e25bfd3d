import { describe, expect, test } from 'vitest';
import { customerChangesInput, customerInput, isBlankCustomer, joinList, parseList } from '../src/customers/index.ts';
import { formatPhone, maskPhone, normalizePhone, phoneSearchDigits } from '../src/shared/index.ts';

function messagesOf(result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) {
  return result.error?.issues.map((issue) => ({ message: issue.message, path: issue.path.join('.') })) ?? [];
}

describe('phones', () => {
  test('normalise to digits, whatever separators were typed', () => {
    expect(normalizePhone('(555) 123-4567')).toEqual({ ok: true, digits: '5551234567' });
    expect(normalizePhone('555.123.4567')).toEqual({ ok: true, digits: '5551234567' });
    expect(normalizePhone('')).toEqual({ ok: true, digits: '' });
    expect(normalizePhone('12345')).toEqual({ ok: true, digits: '12345' });
  });

  test('at most 10 digits; letters are refused, not dropped', () => {
    expect(normalizePhone('+1 555 123 4567')).toEqual({ ok: false, message: 'Phone number must be at most 10 digits' });
    expect(normalizePhone('555-CALL-NOW')).toEqual({ ok: false, message: 'Phone number must contain only digits' });
    // A masked number sent back from a list is not a phone number.
    expect(normalizePhone('•••-•••-1234')).toEqual({ ok: false, message: 'Phone number must contain only digits' });
  });

  test('formatted XXX-XXX-XXXX with exactly 10 digits, otherwise as digits', () => {
    expect(formatPhone('5551234567')).toBe('555-123-4567');
    expect(formatPhone('555-123-4567')).toBe('555-123-4567');
    expect(formatPhone('12345')).toBe('12345');
    // The customer page shows a 7-digit local number grouped too.
    expect(formatPhone('5550100')).toBe('555-0100');
    expect(formatPhone('')).toBe('');
  });

  test('masked to the last four digits', () => {
    expect(maskPhone('5551234567')).toBe('•••-•••-4567');
    expect(maskPhone('555-123-4567')).toBe('•••-•••-4567');
    expect(maskPhone('987')).toBe('•••-•••-987');
    expect(maskPhone('')).toBe('');
  });

  test('a search looks like a phone when it holds only digits and separators', () => {
    expect(phoneSearchDigits('555-12')).toBe('55512');
    expect(phoneSearchDigits('(555) 1')).toBe('5551');
    expect(phoneSearchDigits('Main 555')).toBe('');
  });
});

describe('lists', () => {
  test('a comma-separated text or an array, trimmed, empties dropped', () => {
    expect(parseList(' 2019 Honda Civic ,, 2020 Ford F-150 ')).toEqual(['2019 Honda Civic', '2020 Ford F-150']);
    expect(parseList(['2019 Honda Civic', ' ', 'A, B'])).toEqual(['2019 Honda Civic', 'A', 'B']);
    expect(parseList('')).toEqual([]);
    expect(parseList(null)).toEqual([]);
    expect(parseList(undefined)).toEqual([]);
  });

  test('repeats dropped without case, or exactly, keeping the first', () => {
    expect(parseList('Civic, civic, CIVIC, Accord', { dedupe: 'sameVehicle' })).toEqual(['Civic', 'Accord']);
    // A vehicle is the same one with extra spaces too: it is one record of the customer.
    expect(parseList('2015 Ford F-150, 2015  ford F-150', { dedupe: 'sameVehicle' })).toEqual(['2015 Ford F-150']);
    expect(parseList('INV-1, inv-1, INV-1', { dedupe: 'exact' })).toEqual(['INV-1', 'inv-1']);
    expect(parseList('Civic, Oil change, Civic', { dedupe: false })).toEqual(['Civic', 'Oil change', 'Civic']);
  });

  test('joined by comma and space, and read back to the same items', () => {
    const items = ['2019 Honda Civic', '2020 Ford F-150'];
    expect(joinList(items)).toBe('2019 Honda Civic, 2020 Ford F-150');
    expect(parseList(joinList(items))).toEqual(items);
  });
});

describe('customer input', () => {
  test('normalises every field to its stored form', () => {
    const result = customerInput.safeParse({
      name: '  Jane Doe ',
      phone: '(555) 123-4567',
      email: ' jane@example.com ',
      address: '1 Main St',
      vehicles: ['2019 Honda Civic', '2019 honda civic', '2020 Ford F-150'],
      pastAppointments: 'Civic, Oil change, 2024-01-05, Civic, Brakes, 2024-03-01',
      invoices: 'INV-1, INV-2, INV-1',
      notes: 'Prefers mornings',
      id: 'ignored',
    });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      name: 'Jane Doe',
      phone: '5551234567',
      email: 'jane@example.com',
      address: '1 Main St',
      vehicles: '2019 Honda Civic, 2020 Ford F-150',
      pastAppointments: 'Civic, Oil change, 2024-01-05, Civic, Brakes, 2024-03-01',
      invoices: 'INV-1, INV-2',
      notes: 'Prefers mornings',
    });
  });

  test('missing and null fields are empty', () => {
    const result = customerInput.safeParse({ name: 'Only Name', phone: null, vehicles: null });
    expect(result.data).toEqual({
      name: 'Only Name',
      phone: '',
      email: '',
      address: '',
      vehicles: '',
      pastAppointments: '',
      invoices: '',
      notes: '',
    });
  });

  test.each([
    [{}, 'At least one field must be filled out', 'name'],
    [{ name: '   ', vehicles: ' , ', phone: '' }, 'At least one field must be filled out', 'name'],
    [{ name: 'A', phone: '555-123-45678' }, 'Phone number must be at most 10 digits', 'phone'],
    [{ name: 'A', phone: 'abc' }, 'Phone number must contain only digits', 'phone'],
    [{ name: 'A', phone: 5551234567 }, 'Phone number must be text', 'phone'],
    [{ name: 'A', email: 'not-an-email' }, 'Email must be valid', 'email'],
    [{ name: 'x'.repeat(201) }, 'Name must be at most 200 characters', 'name'],
    [{ name: 'A', address: 'x'.repeat(501) }, 'Address must be at most 500 characters', 'address'],
    [{ name: 'A', notes: 'x'.repeat(5001) }, 'Notes must be at most 5000 characters', 'notes'],
    [{ name: 'A', vehicles: ['x'.repeat(101)] }, 'Each vehicle must be at most 100 characters', 'vehicles'],
    [
      { name: 'A', vehicles: Array.from({ length: 40 }, (_, i) => `${i} ${'v'.repeat(60)}`) },
      'Vehicles must be at most 2000 characters',
      'vehicles',
    ],
    [{ name: 'A', invoices: 42 }, 'Invoices must be text or a list of text', 'invoices'],
    [{ name: 42 }, 'Name must be text', 'name'],
  ])('%j is refused: %s', (input, message, path) => {
    const result = customerInput.safeParse(input);
    expect(result.success).toBe(false);
    expect(messagesOf(result)[0]).toEqual({ message, path });
  });

  test('any one field is enough', () => {
    for (const field of ['name', 'phone', 'email', 'address', 'vehicles', 'pastAppointments', 'invoices', 'notes']) {
      const value = field === 'phone' ? '5551234567' : field === 'email' ? 'a@b.co' : 'x';
      expect(customerInput.safeParse({ [field]: value }).success).toBe(true);
    }
  });

  test('a change leaves out what it does not name, and may clear a field', () => {
    expect(customerChangesInput.parse({ phone: '555 123 4567' })).toEqual({ phone: '5551234567' });
    expect(customerChangesInput.parse({ notes: null, email: '' })).toEqual({ notes: '', email: '' });
    expect(customerChangesInput.parse({})).toEqual({});
  });

  test('blank customers', () => {
    expect(isBlankCustomer({ name: ' ', phone: '' })).toBe(true);
    expect(isBlankCustomer({ invoices: 'INV-1' })).toBe(false);
  });
});
