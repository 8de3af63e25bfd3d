import { describe, expect, test } from 'vitest';
import {
  BOARD_STAGES,
  formatQuote,
  INVALID_JOB_TYPE_MESSAGE,
  INVALID_STAGE_MESSAGE,
  isBlankJob,
  JOB_MESSAGES,
  jobChangesInput,
  jobInput,
  jobListQuery,
  normalizeJobType,
  normalizeStage,
  STAGES,
  stageOrder,
} from '../src/pipeline/index.ts';
import { formatPhone, formatPhoneAsTyped, maskPhone } from '../src/shared/index.ts';

const issues = (result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('stages', () => {
  test('nine canonical stages in board order; the board shows all but Canceled', () => {
    expect(STAGES).toEqual(['Quote', 'Parts Ordered', 'Parts In', 'Scheduled', 'In Progress', 'Completed', 'Invoiced', 'Paid', 'Canceled']);
    expect(BOARD_STAGES).toEqual(STAGES.slice(0, 8));
    expect(stageOrder('Quote')).toBe(0);
    expect(stageOrder('Canceled')).toBe(8);
  });

  test.each([
    ['Quoted', 'Quote'],
    ['Complete', 'Completed'],
    ['Cancelled', 'Canceled'],
    ['Approved', 'Parts Ordered'],
    ['Delivered', 'Completed'],
    ['quoted', 'Quote'],
    ['CANCELLED', 'Canceled'],
    ['delivered ', 'Completed'],
    ['in progress', 'In Progress'],
    ['parts-ordered', 'Parts Ordered'],
    ['PARTS_IN', 'Parts In'],
    ['Paid', 'Paid'],
  ])('%s → %s', (input, stage) => {
    expect(normalizeStage(input)).toBe(stage);
  });

  test.each(['Shipped', '', 'Q', 'Quotes'])('%j is no stage', (input) => {
    expect(normalizeStage(input)).toBeNull();
  });

  test('the message lists every valid stage', () => {
    expect(INVALID_STAGE_MESSAGE).toBe(
      'Stage must be one of: Quote, Parts Ordered, Parts In, Scheduled, In Progress, Completed, Invoiced, Paid, Canceled',
    );
  });
});

describe('job types', () => {
  test.each([
    ['In Shop', 'In Shop'],
    ['in-shop', 'In Shop'],
    ['mobile', 'Mobile'],
    ['Floating Mobile', 'Floating Mobile'],
    ['floating shop', 'Floating Shop'],
    ['pickup', 'Pickup'],
    ['Pick-Up', 'Pickup'],
    ['delivery', 'Delivery'],
  ])('%s → %s', (input, type) => {
    expect(normalizeJobType(input)).toBe(type);
  });

  test('unknown types are none', () => {
    expect(normalizeJobType('Teleport')).toBeNull();
  });
});

describe('formatting', () => {
  test.each([
    ['1234', '$1,234'],
    ['', '$0'],
    [null, '$0'],
    [undefined, '$0'],
    ['0', '$0'],
    ['999', '$999'],
    ['1000000', '$1,000,000'],
    [2500, '$2,500'],
    ['12abc', '$12'],
    ['abc', '$0'],
  ])('formatQuote(%j) = %s', (input, output) => {
    expect(formatQuote(input)).toBe(output);
  });

  test('phones: 3-3-4 with exactly 10 digits, masked in lists, grouped as typed', () => {
    expect(formatPhone('5551234567')).toBe('555-123-4567');
    expect(formatPhone('555123')).toBe('555123');
    expect(maskPhone('5551234567')).toBe('•••-•••-4567');
    expect(maskPhone('')).toBe('');
    expect(formatPhoneAsTyped('555')).toBe('555');
    expect(formatPhoneAsTyped('5551')).toBe('555-1');
    expect(formatPhoneAsTyped('555123456')).toBe('555-123-456');
    expect(formatPhoneAsTyped('(555) 123-45678901')).toBe('555-123-4567');
  });
});

describe('job input', () => {
  test('fills defaults, normalises every field', () => {
    const parsed = jobInput.parse({
      jobNumber: ' 42 ',
      name: '  Ann Lee ',
      phone: '(555) 123-4567',
      part: 'Brake pads',
      makeModel: '2015 Honda Civic',
      quote: '01234',
      stage: 'approved',
      vin: '1hgcm82633a004352',
      csr: 'Sam',
      jobType: 'in-shop',
      appointment: '2025-03-01T09:00:00-05:00',
      duration: '90',
      tech: 'Tom',
      notes: 'Rear only',
      id: 7,
      createdAt: 'whatever',
    });
    expect(parsed).toEqual({
      jobNumber: '42',
      name: 'Ann Lee',
      phone: '5551234567',
      part: 'Brake pads',
      makeModel: '2015 Honda Civic',
      quote: 1234,
      stage: 'Parts Ordered',
      vin: '1HGCM82633A004352',
      csr: 'Sam',
      jobType: 'In Shop',
      appointment: '2025-03-01T14:00:00.000Z',
      duration: 90,
      tech: 'Tom',
      notes: 'Rear only',
      customerId: null,
      vehicleId: null,
      mileageIn: null,
      mileageOut: null,
    });
  });

  test('a new entry starts in Quote with empty fields', () => {
    expect(jobInput.parse({ part: 'Tyres' })).toMatchObject({
      stage: 'Quote',
      quote: null,
      appointment: null,
      duration: null,
      jobNumber: '',
    });
  });

  test('at least one field must be filled out (the stage does not count)', () => {
    const result = jobInput.safeParse({ stage: 'Quote', name: '  ', quote: '' });
    expect(issues(result)).toEqual(['At least one field must be filled out']);
    expect(result.error?.issues[0]?.path).toEqual(['name']);
    expect(isBlankJob({ stage: 'Paid' })).toBe(true);
    expect(isBlankJob({ quote: 0 })).toBe(false);
  });

  test('a change names only what it changes; null and "" clear', () => {
    expect(jobChangesInput.parse({ stage: 'Cancelled' })).toEqual({ stage: 'Canceled' });
    expect(jobChangesInput.parse({ quote: '', appointment: null, notes: null })).toEqual({ quote: null, appointment: null, notes: '' });
    expect(jobChangesInput.parse({ stage: '' })).toEqual({});
  });

  test.each([
    [{ stage: 'Shipped' }, INVALID_STAGE_MESSAGE],
    [{ stage: 3 }, INVALID_STAGE_MESSAGE],
    [{ name: 42 }, 'Name must be text'],
    [{ phone: '555-CALL-NOW' }, 'Phone number must contain only digits'],
    [{ phone: '+1 555 123 4567' }, 'Phone number must be at most 10 digits'],
    [{ quote: '12.505' }, JOB_MESSAGES.quoteFormat],
    [{ quote: '12,50' }, JOB_MESSAGES.quoteFormat],
    [{ quote: 'twelve' }, JOB_MESSAGES.quoteFormat],
    [{ quote: -5 }, JOB_MESSAGES.quoteFormat],
    [{ quote: 1.005 }, JOB_MESSAGES.quoteFormat],
    [{ quote: '1000000000' }, 'Quote must be at most 999,999,999 dollars'],
    [{ jobType: 'Teleport' }, INVALID_JOB_TYPE_MESSAGE],
    [{ appointment: '2025-03-01T09:00' }, 'Appointment must be an ISO date and time with a time zone, e.g. 2025-03-01T09:00:00Z'],
    [{ appointment: 'tomorrow' }, 'Appointment must be an ISO date and time with a time zone, e.g. 2025-03-01T09:00:00Z'],
    [{ duration: 0 }, 'Duration must be a whole number of minutes from 1 to 1440'],
    [{ duration: '1.5' }, 'Duration must be a whole number of minutes from 1 to 1440'],
    [{ duration: 2000 }, 'Duration must be a whole number of minutes from 1 to 1440'],
    [{ customerId: 'abc' }, 'customerId must be the id of a customer'],
    [{ notes: 'x'.repeat(5001) }, 'Notes must be at most 5000 characters'],
    [{ jobNumber: { n: 1 } }, 'Job number must be text'],
  ])('%j is refused: %s', (input, message) => {
    expect(issues(jobChangesInput.safeParse(input))).toContain(message);
  });

  test('customer and vehicle ids: trimmed and lowercased when ids, refused otherwise, value after value', () => {
    const id = 'A1B2C3D4-0000-4000-8000-00000000000F';
    for (let i = 0; i < 3; i++) {
      expect(jobChangesInput.parse({ customerId: ` ${id} `, vehicleId: id })).toEqual({
        customerId: id.toLowerCase(),
        vehicleId: id.toLowerCase(),
      });
      expect(jobChangesInput.parse({ customerId: '', vehicleId: null })).toEqual({ customerId: null, vehicleId: null });
      expect(issues(jobChangesInput.safeParse({ customerId: 'abc', vehicleId: `${id}0` }))).toEqual([
        'customerId must be the id of a customer',
        JOB_MESSAGES.vehicleId,
      ]);
    }
  });

  test('quotes carry cents, typed with thousands commas and a $ or not', () => {
    expect(jobChangesInput.parse({ quote: '1,250.50' })).toEqual({ quote: 1250.5 });
    expect(jobChangesInput.parse({ quote: '$89.95' })).toEqual({ quote: 89.95 });
    expect(jobChangesInput.parse({ quote: 89.95 })).toEqual({ quote: 89.95 });
    expect(jobChangesInput.parse({ quote: '12.5' })).toEqual({ quote: 12.5 });
  });

  test('the CSR the entry dialog fills in does not make an entry filled out', () => {
    expect(isBlankJob({ stage: 'Quote', csr: 'Sam' })).toBe(true);
    expect(issues(jobInput.safeParse({ stage: 'Quote', csr: 'Sam' }))).toEqual(['At least one field must be filled out']);
  });

  test('numbers are accepted where a form might send them', () => {
    expect(jobChangesInput.parse({ quote: 1500, duration: 60, jobNumber: 1001 })).toEqual({ quote: 1500, duration: 60, jobNumber: '1001' });
  });
});

describe('list query', () => {
  test('defaults: stage order, Canceled hidden, 50 a page', () => {
    expect(jobListQuery.parse({})).toEqual({ sort: 'stage', canceled: 'hide', limit: 50 });
  });

  test('stage filter takes aliases; All is no filter', () => {
    expect(jobListQuery.parse({ stage: 'quoted' }).stage).toBe('Quote');
    expect(jobListQuery.parse({ stage: 'All' }).stage).toBeUndefined();
  });

  test.each([
    [{ sort: 'price' }, 'sort must be one of: stage, newest, oldest, name-asc, name-desc'],
    [{ limit: '0' }, 'limit must be a whole number from 1 to 200'],
    [{ limit: '500' }, 'limit must be at most 200'],
    [{ limit: 'ten' }, 'limit must be a whole number from 1 to 200'],
    [{ q: ['a', 'b'] }, 'q must be given once'],
    [{ canceled: 'yes' }, 'canceled must be one of: hide, only, include'],
    [{ stage: 'Nope' }, INVALID_STAGE_MESSAGE],
  ])('%j is refused', (input, message) => {
    expect(issues(jobListQuery.safeParse(input))).toContain(message);
  });
});
