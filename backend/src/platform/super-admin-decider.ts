import type { DomainEventOf } from '@crm/projections/events';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';

export const SUPER_ADMIN_ID = 'primary';
export const superAdminStream = (id = SUPER_ADMIN_ID) => `superadmin-${id}`;

type SuperAdminEvent = DomainEventOf<
  'SuperAdminCreated' | 'SuperAdminCredentialsChanged' | 'SuperAdminSignedIn' | 'SuperAdminSignInFailed'
>;

/** Like a staff account: this many failed sign-ins in a row on the super admin's name block it for SUPER_ADMIN_LOCK_MS. */
export const SUPER_ADMIN_MAX_FAILURES = 5;
export const SUPER_ADMIN_LOCK_MS = 15 * 60 * 1000;

/**
 * The lock is told to someone who gives the right password only while few guesses have been
 * made on the name; past this many failures in a row the right password gets the usual
 * refusal too, so guessing cannot go on through the lock.
 */
export function superAdminLockIsTold(consecutiveFailures: number): boolean {
  return consecutiveFailures < 2 * SUPER_ADMIN_MAX_FAILURES;
}

export type SuperAdminState =
  | { status: 'empty' }
  | {
      status: 'active';
      id: string;
      username: string;
      displayName: string;
      passwordHash: string;
      /** Failed sign-ins in a row on the super admin's own name since the last success. */
      failedSignIns: number;
      /** ISO time until which sign-in is refused after too many failures. */
      signInLockedUntil: string | null;
    };

export type SuperAdminCommand =
  | { type: 'CreateSuperAdmin'; superAdminId: string; username: string; displayName: string; passwordHash: string }
  | { type: 'ChangeSuperAdminCredentials'; username: string; passwordHash: string }
  /**
   * `namedAccount`: the attempt named the super admin's username (only those count towards
   * the lockout: someone guessing names cannot lock the provider out). `succeeded`: the
   * password matched too. Whether that signs in is decided here (lockout).
   */
  | { type: 'RecordSuperAdminSignIn'; succeeded: boolean; namedAccount: boolean; now: Date };

export function superAdminThrottled(state: SuperAdminState, now: Date): boolean {
  return state.status === 'active' && state.signInLockedUntil !== null && now.getTime() < Date.parse(state.signInLockedUntil);
}

export const superAdminDecider: Decider<SuperAdminState, SuperAdminCommand, SuperAdminEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    switch (event.type) {
      case 'SuperAdminCreated':
        return { status: 'active', id: event.data.superAdminId, ...event.data, failedSignIns: 0, signInLockedUntil: null };
      // New credentials (set by whoever runs the server): guesses at the old password say nothing about them.
      case 'SuperAdminCredentialsChanged':
        return state.status === 'active'
          ? { ...state, username: event.data.username, passwordHash: event.data.passwordHash, failedSignIns: 0, signInLockedUntil: null }
          : state;
      case 'SuperAdminSignedIn':
        return state.status === 'active' ? { ...state, failedSignIns: 0, signInLockedUntil: null } : state;
      case 'SuperAdminSignInFailed':
        // Events from before the lockout carry no count: they change nothing.
        if (state.status !== 'active' || event.data.consecutiveFailures === undefined) return state;
        return { ...state, failedSignIns: event.data.consecutiveFailures, signInLockedUntil: event.data.lockedUntil ?? null };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateSuperAdmin':
        if (state.status !== 'empty') throw new ConflictError('The super admin already exists');
        return [
          {
            type: 'SuperAdminCreated',
            data: {
              superAdminId: command.superAdminId,
              username: command.username,
              displayName: command.displayName,
              passwordHash: command.passwordHash,
            },
          },
        ];
      case 'ChangeSuperAdminCredentials':
        if (state.status !== 'active') throw new NotFoundError('No super admin');
        return [
          {
            type: 'SuperAdminCredentialsChanged',
            data: { superAdminId: state.id, username: command.username, passwordHash: command.passwordHash },
          },
        ];
      case 'RecordSuperAdminSignIn': {
        if (state.status !== 'active') return [];
        const throttled = superAdminThrottled(state, command.now);
        if (command.succeeded && command.namedAccount && !throttled) {
          return [{ type: 'SuperAdminSignedIn', data: { superAdminId: state.id } }];
        }
        // Every attempt is recorded (so an unknown name costs the same work as a known one);
        // only those on the super admin's name count, and a throttle that ran out starts afresh.
        let consecutiveFailures = state.failedSignIns;
        let lockedUntil = state.signInLockedUntil;
        if (command.namedAccount && !throttled) {
          consecutiveFailures = (lockedUntil !== null ? 0 : state.failedSignIns) + 1;
          lockedUntil = null;
          if (consecutiveFailures >= SUPER_ADMIN_MAX_FAILURES) {
            lockedUntil = new Date(command.now.getTime() + SUPER_ADMIN_LOCK_MS).toISOString();
          }
        } else if (command.namedAccount) {
          // Guesses during the lock count too (superAdminLockIsTold); the lock keeps its end.
          consecutiveFailures = state.failedSignIns + 1;
        }
        return [{ type: 'SuperAdminSignInFailed', data: { superAdminId: state.id, consecutiveFailures, lockedUntil } }];
      }
    }
  },
};
