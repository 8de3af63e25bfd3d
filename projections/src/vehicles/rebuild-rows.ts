import type { StoredDomainEvent } from '../events.ts';
import { tableRows } from '../runtime/bulk-rows.ts';
import type { BulkRebuilder, StoredEventOf } from '../runtime/projection.ts';
import { assertNever } from '../shared/never.ts';
import { vehicleLabel } from './fields.ts';
import { LABEL_COLUMNS, RESTORED_COLUMNS, VEHICLE_COLUMNS, vehicleRow } from './projection.ts';

type VehicleEvent = StoredEventOf<
  'VehicleCreated' | 'VehicleUpdated' | 'VehicleMoved' | 'VehicleMileageRecorded' | 'VehicleDeleted' | 'VehicleRestored'
>;

type Row = Record<string, unknown> & { revision: number };

/**
 * The vehicles projection in a rebuild: its rows folded over the whole log in memory by the
 * live projection's rules (a creation or restore only for a vehicle without a row, an update,
 * move or mileage only over an older revision, a deletion removing the row), written once at
 * the end. `customer_vehicle_labels` rows never change once made: each page's go out with it,
 * each (customer, vehicle, label) once, as the live insert's ON CONFLICT DO NOTHING keeps it.
 */
export function vehiclesBulk(): BulkRebuilder {
  const rows = new Map<string, Row>();
  const labelKeys = new Set<string>();
  const touch = (id: string, event: StoredDomainEvent, columns: Record<string, unknown>) => {
    const row = rows.get(id);
    if (!row || row.revision >= event.revision) return;
    Object.assign(row, columns, {
      last_modified_at: event.recordedAt,
      last_modified_by: event.metadata.actor.displayName,
      revision: event.revision,
    });
  };
  return {
    page(events) {
      const labels: Array<Record<string, unknown>> = [];
      for (const event of events as VehicleEvent[]) {
        switch (event.type) {
          case 'VehicleCreated': {
            const d = event.data;
            if (!rows.has(d.vehicleId))
              rows.set(d.vehicleId, {
                ...vehicleRow(d),
                last_mileage: null,
                created_at: event.recordedAt,
                created_by: event.metadata.actor.displayName,
                last_modified_at: event.recordedAt,
                last_modified_by: event.metadata.actor.displayName,
                revision: event.revision,
              });
            for (const label of new Set([vehicleLabel(d), ...(d.migratedFrom ? [d.migratedFrom.text] : [])])) {
              const key = `${d.customerId}\u0000${d.vehicleId}\u0000${label}`;
              if (labelKeys.has(key)) continue;
              labelKeys.add(key);
              labels.push({ instance_id: d.instanceId, customer_id: d.customerId, vehicle_id: d.vehicleId, label });
            }
            break;
          }
          case 'VehicleUpdated':
            touch(
              event.data.vehicleId,
              event,
              Object.fromEntries(event.data.changes.map((change) => [VEHICLE_COLUMNS[change.field], change.newValue])),
            );
            break;
          case 'VehicleMoved':
            touch(event.data.vehicleId, event, { customer_id: event.data.toCustomerId });
            break;
          case 'VehicleMileageRecorded':
            touch(event.data.vehicleId, event, { last_mileage: event.data.mileage });
            break;
          case 'VehicleDeleted':
            rows.delete(event.data.vehicleId);
            break;
          case 'VehicleRestored': {
            const d = event.data;
            if (!rows.has(d.vehicleId))
              rows.set(d.vehicleId, {
                ...vehicleRow(d),
                last_mileage: d.lastMileage,
                created_at: new Date(d.createdAt),
                created_by: d.createdBy,
                last_modified_at: event.recordedAt,
                last_modified_by: event.metadata.actor.displayName,
                revision: event.revision,
              });
            break;
          }
          default:
            assertNever(event, 'event');
        }
      }
      return [tableRows('customer_vehicle_labels', LABEL_COLUMNS, labels)];
    },
    finish() {
      const result = [tableRows('vehicles', RESTORED_COLUMNS, [...rows.values()])];
      rows.clear();
      labelKeys.clear();
      return result;
    },
  };
}
