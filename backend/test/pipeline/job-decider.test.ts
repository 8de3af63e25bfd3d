import { describe, expect, test } from 'vitest';
import { EMPTY_JOB_FIELDS, jobChangesInput, stageInput, type JobFields } from '@crm/projections/pipeline';
import { jobDecider, type JobCommand, type JobEvent } from '../../src/pipeline/job-decider.ts';
import { deciderSpec } from '../support/decider.ts';

const JOB_ID = '00000000-0000-4000-8000-000000000001';
const INSTANCE_ID = '00000000-0000-4000-8000-0000000000aa';
const OTHER_INSTANCE = '00000000-0000-4000-8000-0000000000bb';

const fields: JobFields = {
  ...EMPTY_JOB_FIELDS,
  jobNumber: '7',
  name: 'Ann Lee',
  phone: '5551234567',
  part: 'Brake pads',
  quote: 250,
};
const label = { jobId: JOB_ID, jobNumber: '7', name: 'Ann Lee' };

const created = (overrides: Partial<JobFields> = {}): JobEvent => ({
  type: 'JobCreated',
  data: { jobId: JOB_ID, instanceId: INSTANCE_ID, ...fields, ...overrides },
});
const canceled: JobEvent = { type: 'JobCanceled', data: { ...label, previousStage: 'Quote' } };
const deleted: JobEvent = { type: 'JobDeleted', data: label };

/** Given events, when a command: the events decided (or the error thrown). */
const given = deciderSpec(jobDecider);

/** A form's save, through the same input schema the API uses. */
const update = (body: Record<string, unknown>, instanceId = INSTANCE_ID): JobCommand => ({
  type: 'UpdateJob',
  instanceId,
  changes: jobChangesInput.parse(body),
});
const changeStage = (stage: string): JobCommand => ({
  type: 'ChangeStage',
  instanceId: INSTANCE_ID,
  stage: stageInput.parse({ stage }).stage,
});

describe('CreateJob', () => {
  test('records the job with every field', () => {
    expect(given().when({ type: 'CreateJob', jobId: JOB_ID, instanceId: INSTANCE_ID, fields })()).toEqual([created()]);
  });
  test('a job cannot be created twice', () => {
    expect(given(created()).when({ type: 'CreateJob', jobId: JOB_ID, instanceId: INSTANCE_ID, fields })).toThrow('This job already exists');
  });
  test('an empty job is refused', () => {
    expect(given().when({ type: 'CreateJob', jobId: JOB_ID, instanceId: INSTANCE_ID, fields: EMPTY_JOB_FIELDS })).toThrow(
      'At least one field must be filled out',
    );
  });
});

describe('UpdateJob', () => {
  test('records only the fields that changed, with old and new values', () => {
    expect(given(created()).when(update({ ...fields, quote: '300', notes: 'Rush', phone: '555-123-4567' }))()).toEqual([
      {
        type: 'JobUpdated',
        data: {
          ...label,
          changes: [
            { field: 'quote', oldValue: 250, newValue: 300 },
            { field: 'notes', oldValue: '', newValue: 'Rush' },
          ],
        },
      },
    ]);
  });

  test('the whole entry sent back unchanged records nothing', () => {
    expect(given(created()).when(update({ ...fields, quote: '250', id: JOB_ID, revision: 0, createdAt: 'x' }))()).toEqual([]);
  });

  test('a stage change inside an update is its own event, under the new label', () => {
    expect(given(created()).when(update({ name: 'Ann Smith', stage: 'Scheduled' }))()).toEqual([
      {
        type: 'JobUpdated',
        data: { ...label, name: 'Ann Smith', changes: [{ field: 'name', oldValue: 'Ann Lee', newValue: 'Ann Smith' }] },
      },
      { type: 'JobStageChanged', data: { ...label, name: 'Ann Smith', from: 'Quote', to: 'Scheduled' } },
    ]);
  });

  test('a new appointment or duration is a reschedule', () => {
    expect(given(created()).when(update({ appointment: '2025-03-01T09:00:00Z', duration: 90 }))()).toEqual([
      {
        type: 'JobRescheduled',
        data: { ...label, from: null, to: '2025-03-01T09:00:00.000Z', fromDuration: null, toDuration: 90 },
      },
    ]);
  });

  test('saving with stage Canceled cancels (and remembers the stage)', () => {
    expect(given(created({ stage: 'Scheduled' })).when(update({ stage: 'Cancelled' }))()).toEqual([
      { type: 'JobCanceled', data: { ...label, previousStage: 'Scheduled' } },
    ]);
  });

  test('a blank job number keeps the number', () => {
    expect(given(created()).when(update({ jobNumber: '', notes: 'x' }))()).toEqual([
      { type: 'JobUpdated', data: { ...label, changes: [{ field: 'notes', oldValue: '', newValue: 'x' }] } },
    ]);
  });

  test('clearing every field is refused', () => {
    const blank = { jobNumber: '', name: '', phone: '', part: '', quote: '' };
    expect(given(created({ jobNumber: '' })).when(update(blank))).toThrow('At least one field must be filled out');
  });

  test('a job of another instance does not exist for the command', () => {
    expect(given(created()).when(update({ notes: 'x' }, OTHER_INSTANCE))).toThrow('Job not found');
  });
});

describe('ChangeStage', () => {
  test.each([
    ['Quoted', []],
    ['Approved', [{ type: 'JobStageChanged', data: { ...label, from: 'Quote', to: 'Parts Ordered' } }]],
    ['Delivered', [{ type: 'JobStageChanged', data: { ...label, from: 'Quote', to: 'Completed' } }]],
    ['complete', [{ type: 'JobStageChanged', data: { ...label, from: 'Quote', to: 'Completed' } }]],
    ['Cancelled', [{ type: 'JobCanceled', data: { ...label, previousStage: 'Quote' } }]],
  ])('aliases normalise: %s', (stage, events) => {
    expect(given(created()).when(changeStage(stage))()).toEqual(events);
  });

  test('any stage can be chosen from Canceled (the inline dropdown)', () => {
    expect(given(created(), canceled).when(changeStage('In Progress'))()).toEqual([
      { type: 'JobStageChanged', data: { ...label, from: 'Canceled', to: 'In Progress' } },
    ]);
  });

  test('an unknown stage never reaches the decider', () => {
    expect(() => changeStage('Shipped')).toThrow(/Stage must be one of: Quote, Parts Ordered/);
  });
});

describe('CancelJob and ReopenJob', () => {
  test('cancel remembers the stage the job was in', () => {
    expect(given(created({ stage: 'In Progress' })).when({ type: 'CancelJob', instanceId: INSTANCE_ID })()).toEqual([
      { type: 'JobCanceled', data: { ...label, previousStage: 'In Progress' } },
    ]);
  });
  test('cancelling a canceled job changes nothing', () => {
    expect(given(created(), canceled).when({ type: 'CancelJob', instanceId: INSTANCE_ID })()).toEqual([]);
  });
  test('reopen returns a canceled job to Quote', () => {
    expect(given(created({ stage: 'Scheduled' }), canceled).when({ type: 'ReopenJob', instanceId: INSTANCE_ID })()).toEqual([
      { type: 'JobReopened', data: { ...label, stage: 'Quote' } },
    ]);
  });
  test('only a canceled job can be reopened', () => {
    expect(given(created()).when({ type: 'ReopenJob', instanceId: INSTANCE_ID })).toThrow('Only a canceled job can be reopened');
  });
});

describe('DeleteJob', () => {
  test('records the deletion with its reason when the customer went', () => {
    expect(given(created()).when({ type: 'DeleteJob', instanceId: INSTANCE_ID })()).toEqual([deleted]);
    expect(given(created()).when({ type: 'DeleteJob', instanceId: INSTANCE_ID, reason: 'customer-deleted' })()).toEqual([
      { type: 'JobDeleted', data: { ...label, reason: 'customer-deleted' } },
    ]);
  });

  test.each<[string, JobCommand]>([
    ['update', update({ notes: 'x' })],
    ['change stage', changeStage('Paid')],
    ['cancel', { type: 'CancelJob', instanceId: INSTANCE_ID }],
    ['reopen', { type: 'ReopenJob', instanceId: INSTANCE_ID }],
    ['delete', { type: 'DeleteJob', instanceId: INSTANCE_ID }],
  ])('a deleted job rejects %s', (_name, command) => {
    expect(given(created(), deleted).when(command)).toThrow('Job not found');
  });

  test('a job that was never created rejects commands', () => {
    expect(given().when(update({ notes: 'x' }))).toThrow('Job not found');
  });
});

describe('evolve', () => {
  test('folds every event into the state', () => {
    const state = [
      created(),
      { type: 'JobUpdated', data: { ...label, changes: [{ field: 'quote', oldValue: 250, newValue: 400 }] } },
      { type: 'JobRescheduled', data: { ...label, from: null, to: '2025-03-01T09:00:00.000Z', fromDuration: null, toDuration: 60 } },
      { type: 'JobStageChanged', data: { ...label, from: 'Quote', to: 'Scheduled' } },
      canceled,
    ].reduce((s, e) => jobDecider.evolve(s, e as JobEvent), jobDecider.initialState);
    expect(state).toEqual({
      status: 'canceled',
      jobId: JOB_ID,
      instanceId: INSTANCE_ID,
      fields: { ...fields, quote: 400, appointment: '2025-03-01T09:00:00.000Z', duration: 60, stage: 'Canceled' },
    });
    // A deleted job keeps its last fields: a restore brings them back.
    expect(jobDecider.evolve(state, deleted)).toEqual({
      status: 'deleted',
      jobId: JOB_ID,
      instanceId: INSTANCE_ID,
      jobNumber: '7',
      fields: state.status === 'canceled' ? state.fields : null,
    });
  });
});
