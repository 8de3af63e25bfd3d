import { describe, expect, test } from 'vitest';
import { defaultPermissions } from '@crm/projections/identity';
import {
  LAST_ADMIN_MESSAGE,
  SIGN_IN_LOCK_MS,
  userDecider,
  type Requester,
  type UserCommand,
  type UserEvent,
} from '../../src/identity/user-decider.ts';
import { deciderSpec } from '../support/decider.ts';

const USER_ID = '00000000-0000-4000-8000-000000000001';
const INSTANCE_ID = '00000000-0000-4000-8000-0000000000aa';
const T0 = new Date('2025-03-01T09:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

const ALL = { canRead: true, canWrite: true, canDelete: true, canManageUsers: true };
const admin: Requester = { kind: 'user', userId: 'other-admin', role: 'admin', permissions: ALL };
const manager: Requester = {
  kind: 'user',
  userId: 'manager',
  role: 'user',
  permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: true },
};
const self: Requester = { kind: 'user', userId: USER_ID, role: 'admin', permissions: ALL };
const provider: Requester = { kind: 'provider' };

const created = (role: 'user' | 'admin' = 'user'): UserEvent => ({
  type: 'UserCreated',
  data: {
    userId: USER_ID,
    instanceId: INSTANCE_ID,
    username: 'bob',
    displayName: 'Bob',
    role,
    permissions: defaultPermissions(role),
    pinHash: 'hash-1',
  },
});
const id = { userId: USER_ID, username: 'bob' };
const locked: UserEvent = { type: 'UserLocked', data: id };
const deleted: UserEvent = { type: 'UserDeleted', data: { ...id, instanceId: INSTANCE_ID } };
const failed = (n: number): UserEvent => ({ type: 'UserSignInFailed', data: { ...id, consecutiveFailures: n } });
const throttled = (until: Date): UserEvent => ({ type: 'UserSignInThrottled', data: { ...id, lockedUntil: until.toISOString() } });

/** Given events, when a command: the events decided (or the error thrown). */
const given = deciderSpec(userDecider);

const signIn = (succeeded: boolean, now: Date): UserCommand => ({ type: 'RecordSignIn', succeeded, now });

describe('CreateUser', () => {
  const create = (role: 'user' | 'admin', by: Requester): UserCommand =>
    ({
      type: 'CreateUser',
      ...created(role).data,
      by,
    }) as UserCommand;

  test('records the user with the PIN hash only', () => {
    expect(given().when(create('user', admin))()).toEqual([created('user')]);
  });
  test('a user cannot be created twice', () => {
    expect(given(created()).when(create('user', admin))).toThrow('This user already exists');
  });
  test('a manager without the admin role cannot create an admin', () => {
    expect(given().when(create('admin', manager))).toThrow('Only an admin can manage admin accounts');
    expect(given().when(create('user', manager))()).toEqual([created('user')]);
  });
  test('the provider may create an admin', () => {
    expect(given().when(create('admin', provider))()).toEqual([created('admin')]);
  });
});

describe('ChangeRole', () => {
  test('sets the role and resets permissions to its defaults, with old and new values', () => {
    expect(given(created('user')).when({ type: 'ChangeRole', role: 'admin', by: admin, otherUnlockedAdmins: 1 })()).toEqual([
      {
        type: 'UserRoleChanged',
        data: {
          ...id,
          oldRole: 'user',
          newRole: 'admin',
          oldPermissions: defaultPermissions('user'),
          permissions: defaultPermissions('admin'),
        },
      },
    ]);
  });
  test('the same role again changes nothing', () => {
    expect(given(created('admin')).when({ type: 'ChangeRole', role: 'admin', by: admin, otherUnlockedAdmins: 1 })()).toEqual([]);
  });
  test('an admin cannot change their own role', () => {
    expect(given(created('admin')).when({ type: 'ChangeRole', role: 'user', by: self, otherUnlockedAdmins: 3 })).toThrow(
      'You cannot change your own role',
    );
  });
  test('the last unlocked admin cannot become a user', () => {
    expect(given(created('admin')).when({ type: 'ChangeRole', role: 'user', by: admin, otherUnlockedAdmins: 0 })).toThrow(
      LAST_ADMIN_MESSAGE,
    );
    expect(given(created('admin')).when({ type: 'ChangeRole', role: 'user', by: admin, otherUnlockedAdmins: 1 })()).toHaveLength(1);
  });
  test('a locked admin is no longer counted on, so demoting one is fine', () => {
    expect(given(created('admin'), locked).when({ type: 'ChangeRole', role: 'user', by: admin, otherUnlockedAdmins: 0 })()).toHaveLength(1);
  });
  test('a manager without the admin role cannot promote or demote', () => {
    expect(given(created('user')).when({ type: 'ChangeRole', role: 'admin', by: manager, otherUnlockedAdmins: 1 })).toThrow(
      'Only an admin can manage admin accounts',
    );
  });
  test('a deleted or unknown user cannot be changed', () => {
    expect(given(created(), deleted).when({ type: 'ChangeRole', role: 'admin', by: admin, otherUnlockedAdmins: 1 })).toThrow(
      'User not found',
    );
    expect(given().when({ type: 'ChangeRole', role: 'admin', by: admin, otherUnlockedAdmins: 1 })).toThrow('User not found');
  });
});

describe('Lock and Unlock', () => {
  test('locks and unlocks', () => {
    expect(given(created()).when({ type: 'Lock', by: admin, otherUnlockedAdmins: 0 })()).toEqual([locked]);
    expect(given(created(), locked).when({ type: 'Unlock', by: admin })()).toEqual([{ type: 'UserUnlocked', data: id }]);
  });
  test('locking a locked user or unlocking an active one changes nothing', () => {
    expect(given(created(), locked).when({ type: 'Lock', by: admin, otherUnlockedAdmins: 0 })()).toEqual([]);
    expect(given(created()).when({ type: 'Unlock', by: admin })()).toEqual([]);
  });
  test('an admin cannot lock their own account', () => {
    expect(given(created('admin')).when({ type: 'Lock', by: self, otherUnlockedAdmins: 2 })).toThrow('You cannot lock your own account');
  });
  test('the last unlocked admin cannot be locked', () => {
    expect(given(created('admin')).when({ type: 'Lock', by: admin, otherUnlockedAdmins: 0 })).toThrow(LAST_ADMIN_MESSAGE);
  });
  test('a manager without the admin role cannot lock an admin', () => {
    expect(given(created('admin')).when({ type: 'Lock', by: manager, otherUnlockedAdmins: 1 })).toThrow(
      'Only an admin can manage admin accounts',
    );
    expect(given(created('user')).when({ type: 'Lock', by: manager, otherUnlockedAdmins: 1 })()).toEqual([locked]);
  });
  test('a deleted user cannot be locked or unlocked', () => {
    expect(given(created(), deleted).when({ type: 'Lock', by: admin, otherUnlockedAdmins: 1 })).toThrow('User not found');
    expect(given(created(), locked, deleted).when({ type: 'Unlock', by: admin })).toThrow('User not found');
  });
});

describe('Delete', () => {
  test('deletes', () => {
    expect(given(created()).when({ type: 'Delete', by: admin, otherUnlockedAdmins: 0 })()).toEqual([deleted]);
  });
  test('an admin cannot delete their own account', () => {
    expect(given(created('admin')).when({ type: 'Delete', by: self, otherUnlockedAdmins: 2 })).toThrow(
      'You cannot delete your own account',
    );
  });
  test('the last unlocked admin cannot be deleted; a locked admin can', () => {
    expect(given(created('admin')).when({ type: 'Delete', by: admin, otherUnlockedAdmins: 0 })).toThrow(LAST_ADMIN_MESSAGE);
    expect(given(created('admin'), locked).when({ type: 'Delete', by: admin, otherUnlockedAdmins: 0 })()).toHaveLength(1);
  });
  test('a deleted user cannot be deleted again', () => {
    expect(given(created(), deleted).when({ type: 'Delete', by: admin, otherUnlockedAdmins: 1 })).toThrow('User not found');
  });
});

describe('ChangePin', () => {
  test('records the new hash when the verified hash is still current', () => {
    expect(given(created()).when({ type: 'ChangePin', pinHash: 'hash-2', currentPinHash: 'hash-1' })()).toEqual([
      { type: 'UserPinChanged', data: { ...id, pinHash: 'hash-2' } },
    ]);
  });
  test('refuses when the PIN changed since it was verified', () => {
    expect(given(created()).when({ type: 'ChangePin', pinHash: 'hash-2', currentPinHash: 'stale' })).toThrow(/changed at the same time/);
  });
  test('a deleted user has no PIN to change', () => {
    expect(given(created(), deleted).when({ type: 'ChangePin', pinHash: 'hash-2', currentPinHash: 'hash-1' })).toThrow('User not found');
  });
});

describe('ResetPin', () => {
  test('an admin or the super admin sets a new PIN without the current one', () => {
    for (const by of [admin, provider]) {
      expect(given(created()).when({ type: 'ResetPin', pinHash: 'hash-2', by })()).toEqual([
        { type: 'UserPinChanged', data: { ...id, pinHash: 'hash-2' } },
      ]);
    }
  });
  test('not on your own account: that is the profile page, with the current PIN', () => {
    expect(given(created()).when({ type: 'ResetPin', pinHash: 'hash-2', by: self })).toThrow('Change your own PIN on your profile page');
  });
  test("a manager who is not an admin cannot reset an admin's PIN", () => {
    expect(given(created('admin')).when({ type: 'ResetPin', pinHash: 'hash-2', by: manager })).toThrow(
      'Only an admin can manage admin accounts',
    );
    expect(given(created('user')).when({ type: 'ResetPin', pinHash: 'hash-2', by: manager })()).toHaveLength(1);
  });
  test('a deleted user has no PIN to reset', () => {
    expect(given(created(), deleted).when({ type: 'ResetPin', pinHash: 'hash-2', by: admin })).toThrow('User not found');
  });
  test('a new PIN lifts a sign-in throttle', () => {
    const state = [created(), failed(1), failed(2), failed(3), failed(4), failed(5), throttled(minutes(15))];
    const pinChanged: UserEvent = { type: 'UserPinChanged', data: { ...id, pinHash: 'hash-2' } };
    expect(given(...state, pinChanged).when(signIn(true, minutes(1)))()).toEqual([{ type: 'UserSignedIn', data: id }]);
  });
});

describe('ChangePermissions', () => {
  test('merges the given flags and records old and new', () => {
    expect(given(created('user')).when({ type: 'ChangePermissions', permissions: { canDelete: true }, by: admin })()).toEqual([
      {
        type: 'UserPermissionsChanged',
        data: { ...id, old: defaultPermissions('user'), new: { ...defaultPermissions('user'), canDelete: true } },
      },
    ]);
  });
  test('nothing changed, nothing recorded', () => {
    expect(given(created('user')).when({ type: 'ChangePermissions', permissions: { canRead: true }, by: admin })()).toEqual([]);
  });
  test("an admin's permissions follow the role", () => {
    expect(given(created('admin')).when({ type: 'ChangePermissions', permissions: { canDelete: false }, by: admin })).toThrow(
      /always has every permission/,
    );
  });
  test('nobody changes their own permissions', () => {
    const me: Requester = {
      kind: 'user',
      userId: USER_ID,
      role: 'user',
      permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: true },
    };
    expect(given(created('user')).when({ type: 'ChangePermissions', permissions: { canDelete: true }, by: me })).toThrow(
      'You cannot change your own permissions',
    );
  });
});

describe('RecordSignIn', () => {
  const fiveFailures = [created(), failed(1), failed(2), failed(3), failed(4)];

  test('a matching PIN signs in', () => {
    expect(given(created()).when(signIn(true, T0))()).toEqual([{ type: 'UserSignedIn', data: id }]);
  });
  test('a wrong PIN is counted', () => {
    expect(given(created(), failed(1)).when(signIn(false, T0))()).toEqual([failed(2)]);
  });
  test('the fifth failure in a row blocks sign-in for 15 minutes', () => {
    expect(given(...fiveFailures).when(signIn(false, T0))()).toEqual([failed(5), throttled(new Date(T0.getTime() + SIGN_IN_LOCK_MS))]);
  });
  test('while blocked, even the right PIN fails and is counted, without extending the block', () => {
    const state = [...fiveFailures, failed(5), throttled(minutes(15))];
    expect(given(...state).when(signIn(true, minutes(14)))()).toEqual([failed(6)]);
    expect(given(...state, failed(6)).when(signIn(false, minutes(14)))()).toEqual([failed(7)]);
  });
  test('after the block the right PIN works again', () => {
    const state = [...fiveFailures, failed(5), throttled(minutes(15)), failed(6)];
    expect(given(...state).when(signIn(true, minutes(15)))()).toEqual([{ type: 'UserSignedIn', data: id }]);
  });
  test('after the block a wrong PIN starts a fresh count', () => {
    const state = [...fiveFailures, failed(5), throttled(minutes(15))];
    expect(given(...state).when(signIn(false, minutes(16)))()).toEqual([failed(1)]);
    expect(given(...state, failed(1)).when(signIn(false, minutes(17)))()).toEqual([failed(2)]);
  });
  test('a success resets the count', () => {
    const signedIn: UserEvent = { type: 'UserSignedIn', data: id };
    expect(given(...fiveFailures, signedIn).when(signIn(false, T0))()).toEqual([failed(1)]);
  });
  test('an account locked by an admin never signs in', () => {
    expect(given(created(), locked).when(signIn(true, T0))()).toEqual([failed(1)]);
  });
  test('an admin unlock lifts the throttle too', () => {
    const state = [...fiveFailures, failed(5), throttled(minutes(15)), locked, { type: 'UserUnlocked', data: id } as UserEvent];
    expect(given(...state).when(signIn(true, minutes(1)))()).toEqual([{ type: 'UserSignedIn', data: id }]);
  });
  test('a deleted user cannot sign in', () => {
    expect(given(created(), deleted).when(signIn(true, T0))).toThrow('User not found');
  });
});
