import { CUSTOMER_FIELDS, CUSTOMER_MESSAGES, isBlankCustomer, type CustomerChanges, type CustomerFields } from '@crm/projections/customers';
import type { DomainEventOf } from '@crm/projections/events';
import { RECORD_MESSAGES } from '@crm/projections/records';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';

export const customerStream = (customerId: string) => `customer-${customerId}`;
/** Reservation of a per-instance customer number; numbers are never reused. */
export const customerNumberStream = (instanceId: string, number: number) => `customernumber-${instanceId}-${number}`;

export type CustomerEvent = DomainEventOf<'CustomerCreated' | 'CustomerUpdated' | 'CustomerDeleted' | 'CustomerRestored'>;

interface CustomerIdentity {
  customerId: string;
  instanceId: string;
  number: number;
}

export type CustomerState =
  | { status: 'empty' }
  | ({ status: 'active'; fields: CustomerFields } & CustomerIdentity)
  /** `fields`: as it was deleted (what a restore brings back). */
  | ({ status: 'deleted'; name: string; fields: CustomerFields } & CustomerIdentity);

/**
 * Every command after creation names the instance it is given in: a customer of another
 * instance is not found, whatever id was asked for.
 */
export type CustomerCommand =
  | { type: 'CreateCustomer'; customerId: string; instanceId: string; number: number; fields: CustomerFields }
  /** Fields left out stay as they are. `revertOf`: the change this one undoes (a revert from the history). */
  | { type: 'UpdateCustomer'; instanceId: string; changes: CustomerChanges; revertOf?: string }
  | { type: 'DeleteCustomer'; instanceId: string }
  /** A deleted customer back as it was deleted, with its number. */
  | { type: 'RestoreCustomer'; instanceId: string; createdAt: string; createdBy: string };

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
        return { status: 'deleted', customerId, instanceId, number, name: state.fields.name, fields: state.fields };
      }
      case 'CustomerRestored': {
        if (state.status !== 'deleted') return state;
        const { customerId, instanceId, number, createdAt: _createdAt, createdBy: _createdBy, ...fields } = event.data;
        return { status: 'active', customerId, instanceId, number, fields };
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
          { type: 'CustomerDeleted', data: { customerId: customer.customerId, number: customer.number, name: customer.fields.name } },
        ];
      }
      case 'RestoreCustomer': {
        if (state.status === 'empty' || state.instanceId !== command.instanceId) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
        if (state.status !== 'deleted') throw new ConflictError(RECORD_MESSAGES.notDeleted);
        const { customerId, instanceId, number, fields } = state;
        const { createdAt, createdBy } = command;
        return [{ type: 'CustomerRestored', data: { customerId, instanceId, number, ...fields, createdAt, createdBy } }];
      }
    }
  },
};
