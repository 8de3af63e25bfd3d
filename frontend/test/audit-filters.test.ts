import { describe, expect, test } from 'vitest';
import { auditQueryParams, EMPTY_AUDIT_FILTERS, isBackwardsRange } from '../src/features/audit/utils/audit-filters.ts';
import { formatChangeValue as formatAuditValue, formatDate, setDisplayTimeZone } from '@crm/projections/contract';
import { describeRepairOrderEvent } from '@crm/projections/repair-orders';
import { auditFieldLabel } from '../src/features/audit/utils/audit-format.ts';

describe('audit filters → query string', () => {
  test('nothing chosen sends nothing', () => {
    expect(auditQueryParams(EMPTY_AUDIT_FILTERS).toString()).toBe('');
  });

  test('the date range covers whole local days, the last one included', () => {
    const params = auditQueryParams({ ...EMPTY_AUDIT_FILTERS, fromDate: '2025-03-01', toDate: '2025-03-01' });
    expect(params.get('from')).toBe(new Date(2025, 2, 1).toISOString());
    expect(params.get('to')).toBe(new Date(2025, 2, 2).toISOString());
  });

  test('the end of a month rolls over', () => {
    expect(auditQueryParams({ ...EMPTY_AUDIT_FILTERS, toDate: '2025-01-31' }).get('to')).toBe(new Date(2025, 1, 1).toISOString());
  });

  test('entity, user and trimmed text are passed on', () => {
    const params = auditQueryParams({ ...EMPTY_AUDIT_FILTERS, entityType: 'job', userId: 'u-1', q: '  brake  ' });
    expect(Object.fromEntries(params)).toEqual({ entityType: 'job', userId: 'u-1', q: 'brake' });
  });

  test('a backwards range is recognised', () => {
    expect(isBackwardsRange({ fromDate: '2025-03-02', toDate: '2025-03-01' })).toBe(true);
    expect(isBackwardsRange({ fromDate: '2025-03-01', toDate: '2025-03-01' })).toBe(false);
    expect(isBackwardsRange({ fromDate: '', toDate: '2025-03-01' })).toBe(false);
  });
});

describe('audit values', () => {
  test('field names in words', () => {
    expect(auditFieldLabel('makeModel')).toBe('Vehicle');
    expect(auditFieldLabel('isLocked')).toBe('Locked');
    expect(auditFieldLabel('pastAppointments')).toBe('Past appointments');
    // A repair-order line's field: the line's description as typed, the field in words.
    expect(auditFieldLabel('Brake Pads XL (part): unitPrice')).toBe('Brake Pads XL (part): unit price');
  });

  test('values in words', () => {
    expect(formatAuditValue('isLocked', true)).toBe('Yes');
    expect(formatAuditValue('vehicleId', '2431bb38-2ab8-4e5e-ad12-d1ae457ae220')).toBe('Linked vehicle');
    expect(formatAuditValue('phone', '5551234567')).toBe('555-123-4567');
    expect(formatAuditValue('phone', '•••-•••-0100')).toBe('•••-•••-0100');
    // One duration formatter: the audit log reads a duration as the job's history does.
    expect(formatAuditValue('duration', 90)).toBe('1 h 30 min');
    expect(formatAuditValue('quote', '2500')).toBe('$2,500');
    expect(formatAuditValue('name', null)).toBe('(empty)');
    expect(formatAuditValue('name', 'Dana')).toBe('Dana');
    // A payment's method as the payment form names it, in the job's history and the audit log alike.
    expect(formatAuditValue('method', 'card')).toBe('Card');
    expect(formatAuditValue('method', 'check')).toBe('Check');
    // A service request's contact phone is a phone like any other.
    expect(formatAuditValue('contactPhone', '5551234567')).toBe('555-123-4567');
  });

  test("a calendar day (a service request's wanted date) reads as a date, the same day in every shop's zone", () => {
    try {
      for (const zone of ['Pacific/Honolulu', 'America/Chicago', 'UTC', 'Asia/Tokyo', 'Pacific/Kiritimati']) {
        setDisplayTimeZone(zone);
        expect(formatAuditValue('scheduledDate', '2026-12-04')).toBe('Dec 4, 2026');
        expect(formatDate('2026-12-04')).toBe('Dec 4, 2026');
      }
    } finally {
      setDisplayTimeZone(undefined);
    }
    // Not a day: the text as it came.
    expect(formatAuditValue('scheduledDate', '2026-13-45')).toBe('2026-13-45');
  });

  test("the shop's settings changed: the sentence names the fields in words, never their API names", () => {
    const described = describeRepairOrderEvent({
      type: 'ShopSettingsUpdated',
      data: {
        instanceId: 'i-1',
        changes: [
          { field: 'laborRate', oldValue: '100', newValue: '120' },
          { field: 'partsTaxRate', oldValue: '8', newValue: '8.25' },
        ],
      },
    } as Parameters<typeof describeRepairOrderEvent>[0]);
    expect(described.summary).toBe("Changed the shop's settings: labor rate, parts tax rate");
  });
});
