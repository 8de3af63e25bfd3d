import { describe, expect, test } from 'vitest';
import { EMPTY_SERVICE_REQUEST_FIELDS } from '@crm/projections/service-requests';
import {
  serviceRequestDecider,
  type ServiceRequestCommand,
  type ServiceRequestEvent,
  type ServiceRequestState,
} from '../../src/service-requests/service-request-decider.ts';
import { jobIdForServiceRequest } from '../../src/service-requests/service-request-service.ts';

const INSTANCE = '11111111-1111-4111-8111-111111111111';
const ID = '22222222-2222-4222-8222-222222222222';

function run(commands: ServiceRequestCommand[]): { state: ServiceRequestState; events: ServiceRequestEvent[] } {
  let state = serviceRequestDecider.initialState;
  const events: ServiceRequestEvent[] = [];
  for (const command of commands) {
    const decided = serviceRequestDecider.decide(command, state);
    for (const event of decided) state = serviceRequestDecider.evolve(state, event);
    events.push(...decided);
  }
  return { state, events };
}

const submit: ServiceRequestCommand = {
  type: 'SubmitServiceRequest',
  serviceRequestId: ID,
  instanceId: INSTANCE,
  number: 7,
  source: 'staff',
  fields: { ...EMPTY_SERVICE_REQUEST_FIELDS, customerName: 'Ada', serviceType: 'Oil Change' },
};

describe('service request decider', () => {
  test('a blank request is refused; a second submission of one id is a conflict', () => {
    expect(() => run([{ ...submit, fields: { ...EMPTY_SERVICE_REQUEST_FIELDS, customerName: '  ' } }])).toThrow(
      'At least one field must be filled out',
    );
    expect(() => run([submit, submit])).toThrow('already exists');
  });

  test('an update records only what changed, and nothing when nothing did; it may not empty every field', () => {
    const { events } = run([
      submit,
      { type: 'UpdateServiceRequest', instanceId: INSTANCE, changes: { customerName: 'Ada', serviceType: 'Other' } },
      { type: 'UpdateServiceRequest', instanceId: INSTANCE, changes: { serviceType: 'Other' } },
    ]);
    expect(events.map((e) => e.type)).toEqual(['ServiceRequestSubmitted', 'ServiceRequestUpdated']);
    expect(events[1]!.data).toMatchObject({ changes: [{ field: 'serviceType', oldValue: 'Oil Change', newValue: 'Other' }] });
    expect(() =>
      run([submit, { type: 'UpdateServiceRequest', instanceId: INSTANCE, changes: { customerName: '', serviceType: '' } }]),
    ).toThrow('At least one field must be filled out');
  });

  test('another instance does not find it', () => {
    const other = '33333333-3333-4333-8333-333333333333';
    expect(() => run([submit, { type: 'UpdateServiceRequest', instanceId: other, changes: { customerName: 'X' } }])).toThrow(
      'Service request not found',
    );
    expect(() => run([submit, { type: 'ArchiveServiceRequest', instanceId: other }])).toThrow('Service request not found');
  });

  test('conversion is recorded once: a second one records nothing; an archived open request cannot be converted or edited', () => {
    const convert: ServiceRequestCommand = { type: 'RecordConversion', instanceId: INSTANCE, jobId: 'job-1', jobNumber: '12' };
    const { state, events } = run([submit, convert, { ...convert, jobId: 'job-2', jobNumber: '13' }]);
    expect(events.map((e) => e.type)).toEqual(['ServiceRequestSubmitted', 'ServiceRequestConvertedToJob']);
    expect(state).toMatchObject({ status: 'converted', job: { jobId: 'job-1', jobNumber: '12' } });

    const archive: ServiceRequestCommand = { type: 'ArchiveServiceRequest', instanceId: INSTANCE };
    expect(() => run([submit, archive, convert])).toThrow('archived');
    expect(() => run([submit, archive, { type: 'UpdateServiceRequest', instanceId: INSTANCE, changes: { customerName: 'B' } }])).toThrow(
      'archived',
    );
    // Archiving twice records it once; a converted request archived keeps its job.
    const archived = run([submit, convert, archive, archive]);
    expect(archived.events.map((e) => e.type)).toEqual([
      'ServiceRequestSubmitted',
      'ServiceRequestConvertedToJob',
      'ServiceRequestArchived',
    ]);
    expect(archived.state).toMatchObject({ status: 'archived', job: { jobNumber: '12' } });
  });

  test("the job's id is derived from the request's: the same every time, a UUID, different per request", () => {
    const a = jobIdForServiceRequest(ID);
    expect(a).toBe(jobIdForServiceRequest(ID.toUpperCase()));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(jobIdForServiceRequest('44444444-4444-4444-8444-444444444444'));
  });
});
