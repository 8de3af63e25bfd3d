import { customerViewSchema, userViewSchema, type CustomerView, type UserView } from '@crm/projections/contract';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { conflictingCustomer, updateCustomer } from '../src/features/customers/api/update-customer.ts';
import { conflictingJob } from '../src/features/pipeline/api/update-job.ts';
import { changeUserPermissions } from '../src/features/identity/api/change-user-permissions.ts';
import { changeUserRole } from '../src/features/identity/api/change-user-role.ts';
import { deleteUser } from '../src/features/identity/api/delete-user.ts';
import { resetUserPin } from '../src/features/identity/api/reset-user-pin.ts';
import { setUserLocked } from '../src/features/identity/api/set-user-locked.ts';
import { conflictingUser } from '../src/features/identity/api/update-user-list.ts';
import { ApiError, apiErrorFromResponse } from '../src/lib/api-error.ts';
import { conflictCurrent, ifMatch } from '../src/lib/concurrency.ts';

const STALE = 'This user was changed by someone else. Reload it and try again.';

const user: UserView = {
  id: 'u1',
  username: 'bob',
  displayName: 'Bob',
  role: 'admin',
  isLocked: false,
  isActive: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastLoginAt: null,
  permissions: { canRead: true, canWrite: true, canDelete: true, canManageUsers: true },
  revision: 4,
  signInLockedUntil: null,
};

const customer: CustomerView = {
  id: 'c1',
  number: 3,
  name: 'Ada',
  phone: '555-123-4567',
  email: '',
  address: 'New Street 2',
  vehicles: '',
  vehicleList: [],
  pastAppointments: '',
  invoices: '',
  notes: '',
  createdAt: '2025-01-01T10:00:00.000Z',
  createdBy: 'Owner',
  lastModifiedAt: '2025-01-02T10:00:00.000Z',
  lastModifiedBy: 'Colleague',
  revision: 2,
};

/** A 409 as the server sends it: problem details with the record as it is now. */
const conflict = (current: unknown, message = STALE) =>
  apiErrorFromResponse(
    409,
    'Conflict',
    JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: message, message, current }),
  );

describe('If-Match and the 409 that carries the current record', () => {
  test('If-Match names the revision the screen loaded, in the server’s ETag format; no revision, no header (no check)', () => {
    expect(ifMatch(0)).toEqual({ 'If-Match': '"0"' });
    expect(ifMatch(12)).toEqual({ 'If-Match': '"12"' });
    expect(ifMatch(undefined)).toEqual({});
    expect(ifMatch(null)).toEqual({});
  });

  test('a 409 with the current record gives it, parsed; anything else gives nothing', () => {
    expect(conflictCurrent(conflict(user), userViewSchema)).toEqual(user);
    expect(conflictingUser(conflict(user))).toEqual(user);
    expect(conflictingCustomer(conflict(customer))).toEqual(customer);
    // A 409 that is not about versions (the last admin, a taken number): no current record.
    expect(conflictingUser(new ApiError(409, 'An instance must keep at least one unlocked admin', { message: 'x' }))).toBeNull();
    expect(conflictingUser(conflict({ nonsense: true }))).toBeNull();
    expect(conflictingUser(new ApiError(404, 'User not found', { message: 'User not found', current: user }))).toBeNull();
    expect(conflictingUser(new TypeError('Failed to fetch'))).toBeNull();
    // The job entry dialog reads its 409 through the same helper.
    expect(conflictingJob(new ApiError(409, 'x'))).toBeNull();
  });

  test('the records read their revision; a server without one reads as none (then no If-Match is sent)', () => {
    expect(customerViewSchema.parse(customer).revision).toBe(2);
    expect(userViewSchema.parse(user).revision).toBe(4);
    const { revision: _omitted, ...legacy } = user;
    expect(userViewSchema.parse(legacy).revision).toBeUndefined();
    expect(ifMatch(userViewSchema.parse(legacy).revision)).toEqual({});
  });
});

describe('the screens send If-Match with every change', () => {
  const calls: Array<{ url: string; method: string; headers: Record<string, string> }> = [];
  let answer: () => Response = () => new Response(null, { status: 204 });

  function stubFetch() {
    calls.length = 0;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string> });
      return answer();
    });
  }
  afterEach(() => {
    vi.unstubAllGlobals();
    answer = () => new Response(null, { status: 204 });
  });

  test('user actions: role, lock, permissions, PIN reset and delete each name the revision shown', async () => {
    stubFetch();
    await changeUserRole({ userId: 'u1', role: 'user', revision: 4 });
    await setUserLocked({ userId: 'u1', isLocked: true, revision: 4 });
    await changeUserPermissions({ userId: 'u1', changes: { canDelete: false }, revision: 4 });
    await resetUserPin({ userId: 'u1', pin: '1234', revision: 4 });
    await deleteUser({ userId: 'u1', revision: 4 });
    expect(calls.map((c) => [c.method, c.url, c.headers['If-Match']])).toEqual([
      ['PATCH', '/api/admin/users/u1/role', '"4"'],
      ['PATCH', '/api/admin/users/u1/lock', '"4"'],
      ['PATCH', '/api/admin/users/u1/permissions', '"4"'],
      ['PUT', '/api/admin/users/u1/pin', '"4"'],
      ['DELETE', '/api/admin/users/u1', '"4"'],
    ]);
    // Without a revision (an older server), nothing is pinned.
    await deleteUser({ userId: 'u1' });
    expect(calls.at(-1)!.headers).not.toHaveProperty('If-Match');
  });

  test('a stale user change rejects with the 409, which offers the user as it is now', async () => {
    stubFetch();
    const now = { ...user, role: 'user' as const, revision: 5 };
    answer = () => new Response(JSON.stringify({ status: 409, message: STALE, current: now }), { status: 409 });
    const failure = await changeUserRole({ userId: 'u1', role: 'user', revision: 4 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe(STALE);
    expect(conflictingUser(failure)).toEqual(now);
  });

  test('the customer form saves only its changes, pinned to the revision it was filled from; a 409 gives the current customer', async () => {
    stubFetch();
    answer = () => new Response(JSON.stringify({ ...customer, notes: 'VIP', revision: 3 }), { status: 200 });
    const saved = await updateCustomer('shop', { id: 'c1', changes: { notes: 'VIP' }, revision: 2 });
    expect(saved.revision).toBe(3);
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/shop/customers/c1', headers: { 'If-Match': '"2"' } });

    const message = 'This customer was changed by someone else. Reload it and try again.';
    answer = () => new Response(JSON.stringify({ status: 409, message, current: { ...customer, revision: 3 } }), { status: 409 });
    const failure = await updateCustomer('shop', { id: 'c1', changes: { notes: 'Mine' }, revision: 2 }).catch((error: unknown) => error);
    expect(conflictingCustomer(failure)).toMatchObject({ id: 'c1', address: 'New Street 2', revision: 3 });
    expect((failure as ApiError).message).toBe(message);
  });
});
