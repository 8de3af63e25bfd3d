import { assertNever } from '../shared/never.ts';
import { defineProjection, type ProjectionContext, type StoredEventOf } from '../runtime/projection.ts';
import { vehicleLabel, vehicleLabelKey, type VehicleField, type VehicleFields } from '../vehicles/index.ts';
import { parseList } from './fields.ts';

/** A vehicle record of a customer as its card and the search read it. */
export type CardVehicle = { id: string } & Pick<VehicleFields, 'year' | 'make' | 'model' | 'trim' | 'vin' | 'plate'>;

/** A label a vehicle record was made with (kept when it is renamed, moved or deleted). */
export interface MadeLabel {
  vehicleId: string;
  label: string;
}

/**
 * A customer's vehicles as a person reads them, each once (labels compared without case and
 * extra spaces, as the customer page compares them): the vehicles typed on the customer in
 * their order, each read through its vehicle record (the record with its label, or the one
 * made with it: renamed since, it reads as the new name; deleted or moved away since, not at
 * all) and as typed only when it has none; then the records that stand for no typed vehicle,
 * in the order they were added. `records` in the order they were added; `made` the labels the
 * customer's records were made with.
 */
export function customerVehicleList(typedText: string, records: readonly CardVehicle[], made: readonly MadeLabel[]): string[] {
  const typed = parseList(typedText).map((item, place) => ({ item, place, key: vehicleLabelKey(item) }));
  const madeKeys = new Set(made.map((m) => vehicleLabelKey(m.label)));
  const recordKeys = new Set<string>();
  const LAST = Number.MAX_SAFE_INTEGER;
  const entries: Array<{ label: string; key: string; place: number; order: number }> = [];
  records.forEach((record, index) => {
    const label = vehicleLabel(record);
    const key = vehicleLabelKey(label);
    recordKeys.add(key);
    const madeWith = new Set(made.filter((m) => m.vehicleId === record.id).map((m) => vehicleLabelKey(m.label)));
    const typedAs = typed.find((t) => t.key === key || madeWith.has(t.key));
    entries.push({ label, key, place: typedAs ? typedAs.place : LAST, order: index + 1 });
  });
  for (const t of typed) {
    if (!recordKeys.has(t.key) && !madeKeys.has(t.key)) entries.push({ label: t.item, key: t.key, place: t.place, order: 0 });
  }
  entries.sort((a, b) => a.place - b.place || a.order - b.order);
  const listed = new Set<string>();
  return entries.filter((entry) => !listed.has(entry.key) && listed.add(entry.key)).map((entry) => entry.label);
}

/** What the customer search matches of a customer's records: each one's label, VIN and plate (the search lowers the case). */
export function customerVehicleSearch(records: readonly CardVehicle[]): string {
  return records
    .flatMap((record) => [vehicleLabelKey(vehicleLabel(record)), record.vin, record.plate])
    .filter((part) => part !== '')
    .join('\n');
}

/** The vehicle fields the card's label and the search read: a change of another (color, notes) leaves the card as it is. */
const CARD_FIELDS = new Set<VehicleField>(['year', 'make', 'model', 'trim', 'vin', 'plate']);

const CARD_EVENTS = [
  'CustomerCreated',
  'CustomerUpdated',
  'CustomerRestored',
  'CustomerMergeUndone',
  'VehicleCreated',
  'VehicleUpdated',
  'VehicleMoved',
  'VehicleDeleted',
  'VehicleRestored',
] as const;
type CardEvent = (typeof CARD_EVENTS)[number];

interface CardSource {
  id: string;
  vehicles: string;
  records: CardVehicle[];
  made: MadeLabel[];
}

/**
 * The customers named, or holding the vehicles named (SQL after WHERE; the schema, then the two
 * id arrays): one array of ids, so the customers are read by their primary key (an OR with the
 * vehicles' subquery read every customer: 20 ms at 20,000 customers, against 0.06 ms).
 */
const NAMED = 'c.id = ANY(?::uuid[] || ARRAY(SELECT v.customer_id FROM ??.vehicles v WHERE v.id = ANY(?::uuid[])))';

/**
 * The customers named, or holding the vehicles named, with what their card is made of: the
 * typed text, the records (in the order they were added) and the labels they were made with.
 * In an append's transaction it runs after the customers' and vehicles' own writes (they go
 * in front of it), so it reads the rows as the append leaves them. Their rows are locked
 * first, in a statement of its own (sent with the read, in the same message): two appends
 * changing one customer's vehicles at once (two vehicles added on two API processes) would
 * otherwise each read the rows without the other's and the later write would drop the
 * other's vehicle; the second waits for the first's COMMIT and then reads with a snapshot
 * that has it (read committed takes one per statement).
 */
async function readCardSources(ctx: ProjectionContext, customerIds: string[], vehicleIds: string[]): Promise<CardSource[]> {
  const { schema } = ctx;
  await ctx.write(
    ctx.trx.raw(`SELECT FROM ??.customers c WHERE ${NAMED} ORDER BY c.id FOR UPDATE`, [schema, customerIds, schema, vehicleIds]),
  );
  const result = await ctx.trx.raw<{ rows: CardSource[] }>(
    `SELECT c.id, c.vehicles,
            (SELECT coalesce(json_agg(json_build_object('id', v.id, 'year', v.year, 'make', v.make, 'model', v.model, 'trim', v.trim,
                                                        'vin', v.vin, 'plate', v.plate) ORDER BY v.created_at, v.id), '[]')
               FROM ??.vehicles v WHERE v.instance_id = c.instance_id AND v.customer_id = c.id) AS records,
            (SELECT coalesce(json_agg(json_build_object('vehicleId', m.vehicle_id, 'label', m.label)), '[]')
               FROM ??.customer_vehicle_labels m WHERE m.customer_id = c.id) AS made
       FROM ??.customers c
      WHERE ${NAMED}`,
    [schema, schema, schema, customerIds, schema, vehicleIds],
  );
  return result.rows;
}

/**
 * rm.customers' `vehicle_list` (the card's Vehicles, a JSON array of labels) and
 * `vehicle_search` (its records' searchable text, part of the row's generated `search`): made
 * again from the customer's typed text and records whenever either changes, so the list and
 * the search read one row per customer. Inline, after the customers and vehicles projections
 * (whose rows it reads), so a read right after a change of a vehicle shows it. Idempotent: it
 * writes what the rows make, whatever the event.
 */
export const customerVehicleListProjection = defineProjection({
  name: 'customer-vehicle-list',
  inline: true,
  readsFrom: ['customers', 'vehicles'],
  eventTypes: CARD_EVENTS,
  takes(event) {
    switch (event.type) {
      case 'CustomerCreated':
        return event.data.vehicles !== '';
      case 'CustomerUpdated':
        return event.data.changes.some((change) => change.field === 'vehicles');
      case 'CustomerMergeUndone':
        return event.data.restored !== undefined;
      case 'VehicleUpdated':
        return event.data.changes.some((change) => CARD_FIELDS.has(change.field));
      case 'CustomerRestored':
      case 'VehicleCreated':
      case 'VehicleMoved':
      case 'VehicleDeleted':
      case 'VehicleRestored':
        return true;
      default:
        return assertNever(event, 'event');
    }
  },
  async apply(event, ctx) {
    await refreshCards([event], ctx);
  },
  applyBatch: refreshCards,
});

/** The cards of the customers `events` touch, made again from their rows. */
async function refreshCards(events: readonly StoredEventOf<CardEvent>[], ctx: ProjectionContext): Promise<void> {
  const customerIds = new Set<string>();
  const vehicleIds = new Set<string>();
  for (const event of events) {
    switch (event.type) {
      case 'CustomerCreated':
      case 'CustomerUpdated':
      case 'CustomerRestored':
      case 'CustomerMergeUndone':
      case 'VehicleCreated':
      case 'VehicleDeleted':
      case 'VehicleRestored':
        customerIds.add(event.data.customerId);
        break;
      case 'VehicleMoved':
        customerIds.add(event.data.fromCustomerId).add(event.data.toCustomerId);
        break;
      case 'VehicleUpdated':
        vehicleIds.add(event.data.vehicleId);
        break;
      default:
        assertNever(event, 'event');
    }
  }
  const sources = await readCardSources(ctx, [...customerIds], [...vehicleIds]);
  if (sources.length === 0) return;
  const rows = sources.map((source) => ({
    id: source.id,
    vehicle_list: JSON.stringify(customerVehicleList(source.vehicles, source.records, source.made)),
    vehicle_search: customerVehicleSearch(source.records),
  }));
  await ctx.write(
    ctx.trx.raw(
      `UPDATE ??.customers c SET vehicle_list = r.vehicle_list::json, vehicle_search = r.vehicle_search
           FROM jsonb_to_recordset(?::jsonb) AS r(id uuid, vehicle_list text, vehicle_search text)
          WHERE c.id = r.id AND (c.vehicle_list::text, c.vehicle_search) IS DISTINCT FROM (r.vehicle_list, r.vehicle_search)`,
      [ctx.schema, JSON.stringify(rows)],
    ),
  );
}
