import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { parseStoredEvent, parseStoredEventWith } from '@crm/projections/events';
import type { RecordedEvent } from '@crm/projections/eventstore/port';
import { schemaVersionOf, upcastData, UPCASTERS, type UpcasterChains } from '@crm/projections/upcasters';
import { toNewEvents } from '../../src/shared/commands.ts';

/**
 * Schema evolution: an event recorded in an older shape is read as the current one. The
 * chains here are what a real change would register in UPCASTERS: CustomerCreated once had
 * `fullName` and `mobile` (v1), then one `vehicles` list instead of `vehicle` (v2), and the
 * current shape is v3.
 */
const chains: UpcasterChains = {
  CustomerCreated: [
    { from: 2, up: ({ vehicle, ...rest }) => ({ ...rest, vehicles: typeof vehicle === 'string' ? vehicle : '' }) },
    { from: 1, up: ({ fullName, mobile, ...rest }) => ({ ...rest, name: fullName, phone: mobile, vehicle: '' }) },
  ],
};

function recorded(type: string, data: unknown, schemaVersion: number | undefined): RecordedEvent {
  return {
    id: randomUUID(),
    streamId: `customer-${randomUUID()}`,
    revision: 0,
    position: { commit: 1n, prepare: 1n },
    type,
    data,
    metadata: {
      instanceId: 'i',
      actor: { kind: 'user', id: 'u', displayName: 'U' },
      correlationId: 'c',
      causationId: null,
      occurredAt: new Date().toISOString(),
      ...(schemaVersion === undefined ? {} : { schemaVersion }),
    } as RecordedEvent['metadata'],
    recordedAt: new Date(),
  };
}

const v1 = {
  customerId: 'c1',
  instanceId: 'i',
  number: 7,
  fullName: 'Ada Lovelace',
  mobile: '5550100',
  email: '',
  address: '',
  pastAppointments: '',
  invoices: '',
  notes: '',
};

describe('upcasters', () => {
  test('an event of version 1 is read through every step as the current shape', () => {
    expect(schemaVersionOf('CustomerCreated', chains)).toBe(3);
    const parsed = parseStoredEventWith(recorded('CustomerCreated', v1, 1), chains);
    expect(parsed?.type).toBe('CustomerCreated');
    expect(parsed?.data).toEqual({
      customerId: 'c1',
      instanceId: 'i',
      number: 7,
      name: 'Ada Lovelace',
      phone: '5550100',
      email: '',
      address: '',
      vehicles: '',
      pastAppointments: '',
      invoices: '',
      notes: '',
    });
  });

  test('a middle version takes only the steps after it; the current version is read as it is', () => {
    const v2 = { ...v1, fullName: undefined, mobile: undefined, name: 'B', phone: '1', vehicle: 'Civic' };
    expect(upcastData('CustomerCreated', 2, v2, chains)).toMatchObject({ name: 'B', vehicles: 'Civic' });
    const v3 = { ...v1, name: 'C', phone: '2', vehicles: 'Golf' };
    expect(upcastData('CustomerCreated', 3, v3, chains)).toBe(v3);
  });

  test('an event without a version counts as the first; one newer than this release is refused, not misread', () => {
    expect(parseStoredEventWith(recorded('CustomerCreated', v1, undefined), chains)?.data).toMatchObject({ name: 'Ada Lovelace' });
    expect(() => parseStoredEventWith(recorded('CustomerCreated', v1, 4), chains)).toThrow(/schema version 4/);
  });

  test("the product's own events: written at their type's current version and read back unchanged", () => {
    const [written] = toNewEvents([{ type: 'CustomerDeleted', data: { customerId: 'c1', number: 7, name: 'A' } }], {
      instanceId: 'i',
      actor: { kind: 'system', id: 's', displayName: 'S' },
      correlationId: 'c',
      now: new Date(),
    });
    expect(written!.metadata.schemaVersion).toBe(schemaVersionOf('CustomerDeleted'));
    // Every registered chain is complete: each type's versions follow one another from 1.
    for (const [type, chain] of Object.entries(UPCASTERS)) {
      expect(
        chain.map((u) => u.from).sort((a, b) => a - b),
        type,
      ).toEqual(chain.map((_, i) => i + 1));
    }
    const current = parseStoredEvent(recorded('CustomerDeleted', written!.data, written!.metadata.schemaVersion));
    expect(current?.data).toEqual({ customerId: 'c1', number: 7, name: 'A' });
  });
});
