import { describe, expect, test } from 'vitest';
import { EVENT_TYPES, type EventType } from '../src/events.ts';
import { projections } from '../src/read-models.ts';

/**
 * Event types no read model but the activity log takes, each with why: they live in their
 * streams only (reservations, sign-ins a decider folds). A new event type fails here until a
 * projection names it in its `eventTypes` or it is added below on purpose.
 */
const STREAM_ONLY: Partial<Record<EventType, string>> = {
  SubdomainReserved: 'a reservation: its stream is the guard that a name is taken once',
  UsernameReserved: 'a reservation',
  UsernameReleased: 'a reservation',
  CustomerNumberReserved: 'a reservation',
  ServiceRequestNumberReserved: 'a reservation',
  JobNumberReserved: 'a reservation',
  JobNumberReleased: 'a reservation',
  JobNumberAssigned: 'a reservation',
  InvoiceNumberReserved: 'a reservation',
  VinReserved: 'a reservation',
  VinReleased: 'a reservation',
  SuperAdminCreated: 'the super-admin account is read from its own stream at sign-in',
  SuperAdminCredentialsChanged: 'the super-admin account is read from its own stream at sign-in',
  SuperAdminSignedIn: 'a sign-in, kept for the record',
  SuperAdminSignInFailed: 'the sign-in throttle folds its own stream',
  UserSignInFailed: "the sign-in throttle folds the user's stream",
  ShopSettingsUpdated: 'the shop settings are read from their own stream',
  VehicleLabelsMigrated: 'a one-off migration marker in its stream',
};

describe('projection coverage', () => {
  test('every projection names the events it handles', () => {
    for (const projection of projections) expect(projection.eventTypes, projection.name).toBeDefined();
  });

  test('the activity log takes every event type', () => {
    const audit = projections.find((projection) => projection.name === 'audit');
    expect([...(audit?.eventTypes ?? [])].sort()).toEqual([...EVENT_TYPES].sort());
  });

  test('every event type of the contract is read by a read model, or named as one kept in its stream only', () => {
    const readModels = projections.filter((projection) => projection.name !== 'audit');
    const unread = EVENT_TYPES.filter((type) => !readModels.some((projection) => projection.eventTypes?.includes(type)));
    expect(unread.sort()).toEqual(Object.keys(STREAM_ONLY).sort());
  });

  test('a projection names only event types of the contract, each once', () => {
    for (const projection of projections) {
      const types = projection.eventTypes ?? [];
      expect(
        types.filter((type) => !EVENT_TYPES.includes(type)),
        projection.name,
      ).toEqual([]);
      expect(new Set(types).size, projection.name).toBe(types.length);
    }
  });
});
