import type { EventStore } from '@crm/projections/eventstore/port';
import { loadAggregate } from '../shared/commands.ts';
import { customerDecider, customerStream, type CustomerState } from './customer-decider.ts';

/**
 * Where a customer stands, read from its own stream (never stale, unlike the read model), for
 * a command of another slice that must know before it records: null when no such customer
 * was ever created.
 */
export async function customerStanding(
  store: EventStore,
  customerId: string,
): Promise<{ status: Exclude<CustomerState['status'], 'empty'>; instanceId: string } | null> {
  const { state } = await loadAggregate(store, customerStream(customerId), customerDecider);
  return state.status === 'empty' ? null : { status: state.status, instanceId: state.instanceId };
}
