import type { StoredDomainEvent } from '../events.ts';
import { changedFieldWords, type ActivityDescription } from '../shared/timeline.ts';
import { VEHICLE_FIELDS, vehicleLabel } from './fields.ts';

type VehicleTimelineEvent = Extract<
  StoredDomainEvent,
  { type: 'VehicleCreated' | 'VehicleUpdated' | 'VehicleMoved' | 'VehicleMileageRecorded' | 'VehicleDeleted' | 'VehicleRestored' }
>;

/** How the instance timeline (audit log, Recent Activity) words vehicles' events. */
export function describeVehicleEvent(event: VehicleTimelineEvent): ActivityDescription {
  const entity = { entityType: 'vehicle', entityId: event.data.vehicleId };
  switch (event.type) {
    case 'VehicleCreated': {
      const d = event.data;
      const changes = VEHICLE_FIELDS.filter((field) => d[field] !== null && d[field] !== '').map((field) => ({
        field,
        oldValue: null,
        newValue: d[field],
      }));
      const from = d.migratedFrom ? ` from the old text "${d.migratedFrom.text}"` : '';
      return { ...entity, summary: `Added vehicle ${vehicleLabel(d)}${from}`, changes };
    }
    case 'VehicleUpdated':
      return {
        ...entity,
        summary: `Updated vehicle ${event.data.label}: ${changedFieldWords(event.data.changes)}`,
        changes: event.data.changes.map(({ field, oldValue, newValue }) => ({ field, oldValue, newValue })),
      };
    case 'VehicleMoved':
      return {
        ...entity,
        summary: `Moved vehicle ${event.data.label} to another customer`,
        changes: [{ field: 'customerId', oldValue: event.data.fromCustomerId, newValue: event.data.toCustomerId }],
      };
    case 'VehicleMileageRecorded':
      return {
        ...entity,
        summary: `Recorded mileage ${event.data.mileage} on vehicle ${event.data.label}${event.data.lowerReason ? ` (lower than before: ${event.data.lowerReason})` : ''}`,
        changes: [{ field: 'mileage', oldValue: event.data.previous, newValue: event.data.mileage }],
      };
    case 'VehicleDeleted': {
      const withCustomer = event.data.reason === 'customer-deleted' ? ' with its customer' : '';
      return { ...entity, summary: `Deleted vehicle ${event.data.label}${withCustomer}`, changes: [] };
    }
    case 'VehicleRestored': {
      const lost = event.data.vinNotRestored;
      return {
        ...entity,
        summary: `Restored vehicle ${event.data.label} with its customer${lost ? `, without its VIN ${lost} (another vehicle has it now)` : ''}`,
        changes: lost ? [{ field: 'vin', oldValue: lost, newValue: '' }] : [],
      };
    }
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
