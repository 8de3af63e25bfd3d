import { describe, expect, test } from 'vitest';
import { EMPTY_CUSTOMER_FIELDS } from '@crm/projections/customers';
import { EMPTY_JOB_FIELDS, type JobFields } from '@crm/projections/pipeline';
import { customerDecider, type CustomerEvent } from '../../src/customers/customer-decider.ts';
import { jobDecider, type JobCommand, type JobEvent } from '../../src/pipeline/job-decider.ts';
import { deciderSpec } from '../support/decider.ts';

/** The deciders' side of undo and restore: revert tags, restore events, and what they refuse. */

const JOB_ID = '00000000-0000-4000-8000-000000000001';
const CUSTOMER_ID = '00000000-0000-4000-8000-000000000c01';
const INSTANCE_ID = '00000000-0000-4000-8000-0000000000aa';
const OTHER_INSTANCE = '00000000-0000-4000-8000-0000000000bb';
const CREATED_AT = '2026-01-05T14:00:00.000Z';

const fields: JobFields = { ...EMPTY_JOB_FIELDS, jobNumber: '7', name: 'Ann Lee', part: 'Brake pads', quote: 250, stage: 'Scheduled' };
const label = { jobId: JOB_ID, jobNumber: '7', name: 'Ann Lee' };
const created: JobEvent = { type: 'JobCreated', data: { jobId: JOB_ID, instanceId: INSTANCE_ID, ...fields } };
const deleted: JobEvent = { type: 'JobDeleted', data: label };

const given = deciderSpec(jobDecider);

const restore = (instanceId = INSTANCE_ID, jobNumber = '7'): JobCommand => ({
  type: 'RestoreJob',
  instanceId,
  jobNumber,
  createdAt: CREATED_AT,
  createdBy: 'Owner',
});

describe('jobs', () => {
  test('a revert is an ordinary change that names the change it undoes, on every event it records', () => {
    const events = given(created).when({
      type: 'UpdateJob',
      instanceId: INSTANCE_ID,
      changes: { quote: 100, stage: 'Quote' },
      revertOf: 'event-1',
    })();
    expect(events).toEqual([
      { type: 'JobUpdated', data: { ...label, changes: [{ field: 'quote', oldValue: 250, newValue: 100 }], revertOf: 'event-1' } },
      { type: 'JobStageChanged', data: { ...label, from: 'Scheduled', to: 'Quote', revertOf: 'event-1' } },
    ]);
  });

  test('a deleted job comes back as it was deleted, under the number given, keeping when it was created', () => {
    expect(given(created, deleted).when(restore(INSTANCE_ID, '12'))()).toEqual([
      {
        type: 'JobRestored',
        data: { jobId: JOB_ID, instanceId: INSTANCE_ID, ...fields, jobNumber: '12', createdAt: CREATED_AT, createdBy: 'Owner' },
      },
    ]);
    const [restored] = given(created, deleted).when(restore())();
    expect(jobDecider.evolve(given(created, deleted).state, restored!)).toEqual({
      status: 'open',
      jobId: JOB_ID,
      instanceId: INSTANCE_ID,
      fields,
    });
  });

  test('only a deleted job of the instance can be restored', () => {
    expect(given(created).when(restore())).toThrow('This record is not deleted');
    expect(given(created, deleted).when(restore(OTHER_INSTANCE))).toThrow('Job not found');
    expect(given().when(restore())).toThrow('Job not found');
  });
});

describe('customers', () => {
  const customerFields = { ...EMPTY_CUSTOMER_FIELDS, name: 'Jane Doe', phone: '5551234567' };
  const customerCreated: CustomerEvent = {
    type: 'CustomerCreated',
    data: { customerId: CUSTOMER_ID, instanceId: INSTANCE_ID, number: 3, ...customerFields },
  };
  const customerDeleted: CustomerEvent = { type: 'CustomerDeleted', data: { customerId: CUSTOMER_ID, number: 3, name: 'Jane Doe' } };
  const state = (...events: CustomerEvent[]) => events.reduce(customerDecider.evolve, customerDecider.initialState);

  test('a revert of a customer change names it', () => {
    expect(
      customerDecider.decide(
        { type: 'UpdateCustomer', instanceId: INSTANCE_ID, changes: { phone: '5550000000' }, revertOf: 'event-2' },
        state(customerCreated),
      ),
    ).toEqual([
      {
        type: 'CustomerUpdated',
        data: {
          customerId: CUSTOMER_ID,
          number: 3,
          name: 'Jane Doe',
          changes: [{ field: 'phone', oldValue: '5551234567', newValue: '5550000000' }],
          revertOf: 'event-2',
        },
      },
    ]);
  });

  test('a deleted customer comes back with its number and fields; an active one cannot be restored', () => {
    const command = { type: 'RestoreCustomer', instanceId: INSTANCE_ID, createdAt: CREATED_AT, createdBy: 'Owner' } as const;
    const events = customerDecider.decide(command, state(customerCreated, customerDeleted));
    expect(events).toEqual([
      {
        type: 'CustomerRestored',
        data: { customerId: CUSTOMER_ID, instanceId: INSTANCE_ID, number: 3, ...customerFields, createdAt: CREATED_AT, createdBy: 'Owner' },
      },
    ]);
    expect(customerDecider.evolve(state(customerCreated, customerDeleted), events[0]!)).toEqual(state(customerCreated));
    expect(() => customerDecider.decide(command, state(customerCreated))).toThrow('This record is not deleted');
    expect(() => customerDecider.decide({ ...command, instanceId: OTHER_INSTANCE }, state(customerCreated, customerDeleted))).toThrow(
      'Customer not found',
    );
  });
});
