import { assertNever } from '../shared/never.ts';
import type { StoredDomainEvent } from '../events.ts';
import { writeRecordset, defineProjection } from '../runtime/projection.ts';
import { vehicleLabel, type VehicleField, type VehicleFields } from './fields.ts';

/** Read-model columns of the vehicle fields. */
export const VEHICLE_COLUMNS: Record<VehicleField, string> = {
  year: 'year',
  make: 'make',
  model: 'model',
  trim: 'trim',
  vin: 'vin',
  plate: 'plate',
  plateState: 'plate_state',
  color: 'color',
  notes: 'notes',
};

const CREATED_COLUMNS: Record<string, string> = {
  id: 'uuid',
  instance_id: 'uuid',
  customer_id: 'uuid',
  year: 'integer',
  make: 'text',
  model: 'text',
  trim: 'text',
  vin: 'text',
  plate: 'text',
  plate_state: 'text',
  color: 'text',
  notes: 'text',
  created_at: 'timestamptz',
  created_by: 'text',
  last_modified_at: 'timestamptz',
  last_modified_by: 'text',
  revision: 'integer',
};

/** A restored row's columns: a creation's and the last reading it was deleted with. */
export const RESTORED_COLUMNS: Record<string, string> = { ...CREATED_COLUMNS, last_mileage: 'integer' };

/** The row's identity and fields, as a VehicleCreated or VehicleRestored carries them. */
export function vehicleRow(d: { vehicleId: string; instanceId: string; customerId: string } & VehicleFields) {
  return {
    id: d.vehicleId,
    instance_id: d.instanceId,
    customer_id: d.customerId,
    year: d.year,
    make: d.make,
    model: d.model,
    trim: d.trim,
    vin: d.vin,
    plate: d.plate,
    plate_state: d.plateState,
    color: d.color,
    notes: d.notes,
  };
}

export const LABEL_COLUMNS: Record<string, string> = { instance_id: 'uuid', customer_id: 'uuid', vehicle_id: 'uuid', label: 'text' };

/**
 * rm.vehicles: one row per live vehicle. Updates apply only over an older revision, so a
 * replayed event never moves a row backwards; a deleted vehicle leaves the table (its
 * stream keeps its history), and one restored with its customer comes back to it. rm.customer_vehicle_labels: the label each record was made with
 * (and the text it was migrated from), kept after a rename or deletion, so the customer list
 * reads a typed vehicle that became a record through the record.
 */
export const vehiclesProjection = defineProjection({
  name: 'vehicles',
  // The record's own rows: written with its events (runtime/inline.ts); nothing here reads
  // what it wrote, so every write goes with the append's COMMIT (ctx.write).
  inline: true,
  eventTypes: ['VehicleCreated', 'VehicleUpdated', 'VehicleMoved', 'VehicleMileageRecorded', 'VehicleDeleted', 'VehicleRestored'],
  async apply(event, ctx) {
    const { table } = ctx;
    const stamp = (e: StoredDomainEvent) => ({
      last_modified_at: e.recordedAt,
      last_modified_by: e.metadata.actor.displayName,
      revision: e.revision,
    });
    const newer = (vehicleId: string) => table('vehicles').where('id', vehicleId).andWhere('revision', '<', event.revision);
    switch (event.type) {
      case 'VehicleCreated': {
        const d = event.data;
        const row = {
          ...vehicleRow(d),
          created_at: event.recordedAt,
          created_by: event.metadata.actor.displayName,
          last_modified_at: event.recordedAt,
          last_modified_by: event.metadata.actor.displayName,
          revision: event.revision,
        };
        await writeRecordset(ctx, 'vehicles', CREATED_COLUMNS, [row], 'ON CONFLICT (id) DO NOTHING');
        const labels = new Set([vehicleLabel(d), ...(d.migratedFrom ? [d.migratedFrom.text] : [])]);
        await writeRecordset(
          ctx,
          'customer_vehicle_labels',
          LABEL_COLUMNS,
          [...labels].map((label) => ({ instance_id: d.instanceId, customer_id: d.customerId, vehicle_id: d.vehicleId, label })),
          'ON CONFLICT DO NOTHING',
        );
        return;
      }
      case 'VehicleUpdated': {
        const columns: Record<string, string | number | null> = {};
        for (const change of event.data.changes) columns[VEHICLE_COLUMNS[change.field]] = change.newValue;
        await ctx.write(newer(event.data.vehicleId).update({ ...columns, ...stamp(event) }));
        return;
      }
      case 'VehicleMoved':
        await ctx.write(newer(event.data.vehicleId).update({ customer_id: event.data.toCustomerId, ...stamp(event) }));
        return;
      case 'VehicleMileageRecorded':
        // The latest reading is the one the next must not go below (a confirmed lower one, after an odometer swap, included).
        await ctx.write(newer(event.data.vehicleId).update({ last_mileage: event.data.mileage, ...stamp(event) }));
        return;
      case 'VehicleDeleted':
        await ctx.write(table('vehicles').where('id', event.data.vehicleId).delete());
        return;
      case 'VehicleRestored': {
        // Back as it was deleted, with its creation's time and author; a replay finds it there already.
        const d = event.data;
        const row = {
          ...vehicleRow(d),
          last_mileage: d.lastMileage,
          created_at: new Date(d.createdAt),
          created_by: d.createdBy,
          ...stamp(event),
        };
        await writeRecordset(ctx, 'vehicles', RESTORED_COLUMNS, [row], 'ON CONFLICT (id) DO NOTHING');
        return;
      }
      default:
        return assertNever(event, 'event');
    }
  },
});
