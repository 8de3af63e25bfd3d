import type { DomainEventOf } from '@crm/projections/events';
import { RESERVED_INSTANCE_SUBDOMAIN, type Features } from '@crm/projections/platform';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';

export const instanceStream = (instanceId: string) => `crminstance-${instanceId}`;
export const subdomainStream = (subdomain: string) => `subdomain-${subdomain}`;

type InstanceEvent = DomainEventOf<'CrmInstanceCreated' | 'CrmInstanceDeactivated' | 'CrmInstanceReactivated'>;

interface InstanceFacts {
  instanceId: string;
  subdomain: string;
  name: string;
  displayName: string;
}

export type InstanceState = { status: 'empty' } | ({ status: 'active' | 'inactive' } & InstanceFacts);

export type InstanceCommand =
  | {
      type: 'CreateInstance';
      instanceId: string;
      name: string;
      subdomain: string;
      displayName: string;
      description: string;
      features: Features;
      timeZone: string;
    }
  | { type: 'SetInstanceActive'; isActive: boolean };

export const instanceDecider: Decider<InstanceState, InstanceCommand, InstanceEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    switch (event.type) {
      case 'CrmInstanceCreated': {
        const { instanceId, subdomain, name, displayName } = event.data;
        return { status: 'active', instanceId, subdomain, name, displayName };
      }
      case 'CrmInstanceDeactivated':
        return state.status === 'empty' ? state : { ...state, status: 'inactive' };
      case 'CrmInstanceReactivated':
        return state.status === 'empty' ? state : { ...state, status: 'active' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateInstance': {
        if (state.status !== 'empty') throw new ConflictError('This CRM instance already exists');
        const { type: _type, ...data } = command;
        return [{ type: 'CrmInstanceCreated', data }];
      }
      case 'SetInstanceActive': {
        if (state.status === 'empty') throw new NotFoundError('CRM instance not found');
        if (state.subdomain === RESERVED_INSTANCE_SUBDOMAIN && !command.isActive) {
          throw new ConflictError("The provider's own instance cannot be deactivated");
        }
        const data = { instanceId: state.instanceId, displayName: state.displayName };
        if (command.isActive) return state.status === 'active' ? [] : [{ type: 'CrmInstanceReactivated', data }];
        return state.status === 'inactive' ? [] : [{ type: 'CrmInstanceDeactivated', data }];
      }
    }
  },
};
