import { userListSchema } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import { changedPermissions } from '../src/features/identity/utils/changed-permissions.ts';
import { EMPTY_NEW_USER, validateNewUser } from '../src/lib/validate-new-user.ts';

describe('validateNewUser', () => {
  test('username and PIN are required; display name is optional; role defaults to user', () => {
    expect(validateNewUser(EMPTY_NEW_USER)).toEqual({ ok: false, errors: { username: 'Username is required', pin: 'PIN is required' } });
    expect(validateNewUser({ ...EMPTY_NEW_USER, username: ' bob ', pin: '0042' })).toEqual({
      ok: true,
      value: { username: 'bob', displayName: '', pin: '0042', role: 'user' },
    });
  });

  test('PIN exactly 4 digits, username at least 3 characters', () => {
    const result = validateNewUser({ username: 'bo', displayName: 'Bob', pin: '12345', role: 'admin' });
    expect(result).toEqual({
      ok: false,
      errors: { username: 'Username must be at least 3 characters', pin: 'PIN must be exactly 4 digits' },
    });
    expect(validateNewUser({ username: 'bob', displayName: '', pin: '12a4', role: 'user' })).toEqual({
      ok: false,
      errors: { pin: 'PIN must contain only digits' },
    });
  });
});

describe('users list', () => {
  test('parses the admin list as the server sends it; one missing its display name and last login is refused', () => {
    const sent = {
      id: 'u1',
      username: 'bob',
      displayName: '',
      role: 'user',
      isLocked: true,
      isActive: true,
      createdAt: '2025-01-01T00:00:00.000Z',
      lastLoginAt: null,
      permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
      signInLockedUntil: null,
    };
    const [user] = userListSchema.parse([sent]);
    expect(user).toMatchObject({ displayName: '', isLocked: true, isActive: true, lastLoginAt: null });
    const { isActive: _isActive, lastLoginAt: _lastLoginAt, ...partial } = sent;
    expect(userListSchema.safeParse([{ ...partial, displayName: null }]).success).toBe(false);
  });

  test('only changed permissions are sent', () => {
    const before = { canRead: true, canWrite: true, canDelete: false, canManageUsers: false };
    expect(changedPermissions(before, before)).toEqual({});
    expect(changedPermissions(before, { ...before, canWrite: false, canDelete: true })).toEqual({ canWrite: false, canDelete: true });
  });
});
