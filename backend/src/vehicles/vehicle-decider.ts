import type { DomainEventOf } from '@crm/projections/events';
import {
  isBlankVehicle,
  VEHICLE_FIELDS,
  VEHICLE_MESSAGES,
  vehicleLabel,
  type VehicleChanges,
  type VehicleFields,
} from '@crm/projections/vehicles';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';

export const vehicleStream = (vehicleId: string) => `vehicle-${vehicleId}`;
/** Appended once per instance (`no_stream`) by the migration of free-text vehicles. */
export const vehicleMigrationStream = (instanceId: string) => `vehiclemigration-${instanceId}`;

export type VehicleEvent = DomainEventOf<
  'VehicleCreated' | 'VehicleUpdated' | 'VehicleMoved' | 'VehicleMileageRecorded' | 'VehicleDeleted' | 'VehicleRestored'
>;

export type VehicleState =
  | { status: 'empty' }
  | {
      status: 'active' | 'deleted';
      vehicleId: string;
      instanceId: string;
      customerId: string;
      fields: VehicleFields;
      /** The latest odometer reading (null before any). */
      lastMileage: number | null;
      /** Deleted with its customer (what the customer's restore brings back), not on its own. */
      deletedWithCustomer?: boolean;
    };

/** Every command after creation names the instance it is given in: another instance's vehicle is not found. */
export type VehicleCommand =
  | {
      type: 'CreateVehicle';
      vehicleId: string;
      instanceId: string;
      customerId: string;
      fields: VehicleFields;
      migratedFrom?: { source: 'customer-vehicles' | 'job-vehicle'; text: string; jobId: string | null };
    }
  | { type: 'UpdateVehicle'; instanceId: string; changes: VehicleChanges }
  /** To another customer of the instance: a merge (`mergeId`) or its undo. */
  | { type: 'MoveVehicle'; instanceId: string; toCustomerId: string; mergeId: string }
  /** A job's odometer reading; one lower than the last needs `lowerReason`. */
  | { type: 'RecordMileage'; instanceId: string; mileage: number; jobId: string; lowerReason?: string }
  /** `reason` 'customer-deleted': with its customer, in the customer's deletion. */
  | { type: 'DeleteVehicle'; instanceId: string; reason?: 'customer-deleted' }
  /**
   * Back with its customer's restore: only a vehicle that customer's deletion deleted (one
   * deleted on its own stays deleted, one back already stays as it is). `withoutVin`: its VIN
   * is another vehicle's now, so it comes back without it. `createdAt`/`createdBy`: its creation.
   */
  | { type: 'RestoreVehicle'; instanceId: string; customerId: string; createdAt: string; createdBy: string; withoutVin?: boolean };

export class MileageLowerError extends ValidationError {
  constructor(mileage: number, last: number) {
    const message = VEHICLE_MESSAGES.mileageLower(mileage, last);
    super(message, { errors: [{ field: 'mileageIn', message }], lastMileage: last, needsReason: true });
  }
}

function existing(state: VehicleState, instanceId: string): Extract<VehicleState, { status: 'active' | 'deleted' }> {
  if (state.status !== 'active' || state.instanceId !== instanceId) throw new NotFoundError(VEHICLE_MESSAGES.notFound);
  return state;
}

function atLeastOne(): ValidationError {
  return new ValidationError(VEHICLE_MESSAGES.atLeastOne, { errors: [{ field: 'make', message: VEHICLE_MESSAGES.atLeastOne }] });
}

export const vehicleDecider: Decider<VehicleState, VehicleCommand, VehicleEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    switch (event.type) {
      case 'VehicleCreated': {
        const { vehicleId, instanceId, customerId, migratedFrom: _migratedFrom, ...fields } = event.data;
        return { status: 'active', vehicleId, instanceId, customerId, fields, lastMileage: null };
      }
      case 'VehicleUpdated': {
        if (state.status === 'empty') return state;
        const fields: Record<string, unknown> = { ...state.fields };
        for (const change of event.data.changes) fields[change.field] = change.newValue;
        return { ...state, fields: fields as unknown as VehicleFields };
      }
      case 'VehicleMoved':
        return state.status === 'empty' ? state : { ...state, customerId: event.data.toCustomerId };
      case 'VehicleMileageRecorded':
        return state.status === 'empty' ? state : { ...state, lastMileage: event.data.mileage };
      case 'VehicleDeleted':
        return state.status === 'empty'
          ? state
          : { ...state, status: 'deleted', deletedWithCustomer: event.data.reason === 'customer-deleted' };
      case 'VehicleRestored': {
        if (state.status !== 'deleted') return state;
        const {
          vehicleId,
          instanceId,
          customerId,
          lastMileage,
          label: _label,
          createdAt: _at,
          createdBy: _by,
          vinNotRestored: _vin,
          ...fields
        } = event.data;
        return { status: 'active', vehicleId, instanceId, customerId, fields, lastMileage };
      }
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateVehicle': {
        if (state.status !== 'empty') throw new ConflictError('This vehicle already exists');
        if (isBlankVehicle(command.fields)) throw atLeastOne();
        const { vehicleId, instanceId, customerId, fields, migratedFrom } = command;
        return [
          { type: 'VehicleCreated', data: { vehicleId, instanceId, customerId, ...fields, ...(migratedFrom ? { migratedFrom } : {}) } },
        ];
      }
      case 'UpdateVehicle': {
        const vehicle = existing(state, command.instanceId);
        const next: VehicleFields = { ...vehicle.fields };
        const changes = [];
        for (const field of VEHICLE_FIELDS) {
          const value = command.changes[field];
          if (value === undefined || value === vehicle.fields[field]) continue;
          changes.push({ field, oldValue: vehicle.fields[field], newValue: value });
          Object.assign(next, { [field]: value });
        }
        if (changes.length === 0) return [];
        if (isBlankVehicle(next)) throw atLeastOne();
        return [{ type: 'VehicleUpdated', data: { vehicleId: vehicle.vehicleId, label: vehicleLabel(next), changes } }];
      }
      case 'MoveVehicle': {
        const vehicle = existing(state, command.instanceId);
        if (vehicle.customerId === command.toCustomerId) return [];
        return [
          {
            type: 'VehicleMoved',
            data: {
              vehicleId: vehicle.vehicleId,
              label: vehicleLabel(vehicle.fields),
              fromCustomerId: vehicle.customerId,
              toCustomerId: command.toCustomerId,
              mergeId: command.mergeId,
            },
          },
        ];
      }
      case 'RecordMileage': {
        const vehicle = existing(state, command.instanceId);
        const previous = vehicle.lastMileage;
        if (previous === command.mileage) return [];
        const reason = command.lowerReason?.trim() ?? '';
        if (previous !== null && command.mileage < previous && !reason) throw new MileageLowerError(command.mileage, previous);
        const lower = previous !== null && command.mileage < previous ? { lowerReason: reason } : {};
        return [
          {
            type: 'VehicleMileageRecorded',
            data: {
              vehicleId: vehicle.vehicleId,
              label: vehicleLabel(vehicle.fields),
              mileage: command.mileage,
              previous,
              jobId: command.jobId,
              ...lower,
            },
          },
        ];
      }
      case 'DeleteVehicle': {
        const vehicle = existing(state, command.instanceId);
        return [
          {
            type: 'VehicleDeleted',
            data: {
              vehicleId: vehicle.vehicleId,
              label: vehicleLabel(vehicle.fields),
              customerId: vehicle.customerId,
              ...(command.reason ? { reason: command.reason } : {}),
            },
          },
        ];
      }
      case 'RestoreVehicle': {
        if (state.status === 'empty' || state.instanceId !== command.instanceId) throw new NotFoundError(VEHICLE_MESSAGES.notFound);
        if (state.status !== 'deleted' || !state.deletedWithCustomer || state.customerId !== command.customerId) return [];
        const { vehicleId, instanceId, customerId, lastMileage } = state;
        const lostVin = command.withoutVin ? state.fields.vin : '';
        const fields: VehicleFields = { ...state.fields, vin: lostVin ? '' : state.fields.vin };
        // Named by its VIN alone, it would come back as a vehicle with nothing to know it by.
        if (isBlankVehicle(fields)) throw new ConflictError(VEHICLE_MESSAGES.vinOnlyNotRestored(lostVin));
        return [
          {
            type: 'VehicleRestored',
            data: {
              vehicleId,
              label: vehicleLabel(fields),
              instanceId,
              customerId,
              ...fields,
              lastMileage,
              createdAt: command.createdAt,
              createdBy: command.createdBy,
              ...(lostVin ? { vinNotRestored: lostVin } : {}),
            },
          },
        ];
      }
      default: {
        const unknown: never = command;
        return unknown;
      }
    }
  },
};
