import { randomUUID } from 'node:crypto';
import { parseList } from '@crm/projections/customers';
import type { StreamAppend } from '@crm/projections/eventstore/port';
import { isBlankText } from '@crm/projections/shared';
import { typedVehicleKey, vehicleLabelKey } from '@crm/projections/vehicles';
import type { AppDeps } from '../deps.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { newCustomerVehicleAppend } from './vehicle-jobs.ts';
import { customerVehicles } from './vehicle-queries.ts';
import { vehicleDeletionAppends } from './vehicle-service.ts';

/**
 * The vehicles typed for a customer on the customer form ('2015 Ford F-150'), each a vehicle
 * record of that customer (year, make and model split from the text), to be appended with
 * the customer's own change: one record per label, none for a label the customer already has
 * a record of (`recorded`: their labels) or typed twice.
 */
export function typedVehicleAppends(
  ctx: InstanceContext,
  customerId: string,
  labels: readonly string[],
  recorded: readonly string[] = [],
): StreamAppend[] {
  const seen = new Set(recorded.map(vehicleLabelKey));
  const appends: StreamAppend[] = [];
  for (const text of labels) {
    const key = typedVehicleKey(text);
    if (isBlankText(text) || seen.has(key)) continue;
    seen.add(key);
    const append = newCustomerVehicleAppend(ctx, { vehicleId: randomUUID(), customerId, text, vin: '', jobId: '', readings: [] });
    if (append) appends.push(append);
  }
  return appends;
}

/**
 * What a change of a customer's Vehicles text (`before` → `after`) appends for its records:
 * a record for each label it did not have, unless the customer has a record of that label
 * already (its records as the read model has them), and the deletion of the records of each
 * label it takes off (its VIN freed), so the vehicles the form shows are the customer's
 * vehicles both ways. Labels it keeps stay as they are: an old text label becomes a record
 * through `vehicles:migrate`, not through an unrelated edit.
 */
export async function changedVehicleAppends(
  deps: AppDeps,
  ctx: InstanceContext,
  customerId: string,
  before: string,
  after: string,
): Promise<StreamAppend[]> {
  const had = new Set(parseList(before).map(vehicleLabelKey));
  const keeps = new Set(parseList(after).map(vehicleLabelKey));
  const added = parseList(after).filter((label) => !had.has(vehicleLabelKey(label)));
  const removed = new Set(
    parseList(before)
      .filter((label) => !keeps.has(vehicleLabelKey(label)))
      .map(typedVehicleKey),
  );
  if (added.length === 0 && removed.size === 0) return [];
  const records = await customerVehicles(deps.knex, ctx.instanceId, customerId);
  const taken = records.filter((record) => removed.has(vehicleLabelKey(record.label)));
  const kept = records.filter((record) => !taken.includes(record));
  const appends = typedVehicleAppends(
    ctx,
    customerId,
    added,
    kept.map((vehicle) => vehicle.label),
  );
  for (const record of taken) appends.push(...(await vehicleDeletionAppends(deps, ctx, record.id)));
  return appends;
}
