import { CUSTOMER_MESSAGES, type CustomerView } from '@crm/projections/customers';
import { RECORD_MESSAGES, type Reverter, type RestoredView } from '@crm/projections/records';
import { latest } from '@crm/projections/runtime/reactions';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import type { CustomerVehicleRecords, VehicleRestoration } from './customer-service.ts';
import { settle } from '../deps.ts';
import { executeCommand, loadAggregate, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { awaitReaction, CUSTOMER_CASCADE } from '../shared/reactions.ts';
import { customerDecider, customerStream } from './customer-decider.ts';
import { customerEventsOf, foldCustomer, instanceOfCustomer, type CustomerStoredEvent } from './customer-history.ts';
import { assertCustomerChangeRevertible, customerStreamRead, customerValuesBefore } from './customer-revert-rule.ts';
import { findCustomer } from './customer-queries.ts';

/**
 * Undo from a customer's history (a compensating CustomerUpdated naming the change it
 * undoes) and the restore of a deleted customer, which brings back the jobs its deletion
 * removed through the pipeline's cascade reactor (durable: replayed from its checkpoint
 * after a crash); the answer waits for the reactor and the projector, like a deletion's.
 */

/** Reverts one change of a customer; answers with the customer after it (If-Match as for a job's revert). */
export async function revertCustomerChange(
  deps: AppDeps,
  customerId: string,
  eventId: string,
  reader: Reverter,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<CustomerView> {
  if (!isUuid(customerId)) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const id = customerId.toLowerCase();
  const loaded = await loadAggregate(deps.store, customerStream(id), customerDecider);
  const events = customerEventsOf(loaded.events);
  if (loaded.state.status !== 'active' || instanceOfCustomer(events) !== ctx.instanceId)
    throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  if (expectedRevision !== undefined && loaded.revision !== expectedRevision) {
    throw new StaleRecordError('customer', foldCustomer(events));
  }
  assertCustomerChangeRevertible(customerStreamRead(ctx.instanceId, events), eventId, reader, deps.now());
  const event = events.find((candidate) => candidate.id === eventId) as Extract<CustomerStoredEvent, { type: 'CustomerUpdated' }>;
  const changes = customerValuesBefore(event);
  let result;
  try {
    result = await executeCommand({
      store: deps.store,
      streamId: customerStream(id),
      decider: customerDecider,
      command: { type: 'UpdateCustomer', instanceId: ctx.instanceId, changes, revertOf: event.id },
      ctx,
      expectedRevision: loaded.revision ?? undefined,
      loaded,
    });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    // Changed meanwhile: the caller gets the customer as it is now, to look again.
    const current = await loadAggregate(deps.store, customerStream(id), customerDecider);
    throw new StaleRecordError('customer', foldCustomer(customerEventsOf(current.events)));
  }
  if (result.events.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
  await settle(deps, result.appended);
  const projected = await findCustomer(deps.knex, ctx.instanceId, id);
  if (projected && (projected.revision ?? -1) >= (result.revision ?? 0)) return projected;
  // The projection trails by more than read-your-writes waits for: answer from the stream.
  const folded = foldCustomer(
    customerEventsOf(result.stream ?? (await loadAggregate(deps.store, customerStream(id), customerDecider)).events),
  );
  if (!folded) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  return folded;
}

/**
 * A deleted customer back with its number; the jobs its deletion removed come back with it
 * (the cascade reactor), and its vehicle records in the same append (a VIN another vehicle
 * took meanwhile stays with that one: the answer says so).
 */
export async function restoreDeletedCustomer(
  deps: AppDeps,
  customerId: string,
  ctx: InstanceContext,
  vehicles: CustomerVehicleRecords,
): Promise<RestoredView> {
  if (!isUuid(customerId)) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const id = customerId.toLowerCase();
  const loaded = await loadAggregate(deps.store, customerStream(id), customerDecider);
  const created = loaded.events.find((e) => e.type === 'CustomerCreated');
  if (!created) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  // Decided again on each attempt of the command: what the appended one decided is what it says.
  let restoration: VehicleRestoration = { appends: [], restored: 0, vinsNotRestored: [] };
  const result = await executeCommand({
    store: deps.store,
    streamId: customerStream(id),
    decider: customerDecider,
    command: {
      type: 'RestoreCustomer',
      instanceId: ctx.instanceId,
      createdAt: created.recordedAt.toISOString(),
      createdBy: created.metadata.actor.displayName,
    },
    ctx,
    loaded,
    alongside: async (_after, before) => {
      restoration = before.status === 'deleted' ? await vehicles.ofRestore(ctx, id, before.vehicleIds) : restoration;
      return restoration.appends;
    },
  });
  const restored = result.events.find((e) => e.type === 'CustomerRestored')!;
  const cascade = await awaitReaction(deps, CUSTOMER_CASCADE, restored);
  const lastVehicle = result.alongside?.at(-1)?.position ?? null;
  await settle(deps, { position: latest(latest(restored.position, lastVehicle), cascade?.lastPosition ?? null)! });
  return {
    restored: true,
    kind: 'customer',
    id,
    jobsRestored: cascade?.affected ?? 0,
    vehiclesRestored: restoration.restored,
    vinsNotRestored: restoration.vinsNotRestored,
  };
}
