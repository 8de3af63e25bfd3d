import {
  checkVin,
  EMPTY_VEHICLE_FIELDS,
  isBlankVehicle,
  parseVehicleLabel,
  VEHICLE_MESSAGES,
  vehicleLabel,
} from '@crm/projections/vehicles';
import type { EventStore, StreamAppend } from '@crm/projections/eventstore/port';
import { isUuid } from '@crm/projections/shared';
import { loadAggregate, toNewEvents, type InstanceContext } from '../shared/commands.ts';
import { ValidationError } from '../shared/errors.ts';
import { vehicleDecider, vehicleStream, type VehicleCommand, type VehicleEvent } from './vehicle-decider.ts';

/** What a job takes of the vehicle it is on. */
export interface JobVehicle {
  vehicleId: string;
  customerId: string;
  label: string;
  vin: string;
}

const noSuchVehicle = () =>
  new ValidationError(`vehicleId: ${VEHICLE_MESSAGES.notFound}`, { errors: [{ field: 'vehicleId', message: VEHICLE_MESSAGES.notFound }] });

/** A live vehicle of this instance, from its own stream (never stale); a 400 naming vehicleId otherwise. */
export async function vehicleForJob(store: EventStore, instanceId: string, vehicleId: string): Promise<JobVehicle> {
  if (!isUuid(vehicleId)) throw noSuchVehicle();
  const { state } = await loadAggregate(store, vehicleStream(vehicleId), vehicleDecider);
  if (state.status !== 'active' || state.instanceId !== instanceId) throw noSuchVehicle();
  return { vehicleId, customerId: state.customerId, label: vehicleLabel(state.fields), vin: state.fields.vin };
}

/**
 * The odometer readings a job took, recorded on its vehicle's stream (to be appended with
 * the job's own events): each must not be lower than the vehicle's last reading unless
 * `lowerReason` confirms it (a 400 asking for one otherwise).
 */
export async function jobMileageAppends(
  store: EventStore,
  ctx: InstanceContext,
  options: { vehicleId: string; jobId: string; readings: number[]; lowerReason?: string },
): Promise<StreamAppend[]> {
  if (options.readings.length === 0) return [];
  const loaded = await loadAggregate(store, vehicleStream(options.vehicleId), vehicleDecider);
  let state = loaded.state;
  const events: VehicleEvent[] = [];
  for (const mileage of options.readings) {
    const decided = vehicleDecider.decide(
      { type: 'RecordMileage', instanceId: ctx.instanceId, mileage, jobId: options.jobId, lowerReason: options.lowerReason },
      state,
    );
    for (const event of decided) state = vehicleDecider.evolve(state, event);
    events.push(...decided);
  }
  if (events.length === 0) return [];
  return [
    {
      streamId: vehicleStream(options.vehicleId),
      events: toNewEvents(events, ctx),
      expectedRevision: loaded.revision ?? 'no_stream',
    },
  ];
}

/** The VIN a new customer's vehicle record takes from the job's VIN text: '' when it does not check out (it stays on the job's text only). */
export function newCustomerVehicleVin(text: string): string {
  const vin = text.trim() ? checkVin(text) : null;
  return vin?.ok ? vin.vin : '';
}

/**
 * The vehicle a new customer's first job names (its Vehicle text and VIN, typed in the job
 * dialog), as a record of that customer with the job's odometer readings: one append on a new
 * vehicle stream, made with the customer and the job, so the job is on a vehicle from the start
 * and the customer's page lists it. A VIN that does not check out is left on the job's text
 * only; a job naming neither gets none (null). Its VIN's reservation (vinReservation) goes in
 * the same append.
 */
export function newCustomerVehicleAppend(
  ctx: InstanceContext,
  options: { vehicleId: string; customerId: string; text: string; vin: string; jobId: string; readings: number[] },
): StreamAppend | null {
  const fields = { ...EMPTY_VEHICLE_FIELDS, ...parseVehicleLabel(options.text), vin: newCustomerVehicleVin(options.vin) };
  if (isBlankVehicle(fields)) return null;
  let state = vehicleDecider.initialState;
  const events: VehicleEvent[] = [];
  const commands: VehicleCommand[] = [
    { type: 'CreateVehicle', vehicleId: options.vehicleId, instanceId: ctx.instanceId, customerId: options.customerId, fields },
    ...options.readings.map((mileage) => ({ type: 'RecordMileage' as const, instanceId: ctx.instanceId, mileage, jobId: options.jobId })),
  ];
  for (const command of commands) {
    const decided = vehicleDecider.decide(command, state);
    for (const event of decided) state = vehicleDecider.evolve(state, event);
    events.push(...decided);
  }
  return { streamId: vehicleStream(options.vehicleId), events: toNewEvents(events, ctx), expectedRevision: 'no_stream' };
}
