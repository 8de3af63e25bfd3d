import type { DomainEventOf } from '@crm/projections/events';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';

export const SUPER_ADMIN_ID = 'primary';
export const superAdminStream = (id = SUPER_ADMIN_ID) => `superadmin-${id}`;

type SuperAdminEvent = DomainEventOf<
  'SuperAdminCreated' | 'SuperAdminCredentialsChanged' | 'SuperAdminSignedIn' | 'SuperAdminSignInFailed'
>;

export type SuperAdminState =
  { status: 'empty' } | { status: 'active'; id: string; username: string; displayName: string; passwordHash: string };

export type SuperAdminCommand =
  | { type: 'CreateSuperAdmin'; superAdminId: string; username: string; displayName: string; passwordHash: string }
  | { type: 'ChangeSuperAdminCredentials'; username: string; passwordHash: string }
  | { type: 'RecordSuperAdminSignIn'; succeeded: boolean };

export const superAdminDecider: Decider<SuperAdminState, SuperAdminCommand, SuperAdminEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    switch (event.type) {
      case 'SuperAdminCreated':
        return { status: 'active', id: event.data.superAdminId, ...event.data };
      case 'SuperAdminCredentialsChanged':
        return state.status === 'active' ? { ...state, username: event.data.username, passwordHash: event.data.passwordHash } : state;
      case 'SuperAdminSignedIn':
      case 'SuperAdminSignInFailed':
        return state;
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
      case 'RecordSuperAdminSignIn':
        if (state.status !== 'active') return [];
        return [
          command.succeeded
            ? { type: 'SuperAdminSignedIn', data: { superAdminId: state.id } }
            : { type: 'SuperAdminSignInFailed', data: { superAdminId: state.id } },
        ];
    }
  },
};
