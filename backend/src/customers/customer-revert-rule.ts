import { CUSTOMER_MESSAGES, type CustomerChanges } from '@crm/projections/customers';
import { RECORD_MESSAGES, type Reverter, type RevertOffer } from '@crm/projections/records';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { assertMayRevert, assertNoLaterChange, NotRevertibleError, revertOffer } from '../shared/reverts.ts';
import { customerDecider, type CustomerEvent, type CustomerState } from './customer-decider.ts';
import { instanceOfCustomer, type CustomerStoredEvent } from './customer-history.ts';

/**
 * The one rule of whether a change in a customer's history can be reverted now: the history
 * offers "Revert this change" exactly where this passes, and the revert command refuses with
 * what it throws. Only a change of fields; the reader must be its author within 24 hours, or
 * an admin; a later change of the same fields stands in the way (unless a later revert undid
 * it); and the customer must still be there for the save to record something.
 */

/** 'pastAppointments' → 'Past appointments': a customer field in words. */
const customerFieldLabel = (field: string) => {
  const words = field.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const fieldsOf = (event: CustomerStoredEvent) => (event.type === 'CustomerUpdated' ? event.data.changes.map((c) => c.field as string) : []);

/** The customer's stream as read once, with the customer after it. */
export interface CustomerStreamRead {
  instanceId: string;
  events: CustomerStoredEvent[];
  state: CustomerState;
}

export function customerStreamRead(instanceId: string, events: CustomerStoredEvent[]): CustomerStreamRead {
  const state = events.reduce<CustomerState>((s, e) => customerDecider.evolve(s, e as CustomerEvent), customerDecider.initialState);
  return { instanceId, events, state };
}

/** The fields a change set, back to what they were before it. */
export function customerValuesBefore(event: Extract<CustomerStoredEvent, { type: 'CustomerUpdated' }>): CustomerChanges {
  const changes: CustomerChanges = {};
  for (const change of event.data.changes) changes[change.field] = change.oldValue;
  return changes;
}

export function assertCustomerChangeRevertible(read: CustomerStreamRead, eventId: string, reader: Reverter, now: Date): void {
  const { events, state } = read;
  if (state.status !== 'active' || instanceOfCustomer(events) !== read.instanceId) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const index = events.findIndex((event) => event.id === eventId);
  if (index < 0) throw new NotFoundError(RECORD_MESSAGES.changeNotFound);
  const event = events[index]!;
  if (event.type !== 'CustomerUpdated') throw new NotRevertibleError(RECORD_MESSAGES.notRevertible);
  assertMayRevert(reader, event, now);
  assertNoLaterChange(events.slice(index + 1), fieldsOf(event), fieldsOf, customerFieldLabel);
  const decided = customerDecider.decide(
    { type: 'UpdateCustomer', instanceId: read.instanceId, changes: customerValuesBefore(event), revertOf: event.id },
    state,
  );
  if (decided.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
}

/** The history's offer to revert this change of the customer, by the rule above. */
export function customerChangeOffer(read: CustomerStreamRead, eventId: string, reader: Reverter, now: Date): RevertOffer {
  return revertOffer(() => assertCustomerChangeRevertible(read, eventId, reader, now));
}
