import type { DomainEventOf, Permissions, Role } from '@crm/projections/domain';
import type { Decider } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';

export const userStream = (userId: string) => `user-${userId}`;
export const usernameStream = (instanceId: string, username: string) => `username-${instanceId}-${username.toLowerCase()}`;

type UserEvent = DomainEventOf<'UserCreated'>;

export type UserState =
  | { status: 'empty' }
  | {
      status: 'active';
      userId: string;
      instanceId: string;
      username: string;
      displayName: string;
      role: Role;
      permissions: Permissions;
      pinHash: string;
    };

export type UserCommand = {
  type: 'CreateUser';
  userId: string;
  instanceId: string;
  username: string;
  displayName: string;
  role: Role;
  permissions: Permissions;
  pinHash: string;
};

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: { status: 'empty' },
  evolve(_state, event) {
    switch (event.type) {
      case 'UserCreated':
        return { status: 'active', ...event.data };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateUser': {
        if (state.status !== 'empty') throw new ConflictError('This user already exists');
        const { type: _type, ...data } = command;
        return [{ type: 'UserCreated', data }];
      }
    }
  },
};
