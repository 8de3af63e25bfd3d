import { randomUUID } from 'node:crypto';
import { parseList } from '@crm/projections/customers';
import type { StreamAppend } from '@crm/projections/eventstore/port';
import { vehicleLabelKey } from '@crm/projections/vehicles';
import type { Knex } from 'knex';
import type { TypedVehicleRecords } from '../customers/index.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { newCustomerVehicleAppend } from './vehicle-jobs.ts';
import { customerVehicles } from './vehicle-queries.ts';

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
    const key = vehicleLabelKey(text);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const append = newCustomerVehicleAppend(ctx, { vehicleId: randomUUID(), customerId, text, vin: '', jobId: '', readings: [] });
    if (append) appends.push(append);
  }
  return appends;
}

/**
 * The records of the vehicles a change of a customer's Vehicles text adds (`before` → `after`):
 * one per label it did not have, unless the customer has a record of that label already (its
 * records as the read model has them). Labels it had stay as they are: an old text label
 * becomes a record through `vehicles:migrate`, not through an unrelated edit.
 */
export async function addedVehicleAppends(
  knex: Knex,
  ctx: InstanceContext,
  customerId: string,
  before: string,
  after: string,
): Promise<StreamAppend[]> {
  const had = new Set(parseList(before).map(vehicleLabelKey));
  const added = parseList(after).filter((label) => !had.has(vehicleLabelKey(label)));
  if (added.length === 0) return [];
  const recorded = (await customerVehicles(knex, ctx.instanceId, customerId)).map((vehicle) => vehicle.label);
  return typedVehicleAppends(ctx, customerId, added, recorded);
}

/** What the customers slice appends with a customer's change for the vehicles typed on it. */
export const typedVehicleRecords = (knex: Knex): TypedVehicleRecords => ({
  ofNew: (ctx, customerId, vehicles) => typedVehicleAppends(ctx, customerId, parseList(vehicles)),
  ofChange: (ctx, customerId, before, after) => addedVehicleAppends(knex, ctx, customerId, before, after),
});
