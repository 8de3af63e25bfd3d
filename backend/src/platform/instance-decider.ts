import type { DomainEventOf } from '@crm/projections/events';
import { RESERVED_INSTANCE_SUBDOMAIN, type Features, type InstanceFieldChange } from '@crm/projections/platform';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';

export const instanceStream = (instanceId: string) => `crminstance-${instanceId}`;
export const subdomainStream = (subdomain: string) => `subdomain-${subdomain}`;

export type InstanceEvent = DomainEventOf<
  'CrmInstanceCreated' | 'CrmInstanceUpdated' | 'CrmInstanceDeactivated' | 'CrmInstanceReactivated'
>;

/** What the super admin may change of an instance (its name and subdomain are its address). */
export interface InstanceSettings {
  displayName: string;
  description: string;
  /** Null: never chosen (the server's zone applies). */
  timeZone: string | null;
  features: Features;
  publicRequests: boolean;
}

interface InstanceFacts extends InstanceSettings {
  instanceId: string;
  subdomain: string;
  name: string;
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
  | { type: 'SetInstanceActive'; isActive: boolean }
  | {
      type: 'UpdateInstance';
      changes: Partial<Omit<InstanceSettings, 'features' | 'timeZone'>> & { timeZone?: string; features?: Partial<Features> };
    };

const sameFeatures = (a: Features, b: Features) => (Object.keys(a) as Array<keyof Features>).every((key) => a[key] === b[key]);

/** The changes a command makes to the settings, field by field; none when it sets what is there. */
export function settingChanges(
  state: InstanceSettings,
  changes: Extract<InstanceCommand, { type: 'UpdateInstance' }>['changes'],
): InstanceFieldChange[] {
  const out: InstanceFieldChange[] = [];
  if (changes.displayName !== undefined && changes.displayName !== state.displayName) {
    out.push({ field: 'displayName', oldValue: state.displayName, newValue: changes.displayName });
  }
  if (changes.description !== undefined && changes.description !== state.description) {
    out.push({ field: 'description', oldValue: state.description, newValue: changes.description });
  }
  if (changes.timeZone !== undefined && changes.timeZone !== state.timeZone) {
    out.push({ field: 'timeZone', oldValue: state.timeZone, newValue: changes.timeZone });
  }
  if (changes.features !== undefined) {
    const features = { ...state.features, ...changes.features };
    if (!sameFeatures(features, state.features)) out.push({ field: 'features', oldValue: state.features, newValue: features });
  }
  if (changes.publicRequests !== undefined && changes.publicRequests !== state.publicRequests) {
    out.push({ field: 'publicRequests', oldValue: state.publicRequests, newValue: changes.publicRequests });
  }
  return out;
}

function applyChanges<S extends InstanceSettings>(state: S, changes: InstanceFieldChange[]): S {
  const next = { ...state };
  for (const change of changes) {
    switch (change.field) {
      case 'displayName':
        next.displayName = change.newValue;
        break;
      case 'description':
        next.description = change.newValue;
        break;
      case 'timeZone':
        next.timeZone = change.newValue;
        break;
      case 'features':
        next.features = change.newValue;
        break;
      case 'publicRequests':
        next.publicRequests = change.newValue;
        break;
    }
  }
  return next;
}

export const instanceDecider: Decider<InstanceState, InstanceCommand, InstanceEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    switch (event.type) {
      case 'CrmInstanceCreated': {
        const { instanceId, subdomain, name, displayName, description, features, timeZone } = event.data;
        return {
          status: 'active',
          instanceId,
          subdomain,
          name,
          displayName,
          description,
          features,
          timeZone: timeZone ?? null,
          publicRequests: false,
        };
      }
      case 'CrmInstanceUpdated':
        return state.status === 'empty' ? state : applyChanges(state, event.data.changes);
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
      case 'UpdateInstance': {
        if (state.status === 'empty') throw new NotFoundError('CRM instance not found');
        const changes = settingChanges(state, command.changes);
        if (changes.length === 0) return [];
        const displayName = command.changes.displayName ?? state.displayName;
        return [{ type: 'CrmInstanceUpdated', data: { instanceId: state.instanceId, displayName, changes } }];
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
