import { CUSTOMER_MESSAGES } from '@crm/projections/customers';
import type { JobFields } from '@crm/projections/pipeline';
import { VEHICLE_MESSAGES } from '@crm/projections/vehicles';
import type { EventStore, StreamAppend } from '@crm/projections/eventstore/port';
import { customerStanding } from '../customers/index.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { jobMileageAppends, vehicleForJob } from '../vehicles/index.ts';
import type { JobState } from './job-decider.ts';
import type { JobTarget } from './job-queries.ts';

/** What a job's command checks on, and records with, the customer and the vehicle it names. */

/** A customer of this instance that is not deleted, from its own stream (never stale). */
export async function assertCustomerOf(store: EventStore, instanceId: string, customerId: string): Promise<void> {
  const customer = await customerStanding(store, customerId);
  if (!customer || customer.status === 'deleted' || customer.instanceId !== instanceId) {
    throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  }
}

/** What a job on a vehicle says the vehicle is (its customer; its name and VIN where the job has none). */
export async function onVehicle(
  store: EventStore,
  instanceId: string,
  vehicleId: string,
  job: Pick<JobFields, 'customerId' | 'makeModel' | 'vin'>,
): Promise<Pick<JobFields, 'customerId' | 'makeModel' | 'vin'>> {
  const vehicle = await vehicleForJob(store, instanceId, vehicleId);
  if (job.customerId && job.customerId !== vehicle.customerId) {
    const message = "This vehicle belongs to another customer: choose one of this customer's vehicles";
    throw new ValidationError(message, { errors: [{ field: 'vehicleId', message }] });
  }
  return { customerId: vehicle.customerId, makeModel: job.makeModel || vehicle.label, vin: job.vin || vehicle.vin };
}

export function checkMileageOrder(fields: Pick<JobFields, 'mileageIn' | 'mileageOut'>): void {
  if (fields.mileageIn !== null && fields.mileageOut !== null && fields.mileageOut < fields.mileageIn) {
    throw new ValidationError(VEHICLE_MESSAGES.mileageOutBelowIn, {
      errors: [{ field: 'mileageOut', message: VEHICLE_MESSAGES.mileageOutBelowIn }],
    });
  }
}

/** The readings a job's change took (new or changed values, or all of them when the job moved to another vehicle), in order. */
export function newReadings(after: JobFields, before: JobFields | null): number[] {
  const moved = !before || before.vehicleId !== after.vehicleId;
  const readings: number[] = [];
  if (after.mileageIn !== null && (moved || after.mileageIn !== before.mileageIn)) readings.push(after.mileageIn);
  if (after.mileageOut !== null && (moved || after.mileageOut !== before.mileageOut)) readings.push(after.mileageOut);
  return readings;
}

/** For a save that takes odometer readings on a vehicle: their records on the vehicle's stream, as appends of the same command. */
export function mileageOfChange(store: EventStore, target: JobTarget, ctx: InstanceContext, lowerReason: string | undefined) {
  return async (after: JobState, before: JobState): Promise<StreamAppend[]> => {
    if ((after.status !== 'open' && after.status !== 'canceled') || !after.fields.vehicleId) return [];
    const previous = before.status === 'open' || before.status === 'canceled' ? before.fields : null;
    const readings = newReadings(after.fields, previous);
    return await jobMileageAppends(store, ctx, { vehicleId: after.fields.vehicleId, jobId: target.jobId, readings, lowerReason });
  };
}
