import { describe, expect, test } from 'vitest';
import { EMPTY_CUSTOMER_FIELDS, type CustomerFields } from '@crm/projections/customers';
import { customerDecider, type CustomerCommand, type CustomerEvent } from '../../src/customers/customer-decider.ts';
import { deciderSpec } from '../support/decider.ts';

const CUSTOMER_ID = '00000000-0000-4000-8000-000000000c01';
const INSTANCE_ID = '00000000-0000-4000-8000-0000000000aa';
const OTHER_INSTANCE = '00000000-0000-4000-8000-0000000000bb';

const fields: CustomerFields = {
  ...EMPTY_CUSTOMER_FIELDS,
  name: 'Jane Doe',
  phone: '5551234567',
  vehicles: '2019 Honda Civic',
};

const created: CustomerEvent = {
  type: 'CustomerCreated',
  data: { customerId: CUSTOMER_ID, instanceId: INSTANCE_ID, number: 7, ...fields },
};
const deleted: CustomerEvent = { type: 'CustomerDeleted', data: { customerId: CUSTOMER_ID, number: 7, name: 'Jane Doe' } };
const create = (f: CustomerFields = fields): CustomerCommand => ({
  type: 'CreateCustomer',
  customerId: CUSTOMER_ID,
  instanceId: INSTANCE_ID,
  number: 7,
  fields: f,
});
const update = (changes: Partial<CustomerFields>, instanceId = INSTANCE_ID): CustomerCommand => ({
  type: 'UpdateCustomer',
  instanceId,
  changes,
});
const remove = (instanceId = INSTANCE_ID): CustomerCommand => ({ type: 'DeleteCustomer', instanceId });

/** Given events, when a command: the events decided (or the error thrown). */
const given = deciderSpec(customerDecider);

describe('CreateCustomer', () => {
  test('records the customer with its number and stored fields', () => {
    expect(given().when(create())()).toEqual([created]);
  });
  test('a customer cannot be created twice', () => {
    expect(given(created).when(create())).toThrow('This customer already exists');
  });
  test('a customer with nothing filled in is refused', () => {
    expect(given().when(create({ ...EMPTY_CUSTOMER_FIELDS, name: '  ' }))).toThrow('At least one field must be filled out');
  });
});

describe('UpdateCustomer', () => {
  test('records only the changed fields, with old and new values', () => {
    expect(given(created).when(update({ name: 'Jane Doe', phone: '5559876543', email: 'jane@example.com' }))()).toEqual([
      {
        type: 'CustomerUpdated',
        data: {
          customerId: CUSTOMER_ID,
          number: 7,
          name: 'Jane Doe',
          changes: [
            { field: 'phone', oldValue: '5551234567', newValue: '5559876543' },
            { field: 'email', oldValue: '', newValue: 'jane@example.com' },
          ],
        },
      },
    ]);
  });
  test('fields left out stay; nothing changed means no event', () => {
    expect(given(created).when(update({}))()).toEqual([]);
    expect(given(created).when(update({ name: 'Jane Doe', vehicles: '2019 Honda Civic' }))()).toEqual([]);
  });
  test('changes build on earlier changes', () => {
    const renamed: CustomerEvent = {
      type: 'CustomerUpdated',
      data: {
        customerId: CUSTOMER_ID,
        number: 7,
        name: 'Jane Smith',
        changes: [{ field: 'name', oldValue: 'Jane Doe', newValue: 'Jane Smith' }],
      },
    };
    expect(given(created, renamed).when(update({ name: 'Jane Smith' }))()).toEqual([]);
    const [event] = given(created, renamed).when(update({ name: 'J. Smith' }))();
    expect(event).toMatchObject({ data: { name: 'J. Smith', changes: [{ field: 'name', oldValue: 'Jane Smith', newValue: 'J. Smith' }] } });
  });
  test('clearing every field is refused', () => {
    expect(given(created).when(update({ name: '', phone: '', vehicles: '' }))).toThrow('At least one field must be filled out');
  });
  test('a customer that does not exist, was deleted, or is of another instance is not found', () => {
    expect(given().when(update({ name: 'X' }))).toThrow('Customer not found');
    expect(given(created, deleted).when(update({ name: 'X' }))).toThrow('Customer not found');
    expect(given(created).when(update({ name: 'X' }, OTHER_INSTANCE))).toThrow('Customer not found');
  });
});

describe('DeleteCustomer', () => {
  test('records the deletion with number and name', () => {
    expect(given(created).when(remove())()).toEqual([deleted]);
  });
  test('the name after updates is the one recorded', () => {
    const renamed: CustomerEvent = {
      type: 'CustomerUpdated',
      data: {
        customerId: CUSTOMER_ID,
        number: 7,
        name: 'Jane Smith',
        changes: [{ field: 'name', oldValue: 'Jane Doe', newValue: 'Jane Smith' }],
      },
    };
    expect(given(created, renamed).when(remove())()).toEqual([{ ...deleted, data: { ...deleted.data, name: 'Jane Smith' } }]);
  });
  test('deleting twice, a customer never created, or one of another instance is not found', () => {
    expect(given(created, deleted).when(remove())).toThrow('Customer not found');
    expect(given().when(remove())).toThrow('Customer not found');
    expect(given(created).when(remove(OTHER_INSTANCE))).toThrow('Customer not found');
  });
});
