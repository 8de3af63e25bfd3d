import { userListSchema, type CrmInstanceView } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import { instanceUsersPath, instanceUsersQueryKey } from '../src/features/platform/api/get-instance-users.ts';
import { crmInstancesQueryKey } from '../src/features/platform/api/get-crm-instances.ts';
import { reservedInstance, selectableInstances } from '../src/features/platform/utils/selectable-instances.ts';
import { EMPTY_NEW_ADMIN, validateNewAdmin } from '../src/features/platform/utils/validate-instance-user.ts';
import { newPinError } from '../src/lib/validate-new-user.ts';
import { PIN_REQUIRED_MESSAGE, USERNAME_REQUIRED_MESSAGE } from '../src/lib/validate-new-user.ts';

const make = (subdomain: string): CrmInstanceView => ({
  id: subdomain,
  name: subdomain.toUpperCase(),
  subdomain,
  displayName: subdomain,
  description: '',
  features: { pipeline: true, customers: true, calendar: false, admin: true, serviceRequests: true },
  timeZone: 'UTC',
  publicRequests: false,
  isActive: true,
  createdAt: '',
});

describe('reservedInstance', () => {
  test('finds the provider instance the selection list hides', () => {
    const instances = [make('acme'), make('maven'), make('joes')];
    expect(reservedInstance(instances)?.subdomain).toBe('maven');
    expect(selectableInstances(instances).some((i) => i.subdomain === 'maven')).toBe(false);
  });

  test('is undefined when the list does not hold it', () => {
    expect(reservedInstance([make('acme')])).toBeUndefined();
    expect(reservedInstance([])).toBeUndefined();
  });
});

describe('validateNewAdmin', () => {
  test('builds an admin payload, trimmed', () => {
    const result = validateNewAdmin({ username: '  mavenboss ', displayName: ' Boss ', pin: '2468' });
    expect(result).toEqual({ ok: true, value: { username: 'mavenboss', displayName: 'Boss', pin: '2468', role: 'admin' } });
  });

  test('the display name is optional', () => {
    const result = validateNewAdmin({ username: 'boss', displayName: '', pin: '0000' });
    expect(result.ok && result.value.displayName).toBe('');
  });

  test('an empty form: username and PIN required, focus on the username', () => {
    expect(validateNewAdmin(EMPTY_NEW_ADMIN)).toEqual({
      ok: false,
      errors: { username: USERNAME_REQUIRED_MESSAGE, pin: PIN_REQUIRED_MESSAGE },
      firstField: 'username',
    });
  });

  test("the shared schema's messages for a short username and a bad PIN", () => {
    const result = validateNewAdmin({ username: 'ab', displayName: '', pin: '12' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.username).toBe('Username must be at least 3 characters');
    expect(result.errors.pin).toBe('PIN must be exactly 4 digits');
    expect(result.firstField).toBe('username');
  });

  test('a bad PIN alone puts the focus on the PIN', () => {
    const result = validateNewAdmin({ username: 'boss', displayName: '', pin: '12a4' });
    expect(result).toEqual({ ok: false, errors: { pin: 'PIN must contain only digits' }, firstField: 'pin' });
  });

  test('a display name over 100 characters', () => {
    const result = validateNewAdmin({ username: 'boss', displayName: 'x'.repeat(101), pin: '1234' });
    expect(result.ok === false && result.firstField).toBe('displayName');
  });
});

describe('newPinError', () => {
  test.each([
    ['', PIN_REQUIRED_MESSAGE],
    ['123', 'PIN must be exactly 4 digits'],
    ['12345', 'PIN must be exactly 4 digits'],
    ['12a4', 'PIN must contain only digits'],
  ])('%j: %s', (pin, message) => {
    expect(newPinError(pin)).toBe(message);
  });

  test('four digits are fine', () => {
    expect(newPinError('1357')).toBeUndefined();
    expect(newPinError('0000')).toBeUndefined();
  });
});

describe('instance users API helpers', () => {
  test('the path encodes the instance id', () => {
    expect(instanceUsersPath('a/b')).toBe('/api/crm-instances/a%2Fb/users');
  });

  test('the users key is not under the instance list key, so re-reading instances leaves it alone', () => {
    expect(instanceUsersQueryKey('x')[0]).not.toBe(crmInstancesQueryKey[0]);
  });

  test('the list schema reads a UserView as the server sends it, and refuses one missing its fields', () => {
    const permissions = { canRead: true, canWrite: true, canDelete: true, canManageUsers: true };
    expect(
      userListSchema.safeParse([
        { id: 5, username: 'boss', displayName: null, role: 'admin', createdAt: '2024-01-01T00:00:00.000Z', permissions },
      ]).success,
    ).toBe(false);
    const sent = {
      id: '5',
      username: 'boss',
      displayName: '',
      role: 'admin',
      isLocked: false,
      isActive: true,
      createdAt: '2024-01-01T00:00:00.000Z',
      lastLoginAt: null,
      permissions,
      signInLockedUntil: null,
    };
    // Parsing gives back what the server sent, as it was.
    const [user] = userListSchema.parse([structuredClone(sent)]);
    expect(user).toEqual(sent);
  });
});
