import { randomUUID } from 'node:crypto';
import { readableEvents, type StoredDomainEvent } from '@crm/projections/events';
import type { StreamAppend } from '@crm/projections/eventstore/port';
import { isUuid } from '@crm/projections/shared';
import {
  VEHICLE_FIELD_LABELS,
  VEHICLE_MESSAGES,
  vehicleChangesInput,
  vehicleInput,
  vehicleLabel,
  type VehicleHistoryItem,
  type VehicleView,
} from '@crm/projections/vehicles';
import { getCustomer } from '../customers/index.ts';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { parseInput } from '../http/validation.ts';
import { decideAppends, executeCommand, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { vehicleDecider, vehicleStream, type VehicleCommand, type VehicleEvent, type VehicleState } from './vehicle-decider.ts';
import { vinAppends, vinTaken, VinTakenError } from './vehicle-vins.ts';
import { customerVehicles, findVehicle, searchVehicles, toVehicleView, vehicleJobItems, vehicleOrderItems } from './vehicle-queries.ts';

type VehicleStoredEvent = Extract<StoredDomainEvent, { type: VehicleEvent['type'] }>;

/** A vehicle command on its stream, with its VIN's reservation or release beside it (vehicle-vins.ts). */
function vehicleCommand(deps: AppDeps, vehicleId: string, command: VehicleCommand, ctx: InstanceContext) {
  return {
    store: deps.store,
    streamId: vehicleStream(vehicleId),
    decider: vehicleDecider,
    command,
    ctx,
    alongside: vinAppends(deps, ctx),
  };
}

/** A vehicle command, with its VIN's reservation or release in the same append. */
function runVehicleCommand(deps: AppDeps, vehicleId: string, command: VehicleCommand, ctx: InstanceContext, expectedRevision?: number) {
  return executeCommand({
    ...vehicleCommand(deps, vehicleId, command, ctx),
    expectedRevision,
    newStream: command.type === 'CreateVehicle',
  });
}

/** What the vehicle command would append (its VIN's reservation or release included), to be recorded with another command's append. */
export function vehicleCommandAppends(deps: AppDeps, vehicleId: string, command: VehicleCommand, ctx: InstanceContext) {
  return decideAppends(vehicleCommand(deps, vehicleId, command, ctx));
}

/**
 * A vehicle's deletion as its own command decides it (its VIN freed), to be appended with
 * another command's change (`reason` 'customer-deleted': its customer's deletion); none when
 * it is gone already.
 */
export async function vehicleDeletionAppends(
  deps: AppDeps,
  ctx: InstanceContext,
  vehicleId: string,
  reason?: 'customer-deleted',
): Promise<StreamAppend[]> {
  if (!isUuid(vehicleId)) return [];
  try {
    const command: VehicleCommand = { type: 'DeleteVehicle', instanceId: ctx.instanceId, ...(reason ? { reason } : {}) };
    return (await vehicleCommandAppends(deps, vehicleId, command, ctx)).appends;
  } catch (error) {
    if (error instanceof NotFoundError) return [];
    throw error;
  }
}

/** The vehicle's events when it is (or was) a vehicle of this instance; otherwise none. */
export async function vehicleStreamOf(deps: AppDeps, instanceId: string, vehicleId: string): Promise<VehicleStoredEvent[]> {
  if (!isUuid(vehicleId)) return [];
  const recorded = await deps.store.readStream(vehicleStream(vehicleId));
  const events = readableEvents(recorded).events.filter(
    (e): e is VehicleStoredEvent => e.type.startsWith('Vehicle') && e.type !== 'VehicleLabelsMigrated',
  );
  const created = events.find((e) => e.type === 'VehicleCreated');
  return created?.type === 'VehicleCreated' && created.data.instanceId === instanceId ? events : [];
}

/** The vehicle folded from its stream (when the read model trails), customer name left to the read model. */
function foldVehicle(events: VehicleStoredEvent[], customerName: string): VehicleView | null {
  const state = events.reduce<VehicleState>((s, e) => vehicleDecider.evolve(s, e as VehicleEvent), vehicleDecider.initialState);
  const first = events[0];
  const last = events[events.length - 1];
  if (state.status !== 'active' || !first || !last) return null;
  const f = state.fields;
  return toVehicleView({
    id: state.vehicleId,
    customer_id: state.customerId,
    customer_name: customerName,
    year: f.year,
    make: f.make,
    model: f.model,
    trim: f.trim,
    vin: f.vin,
    plate: f.plate,
    plate_state: f.plateState,
    color: f.color,
    notes: f.notes,
    last_mileage: state.lastMileage,
    created_at: first.recordedAt,
    created_by: first.metadata.actor.displayName,
    last_modified_at: last.recordedAt,
    last_modified_by: last.metadata.actor.displayName,
    revision: last.revision,
  });
}

async function projectedVehicle(deps: AppDeps, instanceId: string, vehicleId: string, revision: number | null): Promise<VehicleView> {
  const projected = await findVehicle(deps.knex, instanceId, vehicleId);
  if (projected && (revision === null || (projected.revision ?? -1) >= revision)) return projected;
  const folded = foldVehicle(await vehicleStreamOf(deps, instanceId, vehicleId), projected?.customerName ?? '');
  if (!folded) throw new NotFoundError(VEHICLE_MESSAGES.notFound);
  return folded;
}

/** A new vehicle of the customer (which must be a live customer of the caller's instance). */
export async function addVehicle(deps: AppDeps, customerId: string, input: unknown, ctx: InstanceContext): Promise<VehicleView> {
  const fields = parseInput(vehicleInput, input);
  await getCustomer(deps, ctx.instanceId, customerId);
  const vehicleId = randomUUID();
  const result = await runVehicleCommand(
    deps,
    vehicleId,
    { type: 'CreateVehicle', vehicleId, instanceId: ctx.instanceId, customerId, fields },
    ctx,
  );
  await settle(deps, result.appended);
  return await projectedVehicle(deps, ctx.instanceId, vehicleId, result.revision);
}

/** Changes the fields given; with If-Match, a save over a newer version is a 409 carrying the vehicle as it is now. */
export async function updateVehicle(
  deps: AppDeps,
  vehicleId: string,
  input: unknown,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<VehicleView> {
  const changes = parseInput(vehicleChangesInput, input);
  if (!isUuid(vehicleId)) throw new NotFoundError(VEHICLE_MESSAGES.notFound);
  let result;
  try {
    result = await runVehicleCommand(
      deps,
      vehicleId,
      { type: 'UpdateVehicle', instanceId: ctx.instanceId, changes },
      ctx,
      expectedRevision,
    );
  } catch (error) {
    if (error instanceof VinTakenError) throw error;
    if (expectedRevision !== undefined && error instanceof ConflictError) {
      const current = await findVehicle(deps.knex, ctx.instanceId, vehicleId);
      if (!current) throw new NotFoundError(VEHICLE_MESSAGES.notFound);
      if (current.revision !== expectedRevision) throw new StaleRecordError('vehicle', current);
      // The vehicle is as the form loaded it: what refused the append was the VIN's stream, another vehicle taking it meanwhile.
      if (changes.vin) throw (await vinTaken(deps, ctx.instanceId, changes.vin, vehicleId)) ?? error;
    }
    throw error;
  }
  await settle(deps, result.appended);
  return await projectedVehicle(deps, ctx.instanceId, vehicleId, result.revision);
}

export async function deleteVehicle(deps: AppDeps, vehicleId: string, ctx: InstanceContext): Promise<{ deleted: true }> {
  if (!isUuid(vehicleId)) throw new NotFoundError(VEHICLE_MESSAGES.notFound);
  const result = await runVehicleCommand(deps, vehicleId, { type: 'DeleteVehicle', instanceId: ctx.instanceId }, ctx);
  await settle(deps, result.appended);
  return { deleted: true };
}

export async function getVehicle(deps: AppDeps, instanceId: string, vehicleId: string): Promise<VehicleView> {
  const vehicle = await findVehicle(deps.knex, instanceId, vehicleId);
  if (!vehicle) throw new NotFoundError(VEHICLE_MESSAGES.notFound);
  return vehicle;
}

export async function listCustomerVehicles(deps: AppDeps, instanceId: string, customerId: string): Promise<{ items: VehicleView[] }> {
  await getCustomer(deps, instanceId, customerId);
  return { items: await customerVehicles(deps.knex, instanceId, customerId) };
}

export async function findVehicles(deps: AppDeps, instanceId: string, q: string): Promise<{ items: VehicleView[] }> {
  return { items: await searchVehicles(deps.knex, instanceId, q) };
}

/** The vehicle's own changes in words: what was added, changed, moved, read, deleted and restored (jobs carry their readings themselves). */
function vehicleItems(events: VehicleStoredEvent[]): VehicleHistoryItem[] {
  const base = (e: VehicleStoredEvent) => ({
    kind: 'vehicle' as const,
    id: e.id,
    at: e.recordedAt.toISOString(),
    jobNumber: null,
    stage: null,
    quote: null,
    mileageIn: null,
    mileageOut: null,
    by: e.metadata.actor.displayName,
    appointment: null,
    upcoming: false,
  });
  const items: VehicleHistoryItem[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'VehicleCreated': {
        const from = e.data.migratedFrom ? ` (from the old text “${e.data.migratedFrom.text}”)` : '';
        items.push({
          ...base(e),
          title: 'Vehicle added',
          detail: `${vehicleLabel(e.data)}${from}${e.data.notes ? ` — ${e.data.notes}` : ''}`,
        });
        break;
      }
      case 'VehicleUpdated':
        items.push({
          ...base(e),
          title: e.data.changes.some((c) => c.field === 'notes') ? 'Note' : 'Vehicle changed',
          detail: e.data.changes
            .map((c) =>
              c.field === 'notes'
                ? String(c.newValue ?? '')
                : `${VEHICLE_FIELD_LABELS[c.field]}: ${c.oldValue ?? '—'} → ${c.newValue ?? '—'}`,
            )
            .join('; '),
        });
        break;
      case 'VehicleMoved':
        items.push({ ...base(e), title: 'Moved to another customer', detail: 'Customer merge' });
        break;
      case 'VehicleMileageRecorded':
        if (e.data.lowerReason)
          items.push({
            ...base(e),
            title: 'Lower mileage confirmed',
            detail: `${e.data.mileage} (was ${e.data.previous ?? '—'}): ${e.data.lowerReason}`,
            mileageIn: e.data.mileage,
          });
        break;
      // Shown once the vehicle is back: a deleted vehicle has no page.
      case 'VehicleDeleted':
        items.push({
          ...base(e),
          title: 'Vehicle deleted',
          detail: e.data.reason === 'customer-deleted' ? 'With its customer' : '',
        });
        break;
      case 'VehicleRestored':
        items.push({
          ...base(e),
          title: 'Vehicle restored',
          detail: e.data.vinNotRestored
            ? `With its customer, without its VIN ${e.data.vinNotRestored}: another vehicle had taken it`
            : 'With its customer',
        });
        break;
      default: {
        const unknown: never = e;
        return unknown;
      }
    }
  }
  return items;
}

/** Every job on the vehicle and every change of it (notes among them), newest first. */
export async function vehicleHistory(deps: AppDeps, instanceId: string, vehicleId: string): Promise<{ items: VehicleHistoryItem[] }> {
  const events = await vehicleStreamOf(deps, instanceId, vehicleId);
  const state = events.reduce<VehicleState>((s, e) => vehicleDecider.evolve(s, e as VehicleEvent), vehicleDecider.initialState);
  if (state.status !== 'active') throw new NotFoundError(VEHICLE_MESSAGES.notFound);
  const [jobs, orders] = await Promise.all([
    vehicleJobItems(deps.knex, instanceId, vehicleId, deps.now()),
    vehicleOrderItems(deps.knex, instanceId, vehicleId),
  ]);
  const items = [...vehicleItems(events), ...jobs, ...orders];
  items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return { items };
}

export { runVehicleCommand };
