import { describe, expect, test } from 'vitest';
import {
  NameTakenError,
  reservationDecider,
  reservationOf,
  type ReleasedEvent,
  type ReservedEvent,
} from '../../src/shared/reservation-decider.ts';
import { deciderSpec } from '../support/decider.ts';

const INSTANCE_ID = '00000000-0000-4000-8000-0000000000aa';
const USER_ID = '00000000-0000-4000-8000-000000000a01';
const JOB_ID = '00000000-0000-4000-8000-000000000f01';

const given = deciderSpec(reservationDecider);
const reserved: ReservedEvent = { type: 'UsernameReserved', data: { instanceId: INSTANCE_ID, username: 'dana', userId: USER_ID } };
const released: ReleasedEvent = { type: 'UsernameReleased', data: { instanceId: INSTANCE_ID, username: 'dana', userId: USER_ID } };
const jobNumber: ReservedEvent = { type: 'JobNumberReserved', data: { instanceId: INSTANCE_ID, jobNumber: '7', jobId: JOB_ID } };

describe('reservation decider', () => {
  test('a free name is reserved', () => {
    expect(given().when({ type: 'Reserve', reserved })()).toEqual([reserved]);
  });

  test('a held name is refused', () => {
    expect(given(reserved).when({ type: 'Reserve', reserved })).toThrow(NameTakenError);
  });

  test('a released name is free again', () => {
    expect(given(reserved, released).when({ type: 'Reserve', reserved })()).toEqual([reserved]);
  });

  test('releasing a held name frees it; releasing a free one records nothing', () => {
    expect(given(reserved).when({ type: 'Release', released })()).toEqual([released]);
    expect(given().when({ type: 'Release', released })()).toEqual([]);
    expect(given(reserved, released).when({ type: 'Release', released })()).toEqual([]);
  });

  test('the holder is what the reservation recorded', () => {
    expect(given(jobNumber).state).toEqual({ status: 'held', holder: jobNumber.data });
    expect(reservationOf([jobNumber])).toEqual({ status: 'held', holder: jobNumber.data });
    expect(reservationOf([])).toEqual({ status: 'free' });
  });
});
