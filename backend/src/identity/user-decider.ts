import type { DomainEventOf } from '@crm/projections/events';
import { defaultPermissions, PERMISSION_KEYS, type Permissions, type Role } from '@crm/projections/identity';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../shared/errors.ts';

export const userStream = (userId: string) => `user-${userId}`;
export const usernameStream = (instanceId: string, username: string) => `username-${instanceId}-${username.toLowerCase()}`;

/** This many failed sign-ins in a row block the account for SIGN_IN_LOCK_MS. */
export const MAX_FAILED_SIGN_INS = 5;

/**
 * A locked account tells someone who gives the right PIN that it is locked, but only while
 * few guesses have been made on it: otherwise "right PIN → locked, wrong PIN → invalid"
 * would let guessing go on through the lock. Past this many failures in a row the right PIN
 * gets the usual refusal too, until the lock ends or an admin clears it.
 */
export function lockIsTold(consecutiveFailures: number): boolean {
  return consecutiveFailures < 2 * MAX_FAILED_SIGN_INS;
}
export const SIGN_IN_LOCK_MS = 15 * 60 * 1000;

export const LAST_ADMIN_MESSAGE = 'An instance must keep at least one unlocked admin';

export type UserEvent = DomainEventOf<
  | 'UserCreated'
  | 'UserRoleChanged'
  | 'UserLocked'
  | 'UserUnlocked'
  | 'UserDeleted'
  | 'UserPinChanged'
  | 'UserPermissionsChanged'
  | 'UserSignedIn'
  | 'UserSignInFailed'
  | 'UserSignInThrottled'
  | 'UserSignInLockCleared'
>;

interface UserProfile {
  userId: string;
  instanceId: string;
  username: string;
  displayName: string;
  role: Role;
  permissions: Permissions;
  pinHash: string;
  /** Failed sign-ins in a row since the last success. */
  failedSignIns: number;
  /** ISO time until which sign-in is refused after too many failures. */
  signInLockedUntil: string | null;
}

/** `locked`: an admin locked the account. Throttling after failed sign-ins is not a status: it runs out by itself. */
export type UserState =
  | { status: 'empty' }
  | ({ status: 'active' } & UserProfile)
  | ({ status: 'locked' } & UserProfile)
  | { status: 'deleted'; userId: string; instanceId: string; username: string };

/**
 * Who asks for a change: a user of the instance (with what they may do themselves), or the
 * provider (the super admin, or the system at bootstrap).
 */
export type Requester = { kind: 'user'; userId: string; role: Role; permissions: Permissions } | { kind: 'provider' };

export type UserCommand =
  | {
      type: 'CreateUser';
      userId: string;
      instanceId: string;
      username: string;
      displayName: string;
      role: Role;
      permissions: Permissions;
      pinHash: string;
      by: Requester;
    }
  /** `otherUnlockedAdmins`: the instance's unlocked admins besides this user, counted by the service. */
  | { type: 'ChangeRole'; role: Role; by: Requester; otherUnlockedAdmins: number }
  | { type: 'Lock'; by: Requester; otherUnlockedAdmins: number }
  | { type: 'Unlock'; by: Requester }
  | { type: 'Delete'; by: Requester; otherUnlockedAdmins: number }
  /** The new PIN's hash. `currentPinHash`: the hash the service verified the current PIN against (null for a reset). */
  | { type: 'ChangePin'; pinHash: string; currentPinHash: string }
  /** Someone else sets the PIN: an admin or manager for staff, the super admin for anyone. */
  | { type: 'ResetPin'; pinHash: string; by: Requester }
  | { type: 'ChangePermissions'; permissions: Partial<Permissions>; by: Requester }
  /** An admin lifts a throttle after failed sign-ins (the account was not locked by anyone). */
  | { type: 'ClearSignInLock'; by: Requester; now: Date }
  /** `succeeded`: the PIN matched. Whether that signs the user in is decided here (lock, throttle). */
  | { type: 'RecordSignIn'; succeeded: boolean; now: Date };

type Account = Extract<UserState, { status: 'active' | 'locked' }>;

/**
 * Nobody hands out more than they hold. A manager (a user who may manage users, without the
 * admin role) manages regular users only, and only those who hold no permission the manager
 * lacks: granting such a permission (on create or on a change) is refused, and so is locking,
 * deleting, resetting the PIN of or changing someone who already holds more (resetting their
 * PIN would let the manager sign in as them). Admins hold everything; the provider is above.
 */
export function assertMayManage(by: Requester, ...roles: Role[]): void {
  if (by.kind === 'user' && by.role !== 'admin' && roles.includes('admin')) {
    throw new ForbiddenError('Only an admin can manage admin accounts');
  }
}

/** The permissions among `granted` that `by` does not hold (none for admins and the provider). */
export function permissionsBeyond(by: Requester, granted: Permissions): Array<keyof Permissions> {
  if (by.kind !== 'user' || by.role === 'admin') return [];
  return PERMISSION_KEYS.filter((key) => granted[key] && !by.permissions[key]);
}

function assertWithinOwn(by: Requester, granted: Permissions, action: 'grant' | 'manage'): void {
  const beyond = permissionsBeyond(by, granted);
  if (beyond.length === 0) return;
  throw new ForbiddenError(
    action === 'grant'
      ? `You cannot grant a permission you do not have yourself (${beyond.join(', ')})`
      : `You cannot manage a user who has a permission you do not have yourself (${beyond.join(', ')})`,
  );
}

function existing(state: UserState): Account {
  if (state.status !== 'active' && state.status !== 'locked') throw new NotFoundError('User not found');
  return state;
}

function notSelf(by: Requester, state: Account, message: string): void {
  if (by.kind === 'user' && by.userId === state.userId) throw new ForbiddenError(message);
}

/** The change would take away an unlocked admin: only allowed when another one remains. */
function keepsAnAdmin(state: Account, otherUnlockedAdmins: number): void {
  if (state.status === 'active' && state.role === 'admin' && otherUnlockedAdmins < 1) throw new ConflictError(LAST_ADMIN_MESSAGE);
}

function isThrottled(state: Account, now: Date): boolean {
  return state.signInLockedUntil !== null && now.getTime() < Date.parse(state.signInLockedUntil);
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    if (event.type === 'UserCreated') {
      const { userId, instanceId, username, displayName, role, permissions, pinHash } = event.data;
      return {
        status: 'active',
        userId,
        instanceId,
        username,
        displayName,
        role,
        permissions,
        pinHash,
        failedSignIns: 0,
        signInLockedUntil: null,
      };
    }
    if (state.status !== 'active' && state.status !== 'locked') return state;
    switch (event.type) {
      case 'UserRoleChanged':
        return { ...state, role: event.data.newRole, permissions: event.data.permissions };
      case 'UserPermissionsChanged':
        return { ...state, permissions: event.data.new };
      case 'UserLocked':
        return { ...state, status: 'locked' };
      // An admin's unlock also lifts a sign-in throttle.
      case 'UserUnlocked':
        return { ...state, status: 'active', failedSignIns: 0, signInLockedUntil: null };
      case 'UserDeleted':
        return { status: 'deleted', userId: state.userId, instanceId: state.instanceId, username: state.username };
      // Guesses at the old PIN say nothing about the new one.
      case 'UserPinChanged':
        return { ...state, pinHash: event.data.pinHash, failedSignIns: 0, signInLockedUntil: null };
      case 'UserSignedIn':
        return { ...state, failedSignIns: 0, signInLockedUntil: null };
      case 'UserSignInFailed':
        // A run that starts again at 1 follows a throttle that has run out.
        return {
          ...state,
          failedSignIns: event.data.consecutiveFailures,
          signInLockedUntil: event.data.consecutiveFailures === 1 ? null : state.signInLockedUntil,
        };
      case 'UserSignInThrottled':
        return { ...state, signInLockedUntil: event.data.lockedUntil };
      case 'UserSignInLockCleared':
        return { ...state, failedSignIns: 0, signInLockedUntil: null };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateUser': {
        if (state.status !== 'empty') throw new ConflictError('This user already exists');
        assertMayManage(command.by, command.role);
        assertWithinOwn(command.by, command.permissions, 'grant');
        const { userId, instanceId, username, displayName, role, permissions, pinHash } = command;
        return [{ type: 'UserCreated', data: { userId, instanceId, username, displayName, role, permissions, pinHash } }];
      }
      case 'ChangeRole': {
        const user = existing(state);
        notSelf(command.by, user, 'You cannot change your own role');
        assertMayManage(command.by, user.role, command.role);
        assertWithinOwn(command.by, user.permissions, 'manage');
        assertWithinOwn(command.by, defaultPermissions(command.role), 'grant');
        if (user.role === command.role) return [];
        if (command.role !== 'admin') keepsAnAdmin(user, command.otherUnlockedAdmins);
        return [
          {
            type: 'UserRoleChanged',
            data: {
              userId: user.userId,
              username: user.username,
              oldRole: user.role,
              newRole: command.role,
              oldPermissions: user.permissions,
              permissions: defaultPermissions(command.role),
            },
          },
        ];
      }
      case 'Lock': {
        const user = existing(state);
        notSelf(command.by, user, 'You cannot lock your own account');
        assertMayManage(command.by, user.role);
        assertWithinOwn(command.by, user.permissions, 'manage');
        if (user.status === 'locked') return [];
        keepsAnAdmin(user, command.otherUnlockedAdmins);
        return [{ type: 'UserLocked', data: { userId: user.userId, username: user.username } }];
      }
      case 'Unlock': {
        const user = existing(state);
        notSelf(command.by, user, 'You cannot unlock your own account');
        assertMayManage(command.by, user.role);
        assertWithinOwn(command.by, user.permissions, 'manage');
        if (user.status === 'active') return [];
        return [{ type: 'UserUnlocked', data: { userId: user.userId, username: user.username } }];
      }
      case 'ClearSignInLock': {
        const user = existing(state);
        assertMayManage(command.by, user.role);
        assertWithinOwn(command.by, user.permissions, 'manage');
        if (!isThrottled(user, command.now)) return [];
        return [{ type: 'UserSignInLockCleared', data: { userId: user.userId, username: user.username } }];
      }
      case 'Delete': {
        const user = existing(state);
        notSelf(command.by, user, 'You cannot delete your own account');
        assertMayManage(command.by, user.role);
        assertWithinOwn(command.by, user.permissions, 'manage');
        keepsAnAdmin(user, command.otherUnlockedAdmins);
        return [{ type: 'UserDeleted', data: { userId: user.userId, instanceId: user.instanceId, username: user.username } }];
      }
      case 'ChangePin': {
        const user = existing(state);
        // The PIN was verified against this hash; a change in between means it must be verified again.
        if (command.currentPinHash !== user.pinHash) {
          throw new ConflictError('The PIN was changed at the same time. Please try again.');
        }
        return [{ type: 'UserPinChanged', data: { userId: user.userId, username: user.username, pinHash: command.pinHash } }];
      }
      case 'ResetPin': {
        const user = existing(state);
        notSelf(command.by, user, 'Change your own PIN on your profile page');
        assertMayManage(command.by, user.role);
        assertWithinOwn(command.by, user.permissions, 'manage');
        return [{ type: 'UserPinChanged', data: { userId: user.userId, username: user.username, pinHash: command.pinHash } }];
      }
      case 'ChangePermissions': {
        const user = existing(state);
        notSelf(command.by, user, 'You cannot change your own permissions');
        assertMayManage(command.by, user.role);
        // Role admin holds every permission; the flags follow the role so what is shown is what is enforced.
        if (user.role === 'admin') throw new ConflictError('An admin always has every permission. Make the user a regular user first.');
        assertWithinOwn(command.by, user.permissions, 'manage');
        const next = { ...user.permissions };
        for (const key of PERMISSION_KEYS) next[key] = command.permissions[key] ?? user.permissions[key];
        assertWithinOwn(command.by, next, 'grant');
        if (PERMISSION_KEYS.every((key) => next[key] === user.permissions[key])) return [];
        return [
          { type: 'UserPermissionsChanged', data: { userId: user.userId, username: user.username, old: user.permissions, new: next } },
        ];
      }
      case 'RecordSignIn': {
        const user = existing(state);
        const throttled = isThrottled(user, command.now);
        if (command.succeeded && user.status === 'active' && !throttled) {
          return [{ type: 'UserSignedIn', data: { userId: user.userId, username: user.username } }];
        }
        // Once a throttle has run out, counting starts afresh.
        const previous = user.signInLockedUntil !== null && !throttled ? 0 : user.failedSignIns;
        const consecutiveFailures = previous + 1;
        const events: UserEvent[] = [
          { type: 'UserSignInFailed', data: { userId: user.userId, username: user.username, consecutiveFailures } },
        ];
        if (!throttled && consecutiveFailures >= MAX_FAILED_SIGN_INS) {
          const lockedUntil = new Date(command.now.getTime() + SIGN_IN_LOCK_MS).toISOString();
          events.push({ type: 'UserSignInThrottled', data: { userId: user.userId, username: user.username, lockedUntil } });
        }
        return events;
      }
    }
  },
};
