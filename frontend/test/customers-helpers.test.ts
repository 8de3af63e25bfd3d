import { formatPhoneAsTyped } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import { isDeleteConfirmed } from '../src/features/customers/utils/confirm-delete.ts';
import { customerDisplayName } from '../src/features/customers/utils/customer-display.ts';
import { customerPaths } from '../src/features/customers/utils/customer-paths.ts';
import { loadErrorMessage } from '../src/features/customers/utils/load-error-message.ts';
import { moreLabel, summarizeList } from '../src/features/customers/utils/summarize-list.ts';
import { addVehicles, removeVehicle } from '../src/features/customers/utils/vehicle-chips.ts';
import { ApiError, apiErrorFromResponse } from '../src/lib/api-error.ts';

describe('addVehicles (the chips editor)', () => {
  test('adds a trimmed vehicle', () => {
    expect(addVehicles([], '  2019 Honda Civic ')).toEqual({ added: ['2019 Honda Civic'], vehicles: ['2019 Honda Civic'] });
  });

  test('ignores blank text', () => {
    expect(addVehicles(['2019 Honda Civic'], '   ')).toEqual({ added: [], vehicles: ['2019 Honda Civic'], reason: 'empty' });
    expect(addVehicles([], ' , ')).toMatchObject({ added: [], reason: 'empty' });
  });

  test('ignores a repeat whatever its case', () => {
    const result = addVehicles(['2019 Honda Civic'], '2019 HONDA civic');
    expect(result).toEqual({ added: [], vehicles: ['2019 Honda Civic'], reason: 'duplicate' });
    // Extra spaces too: it is the same vehicle record.
    expect(addVehicles(['2019 Honda Civic'], '2019  honda   civic')).toMatchObject({ added: [], reason: 'duplicate' });
  });

  test('a typed comma separates vehicles (they are stored joined by ", ")', () => {
    const result = addVehicles(['2019 Honda Civic'], '2020 Ford F-150, 2019 honda civic, 2021 Tesla Model 3, 2021 tesla model 3');
    expect(result.added).toEqual(['2020 Ford F-150', '2021 Tesla Model 3']);
    expect(result.vehicles).toEqual(['2019 Honda Civic', '2020 Ford F-150', '2021 Tesla Model 3']);
  });

  test('does not change the list it is given', () => {
    const vehicles = ['A'];
    addVehicles(vehicles, 'B');
    expect(vehicles).toEqual(['A']);
  });

  test('removeVehicle drops the chip at an index', () => {
    expect(removeVehicle(['A', 'B', 'C'], 1)).toEqual(['A', 'C']);
    expect(removeVehicle(['A'], 5)).toEqual(['A']);
  });
});

describe('summarizeList (cards: 2 services, 3 invoices, then "+N more")', () => {
  test('shows the first items and counts the rest', () => {
    expect(summarizeList('Oil change, Brakes, Tires, Alignment', 2)).toEqual({ shown: ['Oil change', 'Brakes'], hidden: 2 });
    expect(summarizeList('INV-1, INV-2, INV-3', 3)).toEqual({ shown: ['INV-1', 'INV-2', 'INV-3'], hidden: 0 });
  });

  test('skips blank pieces and accepts arrays', () => {
    expect(summarizeList(' , A,, B ,', 3)).toEqual({ shown: ['A', 'B'], hidden: 0 });
    expect(summarizeList(['A', 'B', 'C', 'D'], 3)).toEqual({ shown: ['A', 'B', 'C'], hidden: 1 });
    expect(summarizeList('', 2)).toEqual({ shown: [], hidden: 0 });
  });

  test('moreLabel: "+N more" (with dots for Recent Services), nothing for zero', () => {
    expect(moreLabel(2, { ellipsis: true })).toBe('+2 more...');
    expect(moreLabel(1)).toBe('+1 more');
    expect(moreLabel(0)).toBe('');
  });
});

describe('formatPhoneAsTyped (XXX-XXX-XXXX as typed, at most 10 digits)', () => {
  test.each([
    ['', ''],
    ['5', '5'],
    ['555', '555'],
    ['5551', '555-1'],
    ['555123', '555-123'],
    ['5551234', '555-123-4'],
    ['5551234567', '555-123-4567'],
    ['55512345678999', '555-123-4567'],
    ['(555) 123-4567', '555-123-4567'],
    ['abc555x', '555'],
    ['555-', '555'],
  ])('%j → %j', (typed, shown) => {
    expect(formatPhoneAsTyped(typed)).toBe(shown);
  });
});

describe('small texts', () => {
  test('a customer without a name is "Unnamed Customer"', () => {
    expect(customerDisplayName({ name: '' })).toBe('Unnamed Customer');
    expect(customerDisplayName({ name: '   ' })).toBe('Unnamed Customer');
    expect(customerDisplayName({ name: 'Ada' })).toBe('Ada');
  });

  test('typing "delete" in any case (and with stray spaces) confirms', () => {
    expect(isDeleteConfirmed('delete')).toBe(true);
    expect(isDeleteConfirmed('DeLeTe ')).toBe(true);
    expect(isDeleteConfirmed('delet')).toBe(false);
    expect(isDeleteConfirmed('delete it')).toBe(false);
  });

  test('load errors: the server message, else "Failed to fetch customers: {status}", else the network error', () => {
    expect(loadErrorMessage(apiErrorFromResponse(400, 'Bad Request', '{"message":"Search text must be at most 200 characters"}'))).toBe(
      'Search text must be at most 200 characters',
    );
    expect(loadErrorMessage(new ApiError(502, '502: Bad Gateway'))).toBe('Failed to fetch customers: 502');
    expect(loadErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });

  test('paths: the list follows the family, the other screens are canonical', () => {
    const crm = customerPaths('acme');
    expect(crm).toMatchObject({ list: '/crm/acme/customers', create: '/crm/acme/customers/new' });
    expect(crm.detail('c-1')).toBe('/crm/acme/customers/c-1');
    expect(crm.edit('c-1')).toBe('/crm/acme/customers/c-1/edit');
    expect(customerPaths('maven', 'maven').list).toBe('/maven/customers');
  });
});
