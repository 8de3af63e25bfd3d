import { describe, expect, test } from 'vitest';
import { appointmentInput, EMPTY_JOB_FIELDS, type JobFields } from '@crm/projections/pipeline';
import { jobDecider, type JobCommand, type JobEvent } from '../../src/pipeline/job-decider.ts';

const JOB_ID = '00000000-0000-4000-8000-000000000001';
const INSTANCE_ID = '00000000-0000-4000-8000-0000000000aa';
const label = { jobId: JOB_ID, jobNumber: '7', name: 'Ann Lee' };
const fields: JobFields = {
  ...EMPTY_JOB_FIELDS,
  jobNumber: '7',
  name: 'Ann Lee',
  appointment: '2026-01-05T14:00:00.000Z',
  duration: 60,
  tech: 'Tom',
};
const created: JobEvent = { type: 'JobCreated', data: { jobId: JOB_ID, instanceId: INSTANCE_ID, ...fields } };

/** The calendar's PATCH body, through the API's own schema. */
const reschedule = (body: Record<string, unknown>, instanceId = INSTANCE_ID): JobCommand => ({
  type: 'RescheduleJob',
  instanceId,
  ...appointmentInput.parse(body),
});
const decide = (command: JobCommand, ...events: JobEvent[]) =>
  jobDecider.decide(command, events.reduce(jobDecider.evolve, jobDecider.initialState));

describe('RescheduleJob', () => {
  test('a move keeps the duration; a resize changes it; both are one JobRescheduled', () => {
    expect(decide(reschedule({ appointment: '2026-01-06T09:00:00-05:00' }), created)).toEqual([
      {
        type: 'JobRescheduled',
        data: { ...label, from: fields.appointment, to: '2026-01-06T14:00:00.000Z', fromDuration: 60, toDuration: 60 },
      },
    ]);
    expect(decide(reschedule({ appointment: fields.appointment, duration: '90' }), created)).toEqual([
      { type: 'JobRescheduled', data: { ...label, from: fields.appointment, to: fields.appointment, fromDuration: 60, toDuration: 90 } },
    ]);
  });

  test('a lane change is a JobUpdated of tech; nothing that changes records nothing', () => {
    expect(decide(reschedule({ appointment: fields.appointment, tech: 'Tina' }), created)).toEqual([
      { type: 'JobUpdated', data: { ...label, changes: [{ field: 'tech', oldValue: 'Tom', newValue: 'Tina' }] } },
    ]);
    expect(decide(reschedule({ appointment: fields.appointment, duration: 60, tech: 'Tom' }), created)).toEqual([]);
  });

  test('a job of another instance, or deleted, is not found; the input refuses what is no time', () => {
    expect(() => decide(reschedule({ appointment: fields.appointment }, '00000000-0000-4000-8000-0000000000bb'), created)).toThrow(
      'Job not found',
    );
    expect(() => decide(reschedule({ appointment: fields.appointment }), created, { type: 'JobDeleted', data: label })).toThrow(
      'Job not found',
    );
    expect(appointmentInput.safeParse({ appointment: '' }).success).toBe(false);
    expect(appointmentInput.safeParse({ appointment: '2026-01-05T14:00:00' }).success).toBe(false);
    expect(appointmentInput.safeParse({ appointment: fields.appointment, duration: 0 }).success).toBe(false);
    expect(appointmentInput.parse({ appointment: fields.appointment, duration: null })).toEqual({
      appointment: fields.appointment,
      duration: null,
    });
  });
});
