import type { DomainEventOf, Features } from '@crm/projections/domain';
import type { Decider } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';

export const instanceStream = (instanceId: string) => `crminstance-${instanceId}`;
export const subdomainStream = (subdomain: string) => `subdomain-${subdomain}`;

type InstanceEvent = DomainEventOf<'CrmInstanceCreated'>;

export type InstanceState =
  { status: 'empty' } | { status: 'active'; instanceId: string; subdomain: string; name: string; displayName: string };

export type InstanceCommand = {
  type: 'CreateInstance';
  instanceId: string;
  name: string;
  subdomain: string;
  displayName: string;
  description: string;
  features: Features;
};

export const instanceDecider: Decider<InstanceState, InstanceCommand, InstanceEvent> = {
  initialState: { status: 'empty' },
  evolve(_state, event) {
    switch (event.type) {
      case 'CrmInstanceCreated':
        return { status: 'active', ...event.data };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateInstance': {
        if (state.status !== 'empty') throw new ConflictError('This CRM instance already exists');
        const { type: _type, ...data } = command;
        return [{ type: 'CrmInstanceCreated', data }];
      }
    }
  },
};
