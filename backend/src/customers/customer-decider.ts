import { CUSTOMER_FIELDS, CUSTOMER_MESSAGES, isBlankCustomer, type CustomerChanges, type CustomerFields } from '@crm/projections/customers';
import type { DomainEventOf } from '@crm/projections/events';
import { RECORD_MESSAGES } from '@crm/projections/records';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';

export const customerStream = (customerId: string) => `customer-${customerId}`;
/** Reservation of a per-instance customer number; numbers are never reused. */
export const customerNumberStream = (instanceId: string, number: number) => `customernumber-${instanceId}-${number}`;

export type CustomerEvent = DomainEventOf<
  'CustomerCreated' | 'CustomerUpdated' | 'CustomerDeleted' | 'CustomerRestored' | 'CustomerMerged' | 'CustomerMergeUndone'
>;

/** What a merge records on both sides, less the side (`role`). */
export type CustomerMerge = Omit<Extract<CustomerEvent, { type: 'CustomerMerged' }>['data'], 'customerId' | 'number' | 'name' | 'role'>;

interface CustomerIdentity {
  customerId: string;
  instanceId: string;
  number: number;
}

export type CustomerState =
  | { status: 'empty' }
  /** `mergedIn`: the merges into this customer not undone yet, by merge id. */
  | ({ status: 'active'; fields: CustomerFields; mergedIn?: Record<string, CustomerMerge> } & CustomerIdentity)
  /**
   * Merged into another customer: off the lists until the merge is undone. `mergedIn` is kept:
   * once this customer is back, the merges into it that still stand can be undone in turn.
   */
  | ({ status: 'merged'; fields: CustomerFields; merge: CustomerMerge; mergedIn?: Record<string, CustomerMerge> } & CustomerIdentity)
  /**
   * `fields`: as it was deleted, `vehicleIds`: the vehicle records deleted with it (what a
   * restore brings back). `mergedIn` is kept: once it is restored (with the jobs and vehicles
   * the merges gave it), those merges can be undone again.
   */
  | ({
      status: 'deleted';
      name: string;
      fields: CustomerFields;
      vehicleIds: string[];
      mergedIn?: Record<string, CustomerMerge>;
    } & CustomerIdentity);

/**
 * Every command after creation names the instance it is given in: a customer of another
 * instance is not found, whatever id was asked for.
 */
export type CustomerCommand =
  | { type: 'CreateCustomer'; customerId: string; instanceId: string; number: number; fields: CustomerFields }
  /** Fields left out stay as they are. `revertOf`: the change this one undoes (a revert from the history). */
  | { type: 'UpdateCustomer'; instanceId: string; changes: CustomerChanges; revertOf?: string }
  /** `vehicleIds`: its live vehicle records, deleted with it. */
  | { type: 'DeleteCustomer'; instanceId: string; vehicleIds: string[] }
  /** A deleted customer back as it was deleted, with its number. */
  | { type: 'RestoreCustomer'; instanceId: string; createdAt: string; createdBy: string }
  /**
   * One side of a merge: the `from` customer (this stream is `merge.fromId`) or the `into`
   * one. Both must be live customers of the instance, and not the same.
   */
  | { type: 'MergeCustomer'; instanceId: string; merge: CustomerMerge }
  /** One side of a merge's undo; `createdAt`/`createdBy`: the `from` customer's first creation, which it keeps. */
  | { type: 'UndoCustomerMerge'; instanceId: string; mergeId: string; createdAt: string; createdBy: string };

export const MERGE_MESSAGES = {
  self: 'A customer cannot be merged into itself',
  notMerged: 'This merge is not in effect (undone already, or never made)',
  intoDeleted: (name: string) => `${name}, whom this merge went into, is deleted: restore them first, then undo the merge`,
} as const;

function existing(state: CustomerState, instanceId: string): Extract<CustomerState, { status: 'active' }> {
  if (state.status !== 'active' || state.instanceId !== instanceId) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  return state;
}

function atLeastOneField(): ValidationError {
  return new ValidationError(CUSTOMER_MESSAGES.atLeastOne, { errors: [{ field: 'name', message: CUSTOMER_MESSAGES.atLeastOne }] });
}

export const customerDecider: Decider<CustomerState, CustomerCommand, CustomerEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    switch (event.type) {
      case 'CustomerCreated': {
        const { customerId, instanceId, number, ...fields } = event.data;
        return { status: 'active', customerId, instanceId, number, fields };
      }
      case 'CustomerUpdated': {
        if (state.status !== 'active') return state;
        const fields = { ...state.fields };
        for (const change of event.data.changes) fields[change.field] = change.newValue;
        return { ...state, fields };
      }
      case 'CustomerDeleted': {
        if (state.status !== 'active') return state;
        const { customerId, instanceId, number } = state;
        const vehicleIds = event.data.vehicleIds ?? [];
        const { fields, mergedIn } = state;
        return {
          status: 'deleted',
          customerId,
          instanceId,
          number,
          name: fields.name,
          fields,
          vehicleIds,
          ...(mergedIn ? { mergedIn } : {}),
        };
      }
      case 'CustomerRestored': {
        if (state.status !== 'deleted') return state;
        const { customerId, instanceId, number, createdAt: _createdAt, createdBy: _createdBy, ...fields } = event.data;
        const { mergedIn } = state;
        return { status: 'active', customerId, instanceId, number, fields, ...(mergedIn ? { mergedIn } : {}) };
      }
      case 'CustomerMerged': {
        if (state.status !== 'active') return state;
        const { customerId: _c, number: _n, name: _name, role, ...merge } = event.data;
        if (role === 'from') return { ...state, status: 'merged', merge };
        return { ...state, mergedIn: { ...state.mergedIn, [merge.mergeId]: merge } };
      }
      case 'CustomerMergeUndone': {
        if (event.data.role === 'from') {
          if (state.status !== 'merged') return state;
          const { merge: _merge, ...rest } = state;
          return { ...rest, status: 'active' };
        }
        if (state.status !== 'active') return state;
        const { [event.data.mergeId]: _undone, ...mergedIn } = state.mergedIn ?? {};
        return { ...state, mergedIn };
      }
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateCustomer': {
        if (state.status !== 'empty') throw new ConflictError('This customer already exists');
        if (isBlankCustomer(command.fields)) throw atLeastOneField();
        const { customerId, instanceId, number, fields } = command;
        return [{ type: 'CustomerCreated', data: { customerId, instanceId, number, ...fields } }];
      }
      case 'UpdateCustomer': {
        const customer = existing(state, command.instanceId);
        const next = { ...customer.fields };
        const changes = [];
        for (const field of CUSTOMER_FIELDS) {
          const value = command.changes[field];
          if (value === undefined || value === customer.fields[field]) continue;
          changes.push({ field, oldValue: customer.fields[field], newValue: value });
          next[field] = value;
        }
        if (changes.length === 0) return [];
        if (isBlankCustomer(next)) throw atLeastOneField();
        const revertOf = command.revertOf ? { revertOf: command.revertOf } : {};
        return [
          {
            type: 'CustomerUpdated',
            data: { customerId: customer.customerId, number: customer.number, name: next.name, changes, ...revertOf },
          },
        ];
      }
      case 'DeleteCustomer': {
        const customer = existing(state, command.instanceId);
        return [
          {
            type: 'CustomerDeleted',
            data: {
              customerId: customer.customerId,
              number: customer.number,
              name: customer.fields.name,
              ...(command.vehicleIds.length > 0 ? { vehicleIds: command.vehicleIds } : {}),
            },
          },
        ];
      }
      case 'RestoreCustomer': {
        if (state.status === 'empty' || state.instanceId !== command.instanceId) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
        if (state.status !== 'deleted') throw new ConflictError(RECORD_MESSAGES.notDeleted);
        const { customerId, instanceId, number, fields } = state;
        const { createdAt, createdBy } = command;
        return [{ type: 'CustomerRestored', data: { customerId, instanceId, number, ...fields, createdAt, createdBy } }];
      }
      case 'MergeCustomer': {
        const customer = existing(state, command.instanceId);
        const { merge } = command;
        if (merge.fromId === merge.intoId) {
          throw new ValidationError(MERGE_MESSAGES.self, { errors: [{ field: 'intoId', message: MERGE_MESSAGES.self }] });
        }
        const role = customer.customerId === merge.fromId ? 'from' : 'into';
        if (role === 'into' && customer.customerId !== merge.intoId) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
        const { customerId, number } = customer;
        return [{ type: 'CustomerMerged', data: { customerId, number, name: customer.fields.name, role, ...merge } }];
      }
      case 'UndoCustomerMerge': {
        if (state.status === 'empty' || state.instanceId !== command.instanceId) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
        const { customerId, instanceId, number, fields } = state;
        if (state.status === 'merged' && state.merge.mergeId === command.mergeId) {
          const { createdAt, createdBy } = command;
          return [
            {
              type: 'CustomerMergeUndone',
              data: {
                customerId,
                number,
                name: fields.name,
                role: 'from',
                ...state.merge,
                restored: { instanceId, ...fields, createdAt, createdBy },
              },
            },
          ];
        }
        if (state.status === 'deleted' && state.mergedIn?.[command.mergeId])
          throw new ConflictError(MERGE_MESSAGES.intoDeleted(state.name));
        const merge = state.status === 'active' ? state.mergedIn?.[command.mergeId] : undefined;
        if (!merge) throw new ConflictError(MERGE_MESSAGES.notMerged);
        return [{ type: 'CustomerMergeUndone', data: { customerId, number, name: fields.name, role: 'into', ...merge } }];
      }
      default: {
        const unknown: never = command;
        return unknown;
      }
    }
  },
};
