import { randomUUID } from 'node:crypto';
import {
  CUSTOMER_MESSAGES,
  customerChangesInput,
  customerInput,
  type CustomerDeletedView,
  type CustomerFields,
  type CustomerHistoryEntry,
  type CustomerView,
} from '@crm/projections/customers';
import { readableEvents, unshowableEntry } from '@crm/projections/events';
import {
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type RecordedEvent,
  type StreamAppend,
} from '@crm/projections/eventstore/port';
import { latest } from '@crm/projections/runtime/reactions';
import type { RestoredView, Reverter } from '@crm/projections/records';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { parseInput } from '../http/validation.ts';
import { executeCommand, toNewEvents, type InstanceContext } from '../shared/commands.ts';
import { awaitReaction, CUSTOMER_CASCADE } from '../shared/reactions.ts';
import { AppError, ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { NumberAllocator, NumberExhaustedError } from '../shared/number-allocator.ts';
import { type AsOf, readStreamAsOf } from '../shared/time-travel.ts';
import { customerDecider, customerNumberStream, customerStream, type CustomerCommand, type CustomerState } from './customer-decider.ts';
import { customerEventsOf, customerHistory, foldCustomer, instanceOfCustomer, type CustomerStoredEvent } from './customer-history.ts';
import { customerChangeOffer, customerStreamRead } from './customer-revert-rule.ts';
import {
  findCustomer,
  findCustomerRecord,
  highestCustomerNumber,
  toCustomerView,
  type CustomerRecordPart,
  type CustomerRow,
} from './customer-queries.ts';

/**
 * A customer's vehicle records as the customer's own commands change them, made by the
 * vehicles slice (handed in by the composition root) and appended with the customer's
 * change: for a new customer, one per label of its Vehicles; for a change of its Vehicles,
 * one per label added (and the deletion of each one taken off); its deletion deletes its
 * records and its restore brings back the ones the deletion deleted.
 */
export interface CustomerVehicleRecords {
  ofNew: (ctx: InstanceContext, customerId: string, vehicles: string) => StreamAppend[];
  ofChange: (ctx: InstanceContext, customerId: string, before: string, after: string) => Promise<StreamAppend[]>;
  /** The customer's live vehicle records. */
  idsOf: (ctx: InstanceContext, customerId: string) => Promise<string[]>;
  /** Their deletion with the customer's (each VIN freed). */
  ofDeletion: (ctx: InstanceContext, vehicleIds: readonly string[]) => Promise<StreamAppend[]>;
  /** The records the customer's deletion deleted, back with its restore (a VIN another vehicle took meanwhile stays with that one). */
  ofRestore: (ctx: InstanceContext, customerId: string, vehicleIds: readonly string[]) => Promise<VehicleRestoration>;
}

/** What a customer's restore brings back of its vehicle records, and what it says of their VINs. */
export interface VehicleRestoration {
  appends: StreamAppend[];
  restored: number;
  vinsNotRestored: RestoredView['vinsNotRestored'];
}

export interface NewCustomerInput {
  name?: string;
  phone?: string;
  email?: string;
  address?: string;
  /** Comma-separated or array. */
  vehicles?: string | string[];
  pastAppointments?: string | string[];
  invoices?: string | string[];
  notes?: string;
}

// ---- numbers ------------------------------------------------------------------------

/** One allocator per event store (per API process; tests run several servers in one process). */
const allocators = new WeakMap<EventStore, NumberAllocator>();

/**
 * The next free per-instance number: handed out by this process's allocator (it reads the
 * read model's highest number once) and taken by a reservation stream appended with
 * `no_stream`, so two creations can never get the same one, in this process or another;
 * a taken number moves on to the next.
 */
async function reserveCustomerNumber(
  deps: AppDeps,
  instanceId: string,
  customerId: string,
  ctx: InstanceContext,
  /** Records the number's reservation with the appends that use it (all or nothing); false when the number was taken. */
  record: (reservation: StreamAppend) => Promise<boolean>,
): Promise<number> {
  let allocator = allocators.get(deps.store);
  if (!allocator) {
    allocator = new NumberAllocator({ highest: (id) => highestCustomerNumber(deps.knex, id) });
    allocators.set(deps.store, allocator);
  }
  try {
    return await allocator.allocate(instanceId, async (number) => {
      const streamId = customerNumberStream(instanceId, number);
      try {
        return await record({
          streamId,
          events: toNewEvents([{ type: 'CustomerNumberReserved', data: { instanceId, number, customerId } }], ctx),
          expectedRevision: 'no_stream',
        });
      } catch (error) {
        if (error instanceof WrongExpectedVersionError && error.streamId === streamId) return false;
        throw error;
      }
    });
  } catch (error) {
    if (error instanceof NumberExhaustedError) throw new AppError('unavailable', 'Could not assign a customer number. Please try again.');
    throw error;
  }
}

// ---- commands -----------------------------------------------------------------------

/**
 * `expectedRevision` (If-Match): the revision the caller saw; a different one is a conflict, not a retry.
 * `alongside`: other streams' appends made from the decision, recorded in the same append.
 */
function runCustomerCommand(
  deps: AppDeps,
  customerId: string,
  command: CustomerCommand,
  ctx: InstanceContext,
  expectedRevision?: number,
  alongside?: (after: CustomerState, before: CustomerState) => Promise<StreamAppend[]>,
) {
  return executeCommand({
    store: deps.store,
    streamId: customerStream(customerId),
    decider: customerDecider,
    command,
    ctx,
    expectedRevision,
    alongside,
  });
}

/**
 * Validates and records a new customer in the context's instance, with the next
 * per-instance number. Does not wait for the projection (see `addCustomer`). The pipeline
 * creates a customer for a job through `alongside`: the job's appends, recorded in the same
 * appendMany as the number and the customer, so either all of them are recorded or none
 * (a job that cannot be recorded leaves no customer behind).
 */
export async function createCustomer(
  deps: AppDeps,
  input: NewCustomerInput,
  ctx: InstanceContext,
  alongside: (customerId: string, fields: CustomerFields) => StreamAppend[] = () => [],
): Promise<{ customerId: string; number: number; appended: AppendResult; alongside: AppendResult[] }> {
  const fields = parseInput(customerInput, input);
  const customerId = randomUUID();
  let appended: AppendResult[] = [];
  const number = await reserveCustomerNumber(deps, ctx.instanceId, customerId, ctx, async (reservation) => {
    const events = customerDecider.decide(
      { type: 'CreateCustomer', customerId, instanceId: ctx.instanceId, number: numberOf(reservation), fields },
      customerDecider.initialState,
    );
    const appends = [
      reservation,
      { streamId: customerStream(customerId), events: toNewEvents(events, ctx), expectedRevision: 'no_stream' as const },
      ...alongside(customerId, fields),
    ];
    try {
      appended = await deps.store.appendMany(appends);
    } catch (error) {
      if (!deps.store.atomicMultiStream) await undoPartialCreate(deps, customerId, appends.length, ctx);
      throw error;
    }
    return true;
  });
  const [, customer, ...others] = appended;
  return { customerId, number, appended: customer!, alongside: others };
}

/**
 * A store without multi-stream transactions (EventStoreDB) may have recorded the customer
 * but not what came with it: the customer is deleted again, so no customer is left behind
 * by a command that failed (its number stays used, like a deleted customer's). A crash right
 * between the two appends is the one case only the PostgreSQL store rules out.
 */
async function undoPartialCreate(deps: AppDeps, customerId: string, streams: number, ctx: InstanceContext): Promise<void> {
  if (streams <= 2) return;
  const created = await deps.store.readStream(customerStream(customerId));
  if (created.length === 0) return;
  await runCustomerCommand(deps, customerId, { type: 'DeleteCustomer', instanceId: ctx.instanceId, vehicleIds: [] }, ctx);
}

/** The number a CustomerNumberReserved append reserves. */
const numberOf = (reservation: StreamAppend): number => (reservation.events[0]!.data as { number: number }).number;

/** Creates the customer, with a vehicle record for each vehicle typed, and answers with its projected record. */
export async function addCustomer(
  deps: AppDeps,
  input: unknown,
  ctx: InstanceContext,
  vehicles: CustomerVehicleRecords,
): Promise<CustomerView> {
  const { customerId, appended, alongside } = await createCustomer(deps, input as NewCustomerInput, ctx, (id, fields) =>
    vehicles.ofNew(ctx, id, fields.vehicles),
  );
  // The vehicles were appended after the customer: the customer's page lists them at once.
  await settle(deps, alongside.at(-1) ?? appended);
  return await projectedCustomer(deps, ctx.instanceId, customerId);
}

/**
 * Changes the fields given (others stay) and answers with the projected record. With
 * `expectedRevision` (If-Match) a save on a stale copy is a 409 that carries the customer
 * as it is now; without it, each field's last save wins.
 */
export async function updateCustomer(
  deps: AppDeps,
  customerId: string,
  input: unknown,
  ctx: InstanceContext,
  vehicles: CustomerVehicleRecords,
  expectedRevision?: number,
): Promise<CustomerView> {
  const changes = parseInput(customerChangesInput, input);
  if (!isUuid(customerId)) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const command: CustomerCommand = { type: 'UpdateCustomer', instanceId: ctx.instanceId, changes };
  // A vehicle added to the customer's Vehicles becomes its record, in the same append as the change.
  const typedVehicles = async (after: CustomerState, before: CustomerState) =>
    after.status === 'active' && before.status === 'active' && after.fields.vehicles !== before.fields.vehicles
      ? await vehicles.ofChange(ctx, customerId, before.fields.vehicles, after.fields.vehicles)
      : [];
  let result;
  try {
    result = await runCustomerCommand(deps, customerId, command, ctx, expectedRevision, typedVehicles);
  } catch (error) {
    // Under If-Match, a customer that has moved on is the caller's conflict: answered with the customer as it is now.
    if (expectedRevision !== undefined && error instanceof ConflictError) {
      const current = foldCustomer(await customerStreamOf(deps.store, ctx.instanceId, customerId));
      if (!current) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
      if (current.revision !== expectedRevision) throw new StaleRecordError('customer', current);
    }
    throw error;
  }
  const lastVehicle = result.alongside?.at(-1);
  if (lastVehicle) await settle(deps, lastVehicle);
  // Where the append wrote the row inline it came back with it: the row the GET reads, mapped the same way.
  const written = result.appended?.written?.customers?.find((row) => row.id === customerId.toLowerCase());
  if (written && written.instance_id === ctx.instanceId) return toCustomerView(written as unknown as CustomerRow, 'full');
  await settle(deps, result.appended);
  return await projectedCustomer(deps, ctx.instanceId, customerId, result.revision);
}

/**
 * Deletes the customer, with its vehicle records in the same append (each VIN freed; the
 * deletion lists them, for its restore). Its jobs are deleted by the pipeline's cascade
 * reactor, each JobDeleted caused by the CustomerDeleted event; the answer waits until the
 * reactor has handled the deletion and the projector has applied what it did, and reports
 * how many jobs the reactor recorded deleting.
 */
export async function deleteCustomer(
  deps: AppDeps,
  customerId: string,
  ctx: InstanceContext,
  vehicles: CustomerVehicleRecords,
): Promise<CustomerDeletedView> {
  if (!isUuid(customerId)) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const vehicleIds = await vehicles.idsOf(ctx, customerId);
  const result = await runCustomerCommand(
    deps,
    customerId,
    { type: 'DeleteCustomer', instanceId: ctx.instanceId, vehicleIds },
    ctx,
    undefined,
    async (after) => (after.status === 'deleted' ? await vehicles.ofDeletion(ctx, after.vehicleIds) : []),
  );
  const deleted = result.events.find((e) => e.type === 'CustomerDeleted')!;
  const cascade = await awaitReaction(deps, CUSTOMER_CASCADE, deleted);
  const lastVehicle = result.alongside?.at(-1)?.position ?? null;
  await settle(deps, { position: latest(latest(deleted.position, lastVehicle), cascade?.lastPosition ?? null)! });
  return { deleted: true, jobsDeleted: cascade?.affected ?? 0 };
}

// ---- reads --------------------------------------------------------------------------

async function projectedCustomer(
  deps: AppDeps,
  instanceId: string,
  customerId: string,
  revision: number | null = null,
): Promise<CustomerView> {
  const projected = await findCustomer(deps.knex, instanceId, customerId);
  if (projected && (revision === null || (projected.revision ?? -1) >= revision)) return projected;
  // The projection trails by more than read-your-writes waits for: answer from the stream.
  const events = await customerStreamOf(deps.store, instanceId, customerId);
  const folded = foldCustomer(events);
  if (!folded) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  return folded;
}

/** The customer's events (up to `asOf`), when it is (or was) a customer of this instance; otherwise none. */
export async function customerStreamOf(
  store: EventStore,
  instanceId: string,
  customerId: string,
  asOf: AsOf | null = null,
): Promise<CustomerStoredEvent[]> {
  return (await readCustomerStream(store, instanceId, customerId, asOf)).events;
}

/** The customer's events that pass their schemas, and the ones that do not (for the history). */
async function readCustomerStream(
  store: EventStore,
  instanceId: string,
  customerId: string,
  asOf: AsOf | null,
): Promise<{ events: CustomerStoredEvent[]; unreadable: RecordedEvent[] }> {
  if (!isUuid(customerId)) return { events: [], unreadable: [] };
  const recorded = await readStreamAsOf(store, customerStream(customerId), asOf);
  const { events, unreadable } = readableEvents(recorded);
  const mine = customerEventsOf(events);
  return instanceOfCustomer(mine) === instanceId ? { events: mine, unreadable } : { events: [], unreadable: [] };
}

export async function getCustomer(deps: AppDeps, instanceId: string, customerId: string): Promise<CustomerView> {
  const customer = await findCustomer(deps.knex, instanceId, customerId);
  if (!customer) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  return customer;
}

/** The customer with what another slice adds to its record (one statement); 404 like getCustomer. */
export async function getCustomerRecord<Fields extends object>(
  deps: AppDeps,
  instanceId: string,
  customerId: string,
  part: CustomerRecordPart<Fields>,
): Promise<CustomerView & Fields> {
  const customer = await findCustomerRecord(deps.knex, instanceId, customerId, part);
  if (!customer) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  return customer;
}

/**
 * The customer as it was at a moment, by the time the event store
 * recorded each change (the time history shows); 404 when it did not exist then.
 */
export async function getCustomerAsOf(deps: AppDeps, instanceId: string, customerId: string, asOf: AsOf): Promise<CustomerView> {
  const customer = foldCustomer(await customerStreamOf(deps.store, instanceId, customerId, asOf));
  if (!customer) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  return customer;
}

/** Every change, newest first; a deleted customer keeps its history. With a reader, each row says whether they may revert it. */
export async function getCustomerHistory(
  deps: AppDeps,
  instanceId: string,
  customerId: string,
  reader: Reverter | null = null,
): Promise<CustomerHistoryEntry[]> {
  const { events, unreadable } = await readCustomerStream(deps.store, instanceId, customerId, null);
  if (events.length === 0) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const read = customerStreamRead(instanceId, events);
  const now = deps.now();
  const revertOf = (eventId: string) => (reader ? customerChangeOffer(read, eventId, reader, now) : { canRevert: false });
  // A change that fails its schema is listed (when, by whom) as one that could not be shown.
  return [...customerHistory(events, revertOf), ...unreadable.map(unshowableEntry)].sort((a, b) => b.revision - a.revision);
}
