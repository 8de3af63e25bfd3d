import { customerHistorySchema, customerPageSchema, type CustomerHistoryEntry, type CustomerView } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import {
  customerChanges,
  customerFormBody,
  customerToForm,
  EMPTY_CUSTOMER_FORM,
  fieldOfServerMessage,
  isCustomerFormDirty,
  validateCustomerForm,
} from '../src/features/customers/utils/customer-form.ts';
import { canTimeTravelTo, describeChange } from '../src/features/customers/utils/history-format.ts';

const customer: CustomerView = {
  id: 'c1',
  number: 7,
  name: 'Ada Lovelace',
  phone: '555-123-4567',
  email: 'ada@example.com',
  address: '1 Analytical Way',
  vehicles: '2019 Honda Civic, 2020 Ford F-150',
  vehicleList: ['2019 Honda Civic', '2020 Ford F-150'],
  pastAppointments: 'Civic, Oil change, 2024-01-02',
  invoices: 'INV-1, INV-2',
  notes: '',
  createdAt: '2025-01-01T10:00:00.000Z',
  createdBy: 'Owner',
  lastModifiedAt: '2025-01-01T10:00:00.000Z',
  lastModifiedBy: 'Owner',
};

describe('validateCustomerForm (the shared schema, as the server checks)', () => {
  test('an empty form: "At least one field must be filled out", at Name', () => {
    const result = validateCustomerForm(EMPTY_CUSTOMER_FORM);
    expect(result).toEqual({ ok: false, errors: { name: 'At least one field must be filled out' }, firstField: 'name' });
  });

  test('blank spaces do not count as filled', () => {
    expect(validateCustomerForm({ ...EMPTY_CUSTOMER_FORM, name: '   ', notes: ' ' }).ok).toBe(false);
  });

  test('one field is enough, and a vehicle typed but not added counts', () => {
    const result = validateCustomerForm({ ...EMPTY_CUSTOMER_FORM, vehicleDraft: ' 2021 Tesla Model 3 ' });
    expect(result).toMatchObject({ ok: true, value: { vehicles: '2021 Tesla Model 3', name: '' } });
  });

  test('the value is what the server stores: phone digits, lists joined by ", "', () => {
    const result = validateCustomerForm({
      ...EMPTY_CUSTOMER_FORM,
      name: ' Ada ',
      phone: '555-123-4567',
      vehicles: ['2019 Honda Civic'],
      vehicleDraft: '2019 honda civic',
      invoices: 'INV-1,INV-2 , INV-1',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'Ada',
        phone: '5551234567',
        email: '',
        address: '',
        vehicles: '2019 Honda Civic',
        pastAppointments: '',
        invoices: 'INV-1, INV-2',
        notes: '',
      },
    });
  });

  test('an invalid email is reported at Email', () => {
    const result = validateCustomerForm({ ...EMPTY_CUSTOMER_FORM, name: 'Ada', email: 'not-an-email' });
    expect(result).toEqual({ ok: false, errors: { email: 'Email must be valid' }, firstField: 'email' });
  });
});

describe('editing', () => {
  test('the form is filled from a customer read whole', () => {
    expect(customerToForm(customer)).toEqual({
      name: 'Ada Lovelace',
      phone: '555-123-4567',
      email: 'ada@example.com',
      address: '1 Analytical Way',
      vehicles: ['2019 Honda Civic', '2020 Ford F-150'],
      vehicleDraft: '',
      pastAppointments: 'Civic, Oil change, 2024-01-02',
      invoices: 'INV-1, INV-2',
      notes: '',
    });
  });

  test('dirty after any edit, clean again once it is undone', () => {
    const initial = customerToForm(customer);
    expect(isCustomerFormDirty(initial, { ...initial })).toBe(false);
    expect(isCustomerFormDirty(initial, { ...initial, notes: 'x' })).toBe(true);
    expect(isCustomerFormDirty(initial, { ...initial, vehicles: initial.vehicles.slice(1) })).toBe(true);
    expect(isCustomerFormDirty(initial, { ...initial, vehicleDraft: 'Bus' })).toBe(true);
    expect(isCustomerFormDirty(initial, { ...initial, vehicleDraft: '  ' })).toBe(false);
  });

  test('only the fields that changed are sent, compared as stored', () => {
    const initial = customerToForm(customer);
    const edited = { ...initial, name: 'Ada King', invoices: 'INV-1,INV-2', vehicles: [...initial.vehicles, '2021 Tesla Model 3'] };
    const result = validateCustomerForm(edited);
    if (!result.ok) throw new Error('expected valid');
    expect(customerChanges(initial, result.value)).toEqual({
      name: 'Ada King',
      vehicles: '2019 Honda Civic, 2020 Ford F-150, 2021 Tesla Model 3',
    });
  });

  test('the body sends vehicles as a list', () => {
    expect(customerFormBody({ ...EMPTY_CUSTOMER_FORM, vehicles: ['A'], vehicleDraft: 'B' }).vehicles).toEqual(['A', 'B']);
  });

  test('server messages land on their field', () => {
    expect(fieldOfServerMessage('At least one field must be filled out')).toBe('name');
    expect(fieldOfServerMessage('Email must be valid')).toBe('email');
    expect(fieldOfServerMessage('Phone number must be at most 10 digits')).toBe('phone');
    expect(fieldOfServerMessage('Each vehicle must be at most 100 characters')).toBe('vehicles');
    expect(fieldOfServerMessage('Customer not found')).toBe(null);
  });
});

describe('history rows', () => {
  const updated: CustomerHistoryEntry = {
    id: 'e2',
    action: 'updated',
    userDisplayName: 'Owner',
    timestamp: '2025-01-02T10:00:00.000Z',
    revision: 1,
    changes: [
      { field: 'phone', oldValue: '555-123-4567', newValue: '555-987-6543' },
      { field: 'notes', oldValue: '', newValue: 'VIP' },
    ],
  };

  test('old → new with labels; blanks read (empty)', () => {
    expect(describeChange(updated.changes[0]!, 'updated')).toEqual({ label: 'Phone', from: '555-123-4567', to: '555-987-6543' });
    expect(describeChange(updated.changes[1]!, 'updated')).toEqual({ label: 'Notes', from: '(empty)', to: 'VIP' });
  });

  test('a creation shows only the new value', () => {
    expect(describeChange({ field: 'pastAppointments', oldValue: null, newValue: 'Civic' }, 'created')).toEqual({
      label: 'Past Appointments',
      from: null,
      to: 'Civic',
    });
  });

  test('every row but the deletion can show the customer as it was', () => {
    expect(canTimeTravelTo(updated)).toBe(true);
    expect(canTimeTravelTo({ ...updated, action: 'deleted', changes: [] })).toBe(false);
  });
});

describe('response schemas', () => {
  test('a page of customers parses as the server answers it; one missing its texts is refused (the server always sends them)', () => {
    const page = customerPageSchema.parse({ items: [{ ...customer, phone: '•••-•••-4567' }], nextCursor: null, total: 1 });
    expect(page.items[0]).toMatchObject({ id: 'c1', phone: '•••-•••-4567', vehicleList: customer.vehicleList });
    expect(
      customerPageSchema.safeParse({
        items: [{ id: 'c1', number: 1, name: 'A', phone: '•••-•••-4567', vehicles: null, createdAt: '2025-01-01T00:00:00Z' }],
        nextCursor: null,
        total: 1,
      }).success,
    ).toBe(false);
  });

  test('history entries', () => {
    expect(() =>
      customerHistorySchema.parse([
        {
          id: 'e',
          action: 'created',
          userDisplayName: 'O',
          timestamp: 't',
          revision: 0,
          changes: [{ field: 'name', oldValue: null, newValue: 'A' }],
        },
      ]),
    ).not.toThrow();
  });
});
