import { z } from 'zod';
import { VEHICLE_FIELDS } from './fields.ts';

const vehicleFields = {
  year: z.number().int().nullable(),
  make: z.string(),
  model: z.string(),
  trim: z.string(),
  vin: z.string(),
  plate: z.string(),
  plateState: z.string(),
  color: z.string(),
  notes: z.string(),
};

const fieldValue = z.union([z.string(), z.number(), z.null()]);

/** Every vehicle event names the vehicle in words (its label after the event), so timelines read without a lookup. */
const named = { vehicleId: z.string(), label: z.string() };

/**
 * Vehicles (stream `vehicle-{id}`), each belonging to a customer. Who and when live in the
 * metadata. The one-time migration of free-text vehicles writes `vehiclemigration-{instanceId}`.
 */
export const vehicleEventSchemas = {
  /** `migratedFrom`: the free text the record was made from by the one-time migration (kept word for word). */
  VehicleCreated: z.object({
    vehicleId: z.string(),
    instanceId: z.string(),
    customerId: z.string(),
    ...vehicleFields,
    migratedFrom: z
      .object({ source: z.enum(['customer-vehicles', 'job-vehicle']), text: z.string(), jobId: z.string().nullable() })
      .optional(),
  }),
  /** Only the fields that changed, with old and new values. */
  VehicleUpdated: z.object({
    ...named,
    changes: z.array(z.object({ field: z.enum(VEHICLE_FIELDS), oldValue: fieldValue, newValue: fieldValue })).min(1),
  }),
  /** To another customer: a customer merge (`mergeId`: the CustomerMerged event's id) or its undo. */
  VehicleMoved: z.object({ ...named, fromCustomerId: z.string(), toCustomerId: z.string(), mergeId: z.string() }),
  /**
   * A job read the odometer. `previous`: the vehicle's last reading before it; a lower
   * reading carries the reason it was confirmed with.
   */
  VehicleMileageRecorded: z.object({
    ...named,
    mileage: z.number().int().nonnegative(),
    previous: z.number().int().nonnegative().nullable(),
    jobId: z.string(),
    lowerReason: z.string().optional(),
  }),
  /** `reason` 'customer-deleted': deleted with its customer (in the same append), which brings it back on a restore. */
  VehicleDeleted: z.object({ ...named, customerId: z.string(), reason: z.enum(['customer-deleted']).optional() }),
  /**
   * A vehicle deleted with its customer, back with the customer's restore (same append), as
   * it was deleted; `createdAt`/`createdBy`: its creation, which the restored record keeps.
   * `vinNotRestored`: the VIN it had, when another vehicle of the shop took it meanwhile (it
   * comes back without it, `vin` empty).
   */
  VehicleRestored: z.object({
    vehicleId: z.string(),
    label: z.string(),
    instanceId: z.string(),
    customerId: z.string(),
    ...vehicleFields,
    lastMileage: z.number().int().nonnegative().nullable(),
    createdAt: z.string(),
    createdBy: z.string(),
    vinNotRestored: z.string().optional(),
  }),
  /**
   * A VIN names one car: it is held for one live vehicle of the instance on its own stream
   * (`vin-{instanceId}-{VIN}`), reserved in the same append as the vehicle that takes it and
   * freed in the same append as the change or deletion that gives it up.
   */
  VinReserved: z.object({ instanceId: z.string(), vin: z.string(), vehicleId: z.string() }),
  VinReleased: z.object({ instanceId: z.string(), vin: z.string(), vehicleId: z.string() }),
  /** The one-time migration of an instance's free-text vehicles ran (its stream is appended once, `no_stream`). */
  VehicleLabelsMigrated: z.object({
    instanceId: z.string(),
    vehicles: z.number().int().nonnegative(),
    jobsLinked: z.number().int().nonnegative(),
  }),
};
