import { parseList } from '@crm/projections/customers';
import type { StreamAppend } from '@crm/projections/eventstore/port';
import { VEHICLE_MESSAGES } from '@crm/projections/vehicles';
import type { CustomerVehicleRecords, VehicleRestoration } from '../customers/index.ts';
import type { AppDeps } from '../deps.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';
import type { VehicleCommand } from './vehicle-decider.ts';
import { changedVehicleAppends, typedVehicleAppends } from './vehicle-labels.ts';
import { customerVehicleIds } from './vehicle-queries.ts';
import { vehicleCommandAppends, vehicleDeletionAppends, vehicleStreamOf } from './vehicle-service.ts';
import { VinTakenError } from './vehicle-vins.ts';

/**
 * A vehicle record deleted with its customer, back with the customer's restore, its VIN held
 * again. When another vehicle of the shop took the VIN meanwhile, the record comes back
 * without it (a shop wants its customer's car back, and one VIN names one car), and what
 * the answer says names the vehicle that has it; a record the VIN alone named stays deleted.
 */
async function vehicleRestoreAppends(
  deps: AppDeps,
  ctx: InstanceContext,
  customerId: string,
  vehicleId: string,
): Promise<{ appends: StreamAppend[]; vinNotRestored: VehicleRestoration['vinsNotRestored'][number] | null }> {
  const created = (await vehicleStreamOf(deps, ctx.instanceId, vehicleId))[0];
  if (!created) return { appends: [], vinNotRestored: null };
  const command: VehicleCommand = {
    type: 'RestoreVehicle',
    instanceId: ctx.instanceId,
    customerId,
    createdAt: created.recordedAt.toISOString(),
    createdBy: created.metadata.actor.displayName,
  };
  try {
    return { appends: (await vehicleCommandAppends(deps, vehicleId, command, ctx)).appends, vinNotRestored: null };
  } catch (error) {
    if (!(error instanceof VinTakenError)) throw error;
    const { vin, holder } = error;
    try {
      const decided = await vehicleCommandAppends(deps, vehicleId, { ...command, withoutVin: true }, ctx);
      const label = decided.events[0]?.type === 'VehicleRestored' ? decided.events[0].data.label : 'The vehicle';
      const message = VEHICLE_MESSAGES.restoredWithoutVin(label, vin, holder.label, holder.customerName);
      return { appends: decided.appends, vinNotRestored: { vehicleId, vin, vehicleRestored: true, message } };
    } catch (withoutVin) {
      if (!(withoutVin instanceof ConflictError)) throw withoutVin;
      const message = VEHICLE_MESSAGES.stayedDeleted(vin, holder.label, holder.customerName);
      return { appends: [], vinNotRestored: { vehicleId, vin, vehicleRestored: false, message } };
    }
  }
}

/** What the customers slice appends with a customer's own commands for its vehicle records. */
export const customerVehicleRecords = (deps: AppDeps): CustomerVehicleRecords => ({
  ofNew: (ctx, customerId, vehicles) => typedVehicleAppends(ctx, customerId, parseList(vehicles)),
  ofChange: (ctx, customerId, before, after) => changedVehicleAppends(deps, ctx, customerId, before, after),
  idsOf: (ctx, customerId) => customerVehicleIds(deps.knex, ctx.instanceId, customerId),
  async ofDeletion(ctx, vehicleIds) {
    const appends: StreamAppend[] = [];
    for (const vehicleId of vehicleIds) appends.push(...(await vehicleDeletionAppends(deps, ctx, vehicleId, 'customer-deleted')));
    return appends;
  },
  async ofRestore(ctx, customerId, vehicleIds) {
    const restoration: VehicleRestoration = { appends: [], restored: 0, vinsNotRestored: [] };
    for (const vehicleId of vehicleIds) {
      const { appends, vinNotRestored } = await vehicleRestoreAppends(deps, ctx, customerId, vehicleId);
      restoration.appends.push(...appends);
      if (appends.length > 0) restoration.restored++;
      if (vinNotRestored) restoration.vinsNotRestored.push(vinNotRestored);
    }
    return restoration;
  },
});
