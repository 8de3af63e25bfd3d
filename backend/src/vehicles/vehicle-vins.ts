import type { DomainEvent } from '@crm/projections/events';
import { WrongExpectedVersionError, type EventStore, type StreamAppend } from '@crm/projections/eventstore/port';
import { VEHICLE_MESSAGES } from '@crm/projections/vehicles';
import type { Knex } from 'knex';
import { withTenant } from '../infra/tenant-db.ts';
import { toNewEvents, type InstanceContext } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';
import { holderOf } from '../shared/reservation-decider.ts';
import { findVehicle } from './vehicle-queries.ts';
import type { VehicleState } from './vehicle-decider.ts';

/**
 * A VIN names one car, so one live vehicle of an instance carries it. It is held on its own
 * stream, reserved in the same append as the vehicle that takes it (`no_stream`, or after the
 * stream's last event), so of two requests racing for one VIN, in whichever API process, one
 * append fails. Vehicles saved before VINs were reserved hold none: their rows (written
 * inline with their events) are asked as well. A deleted vehicle's VIN is free again.
 */
export const vinStream = (instanceId: string, vin: string) => `vin-${instanceId}-${vin}`;

/** The vehicle that has the VIN already, as the 409 names it (and the form links to it). */
export interface VinHolder {
  id: string;
  label: string;
  customerId: string;
  customerName: string;
}

export class VinTakenError extends ConflictError {
  constructor(
    readonly vin: string,
    readonly holder: VinHolder,
  ) {
    const message = VEHICLE_MESSAGES.vinTaken(vin, holder.label, holder.customerName);
    super(message, { errors: [{ field: 'vin', message }], vehicle: holder });
  }
}

/** Another live vehicle of the instance with this VIN: the one holding its reservation, else (saved before reservations) a row carrying it. */
async function otherHolder(
  deps: { store: EventStore; knex: Knex },
  instanceId: string,
  vin: string,
  vehicleId: string,
  reservationHolder: Record<string, unknown> | null,
): Promise<VinHolder | null> {
  const reservedFor = typeof reservationHolder?.vehicleId === 'string' ? reservationHolder.vehicleId : null;
  if (reservedFor && reservedFor !== vehicleId) {
    const vehicle = await findVehicle(deps.knex, instanceId, reservedFor);
    if (vehicle) return { id: vehicle.id, label: vehicle.label, customerId: vehicle.customerId, customerName: vehicle.customerName };
  }
  const row = (await withTenant(deps.knex, instanceId, (db) =>
    db
      .from('rm.vehicles')
      .where({ instance_id: instanceId, vin })
      .whereNot('id', vehicleId)
      .orderBy([
        { column: 'created_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])
      .first('id'),
  )) as { id: string } | undefined;
  if (!row) return null;
  const vehicle = await findVehicle(deps.knex, instanceId, row.id);
  return vehicle ? { id: vehicle.id, label: vehicle.label, customerId: vehicle.customerId, customerName: vehicle.customerName } : null;
}

/**
 * The VIN's reservation for the vehicle, to be appended with the vehicle's own events; a 409
 * (VinTakenError) when another live vehicle has it. A reservation left by a vehicle deleted
 * since (a store that appends streams one by one) is taken over after its last event.
 */
export async function vinReservation(
  deps: { store: EventStore; knex: Knex },
  ctx: InstanceContext,
  vin: string,
  vehicleId: string,
): Promise<StreamAppend | null> {
  const streamId = vinStream(ctx.instanceId, vin);
  const events = await deps.store.readStream(streamId);
  const holder = holderOf(events);
  if (holder?.vehicleId === vehicleId) return null;
  const taken = await otherHolder(deps, ctx.instanceId, vin, vehicleId, holder);
  if (taken) throw new VinTakenError(vin, taken);
  const last = events[events.length - 1];
  const reserved: DomainEvent = { type: 'VinReserved', data: { instanceId: ctx.instanceId, vin, vehicleId } };
  return { streamId, events: toNewEvents([reserved], ctx), expectedRevision: last ? last.revision : 'no_stream' };
}

/** The release of the VIN, when this vehicle holds it, to be appended with the change that gives it up. */
export async function vinRelease(store: EventStore, ctx: InstanceContext, vin: string, vehicleId: string): Promise<StreamAppend | null> {
  const streamId = vinStream(ctx.instanceId, vin);
  const events = await store.readStream(streamId);
  const last = events[events.length - 1];
  if (!last || holderOf(events)?.vehicleId !== vehicleId) return null;
  const released: DomainEvent = { type: 'VinReleased', data: { instanceId: ctx.instanceId, vin, vehicleId } };
  return { streamId, events: toNewEvents([released], ctx), expectedRevision: last.revision };
}

/**
 * What a vehicle command appends beside its own events for the VIN: the new one reserved and
 * the old one freed when it changes, the old one freed when the vehicle is deleted.
 */
export function vinAppends(deps: { store: EventStore; knex: Knex }, ctx: InstanceContext) {
  return async (after: VehicleState, before: VehicleState): Promise<StreamAppend[]> => {
    if (after.status === 'empty') return [];
    const oldVin = before.status === 'active' ? before.fields.vin : '';
    const newVin = after.status === 'active' ? after.fields.vin : '';
    if (oldVin === newVin) return [];
    const appends: StreamAppend[] = [];
    if (newVin) {
      const reservation = await vinReservation(deps, ctx, newVin, after.vehicleId);
      if (reservation) appends.push(reservation);
    }
    if (oldVin) {
      const release = await vinRelease(deps.store, ctx, oldVin, after.vehicleId);
      if (release) appends.push(release);
    }
    return appends;
  };
}

/** A racing request took the VIN between the check and the append (its stream refused the append): the same 409, naming who has it now. */
export async function vinRefusal(
  deps: { store: EventStore; knex: Knex },
  instanceId: string,
  error: unknown,
  vin: string,
  vehicleId: string,
): Promise<VinTakenError | null> {
  if (!(error instanceof WrongExpectedVersionError) || !vin || error.streamId !== vinStream(instanceId, vin)) return null;
  return await vinTaken(deps, instanceId, vin, vehicleId);
}

/** The 409 for the VIN when another live vehicle has it now; null when it is free. */
export async function vinTaken(
  deps: { store: EventStore; knex: Knex },
  instanceId: string,
  vin: string,
  vehicleId: string,
): Promise<VinTakenError | null> {
  const holder = await otherHolder(deps, instanceId, vin, vehicleId, holderOf(await deps.store.readStream(vinStream(instanceId, vin))));
  return holder ? new VinTakenError(vin, holder) : null;
}
