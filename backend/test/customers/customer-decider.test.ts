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
const remove = (instanceId = INSTANCE_ID, vehicleIds: string[] = []): CustomerCommand => ({
  type: 'DeleteCustomer',
  instanceId,
  vehicleIds,
});

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
  test('the vehicle records deleted with it are listed on the deletion, and kept in the state a restore reads', () => {
    const withVehicles: CustomerEvent = { ...deleted, data: { ...deleted.data, vehicleIds: ['v1', 'v2'] } };
    expect(given(created).when(remove(INSTANCE_ID, ['v1', 'v2']))()).toEqual([withVehicles]);
    const state = [created, withVehicles].reduce(customerDecider.evolve, customerDecider.initialState);
    expect(state).toMatchObject({ status: 'deleted', vehicleIds: ['v1', 'v2'] });
    // Deleted before vehicles went with it: none to bring back.
    expect([created, deleted].reduce(customerDecider.evolve, customerDecider.initialState)).toMatchObject({ vehicleIds: [] });
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

describe('MergeCustomer and UndoCustomerMerge', () => {
  const INTO_ID = '00000000-0000-4000-8000-000000000c02';
  const merge = {
    mergeId: 'merge-1',
    fromId: CUSTOMER_ID,
    fromName: 'Jane Doe',
    intoId: INTO_ID,
    intoName: 'Jane D.',
    jobIds: ['job-1'],
    renamedJobIds: ['job-1'],
    vehicleIds: ['vehicle-1'],
  };
  const mergeCommand: CustomerCommand = { type: 'MergeCustomer', instanceId: INSTANCE_ID, merge };
  const undo: CustomerCommand = {
    type: 'UndoCustomerMerge',
    instanceId: INSTANCE_ID,
    mergeId: 'merge-1',
    createdAt: '2026-01-01T00:00:00.000Z',
    createdBy: 'Owner',
  };
  const intoCreated: CustomerEvent = {
    type: 'CustomerCreated',
    data: { customerId: INTO_ID, instanceId: INSTANCE_ID, number: 8, ...fields, name: 'Jane D.' },
  };
  const mergedFrom: CustomerEvent = {
    type: 'CustomerMerged',
    data: { customerId: CUSTOMER_ID, number: 7, name: 'Jane Doe', role: 'from', ...merge },
  };
  const mergedInto: CustomerEvent = {
    type: 'CustomerMerged',
    data: { customerId: INTO_ID, number: 8, name: 'Jane D.', role: 'into', ...merge },
  };

  test('records the merge on each side, with the side it is', () => {
    expect(given(created).when(mergeCommand)()).toEqual([mergedFrom]);
    expect(given(intoCreated).when(mergeCommand)()).toEqual([mergedInto]);
  });

  test('refuses a merge into itself, a customer of another instance, one merged away or deleted', () => {
    expect(given(created).when({ ...mergeCommand, merge: { ...merge, intoId: CUSTOMER_ID } })).toThrow('cannot be merged into itself');
    expect(given(created).when({ ...mergeCommand, instanceId: OTHER_INSTANCE })).toThrow('not found');
    expect(given(created, mergedFrom).when(mergeCommand)).toThrow('not found');
    expect(given(created, deleted).when(mergeCommand)).toThrow('not found');
  });

  test('a merged-away customer cannot be updated or deleted until the merge is undone', () => {
    expect(given(created, mergedFrom).when(update({ name: 'X' }))).toThrow('not found');
    expect(given(created, mergedFrom).when(remove())).toThrow('not found');
  });

  test('the undo brings the merged-away customer back with its fields, and records it on the other side', () => {
    expect(given(created, mergedFrom).when(undo)()).toEqual([
      {
        type: 'CustomerMergeUndone',
        data: {
          customerId: CUSTOMER_ID,
          number: 7,
          name: 'Jane Doe',
          role: 'from',
          ...merge,
          restored: { instanceId: INSTANCE_ID, ...fields, createdAt: '2026-01-01T00:00:00.000Z', createdBy: 'Owner' },
        },
      },
    ]);
    expect(given(intoCreated, mergedInto).when(undo)()).toEqual([
      { type: 'CustomerMergeUndone', data: { customerId: INTO_ID, number: 8, name: 'Jane D.', role: 'into', ...merge } },
    ]);
  });

  test('a customer merged into and then merged away keeps the merge into it undoable once it is back', () => {
    const later = { ...merge, mergeId: 'merge-2', fromId: INTO_ID, fromName: 'Jane D.', intoId: 'someone-else', intoName: 'J. Doe' };
    const intoMergedAway: CustomerEvent = {
      type: 'CustomerMerged',
      data: { customerId: INTO_ID, number: 8, name: 'Jane D.', role: 'from', ...later },
    };
    const intoBack: CustomerEvent = {
      type: 'CustomerMergeUndone',
      data: { customerId: INTO_ID, number: 8, name: 'Jane D.', role: 'from', ...later },
    };
    expect(given(intoCreated, mergedInto, intoMergedAway, intoBack).when(undo)()).toEqual([
      { type: 'CustomerMergeUndone', data: { customerId: INTO_ID, number: 8, name: 'Jane D.', role: 'into', ...merge } },
    ]);
  });

  test('a customer merged into, deleted and restored keeps the merge undoable; while deleted, its undo says to restore it first', () => {
    const intoDeleted: CustomerEvent = { type: 'CustomerDeleted', data: { customerId: INTO_ID, number: 8, name: 'Jane D.' } };
    const intoRestored: CustomerEvent = {
      type: 'CustomerRestored',
      data: {
        customerId: INTO_ID,
        instanceId: INSTANCE_ID,
        number: 8,
        ...fields,
        name: 'Jane D.',
        createdAt: '2026-01-01T00:00:00.000Z',
        createdBy: 'Owner',
      },
    };
    expect(given(intoCreated, mergedInto, intoDeleted).when(undo)).toThrow(
      'Jane D., whom this merge went into, is deleted: restore them first',
    );
    expect(given(intoCreated, mergedInto, intoDeleted, intoRestored).when(undo)()).toEqual([
      { type: 'CustomerMergeUndone', data: { customerId: INTO_ID, number: 8, name: 'Jane D.', role: 'into', ...merge } },
    ]);
  });

  test('an undo twice, or of a merge never made, is a conflict', () => {
    const undoneInto: CustomerEvent = {
      type: 'CustomerMergeUndone',
      data: { customerId: INTO_ID, number: 8, name: 'Jane D.', role: 'into', ...merge },
    };
    expect(given(intoCreated, mergedInto, undoneInto).when(undo)).toThrow('not in effect');
    expect(given(intoCreated).when(undo)).toThrow('not in effect');
    expect(given(created, mergedFrom).when({ ...undo, instanceId: OTHER_INSTANCE })).toThrow('not found');
  });
});
