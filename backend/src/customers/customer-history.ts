import {
  CUSTOMER_FIELDS,
  displayValue,
  parseList,
  type CustomerFieldChange,
  type CustomerHistoryEntry,
  type CustomerView,
} from '@crm/projections/customers';
import type { StoredDomainEvent } from '@crm/projections/events';
import type { RevertOffer } from '@crm/projections/records';
import { customerDecider, type CustomerEvent, type CustomerState } from './customer-decider.ts';

/**
 * History and time travel come from the customer's own stream (a handful of events), so
 * they need no read model and still answer for a deleted customer.
 */
export type CustomerStoredEvent = Extract<StoredDomainEvent, { type: CustomerEvent['type'] }>;

export function customerEventsOf(events: StoredDomainEvent[]): CustomerStoredEvent[] {
  return events.filter(
    (e): e is CustomerStoredEvent =>
      e.type === 'CustomerCreated' ||
      e.type === 'CustomerUpdated' ||
      e.type === 'CustomerDeleted' ||
      e.type === 'CustomerRestored' ||
      e.type === 'CustomerMerged' ||
      e.type === 'CustomerMergeUndone',
  );
}

/** The instance a customer stream belongs to (from its creation), or null for no customer. */
export function instanceOfCustomer(events: CustomerStoredEvent[]): string | null {
  const created = events.find((e) => e.type === 'CustomerCreated');
  return created?.type === 'CustomerCreated' ? created.data.instanceId : null;
}

/**
 * Each change with its values, newest first. Phones are shown whole: this is one record.
 * `revertOf(id)`: whether the reader may revert that change now, and why not when refused.
 */
export function customerHistory(
  events: CustomerStoredEvent[],
  revertOf: (eventId: string) => RevertOffer = () => ({ canRevert: false }),
): CustomerHistoryEntry[] {
  return events
    .map((event): CustomerHistoryEntry => {
      // The recorded time: the clock time travel (`asOf`) goes by, so a row's time shows the customer right after it.
      const base = {
        id: event.id,
        userDisplayName: event.metadata.actor.displayName,
        timestamp: event.recordedAt.toISOString(),
        revision: event.revision,
        ...revertOf(event.id),
      };
      switch (event.type) {
        case 'CustomerCreated': {
          const changes: CustomerFieldChange[] = CUSTOMER_FIELDS.filter((field) => event.data[field] !== '').map((field) => ({
            field,
            oldValue: null,
            newValue: displayValue(field, event.data[field]),
          }));
          return { ...base, action: 'created', changes };
        }
        case 'CustomerUpdated':
          return {
            ...base,
            action: 'updated',
            changes: event.data.changes.map(({ field, oldValue, newValue }) => ({
              field,
              oldValue: displayValue(field, oldValue),
              newValue: displayValue(field, newValue),
            })),
            revertOf: event.data.revertOf ?? null,
          };
        case 'CustomerDeleted':
          return { ...base, action: 'deleted', changes: [] };
        case 'CustomerRestored':
          return { ...base, action: 'restored', changes: [] };
        case 'CustomerMerged':
        case 'CustomerMergeUndone': {
          const { role, mergeId, fromId, fromName, intoId, intoName, jobIds, vehicleIds } = event.data;
          const merge = { role, mergeId, fromId, fromName, intoId, intoName, jobs: jobIds.length, vehicles: vehicleIds.length };
          return { ...base, action: event.type === 'CustomerMerged' ? 'merged' : 'merge-undone', changes: [], merge };
        }
        default: {
          const unknown: never = event;
          return unknown;
        }
      }
    })
    .reverse();
}

/**
 * The customer as it stood right after the last of these events, phone whole; null when
 * it did not exist (not created yet, or deleted). Its times are the recorded ones, as the
 * read model has them.
 */
export function foldCustomer(events: CustomerStoredEvent[]): CustomerView | null {
  const state = events.reduce<CustomerState>((s, e) => customerDecider.evolve(s, e as CustomerEvent), customerDecider.initialState);
  const created = events.find((e) => e.type === 'CustomerCreated');
  const last = events[events.length - 1];
  if (state.status !== 'active' || !created || !last) return null;
  const { fields } = state;
  return {
    id: state.customerId,
    number: state.number,
    name: fields.name,
    phone: displayValue('phone', fields.phone),
    email: fields.email,
    address: fields.address,
    vehicles: fields.vehicles,
    vehicleList: parseList(fields.vehicles),
    pastAppointments: fields.pastAppointments,
    invoices: fields.invoices,
    notes: fields.notes,
    createdAt: created.recordedAt.toISOString(),
    createdBy: created.metadata.actor.displayName,
    lastModifiedAt: last.recordedAt.toISOString(),
    lastModifiedBy: last.metadata.actor.displayName,
    revision: last.revision,
  };
}
