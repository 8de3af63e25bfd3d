import type { Knex } from 'knex';
import { quoteText } from '@crm/projections/pipeline';
import { isUuid } from '@crm/projections/shared';
import {
  decodeVin,
  normalizePlate,
  normalizeVin,
  vehicleLabel,
  VIN_MESSAGES,
  type VehicleHistoryItem,
  type VehicleView,
} from '@crm/projections/vehicles';
import { withTenant } from '../infra/tenant-db.ts';
import { likeContaining } from '../infra/sql.ts';
import { RECORD_STAMP_COLUMNS, recordStamps, type RecordStampRow } from '../shared/record-stamps.ts';

interface VehicleRow extends RecordStampRow {
  id: string;
  customer_id: string;
  customer_name: string | null;
  year: number | null;
  make: string;
  model: string;
  trim: string;
  vin: string;
  plate: string;
  plate_state: string;
  color: string;
  notes: string;
  last_mileage: number | null;
}

const COLUMNS = [
  'v.id',
  'v.customer_id',
  'c.name as customer_name',
  'v.year',
  'v.make',
  'v.model',
  'v.trim',
  'v.vin',
  'v.plate',
  'v.plate_state',
  'v.color',
  'v.notes',
  'v.last_mileage',
  ...RECORD_STAMP_COLUMNS.map((column) => `v.${column}`),
];

export function toVehicleView(row: VehicleRow): VehicleView {
  const fields = {
    year: row.year,
    make: row.make,
    model: row.model,
    trim: row.trim,
    vin: row.vin,
    plate: row.plate,
    plateState: row.plate_state,
    color: row.color,
    notes: row.notes,
  };
  const decoded = decodeVin(row.vin);
  return {
    id: row.id,
    customerId: row.customer_id,
    customerName: row.customer_name ?? '',
    label: vehicleLabel(fields),
    ...fields,
    decoded,
    vinWarning: decoded?.checkDigit === 'not-verified' ? VIN_MESSAGES.notVerified : null,
    lastMileage: row.last_mileage,
    ...recordStamps(row),
  };
}

const vehiclesOf = (db: Knex, instanceId: string) =>
  db.from('rm.vehicles as v').leftJoin('rm.customers as c', 'c.id', 'v.customer_id').where('v.instance_id', instanceId).select(COLUMNS);

/** A live vehicle of this instance; null for unknown ids, deleted ones and other instances'. */
export async function findVehicle(knex: Knex, instanceId: string, vehicleId: string): Promise<VehicleView | null> {
  if (!isUuid(vehicleId)) return null;
  const row = (await withTenant(knex, instanceId, (db) => vehiclesOf(db, instanceId).where('v.id', vehicleId).first())) as
    VehicleRow | undefined;
  return row ? toVehicleView(row) : null;
}

/** A customer's vehicles, newest first. */
export async function customerVehicles(knex: Knex, instanceId: string, customerId: string): Promise<VehicleView[]> {
  if (!isUuid(customerId)) return [];
  const rows = (await withTenant(knex, instanceId, (db) =>
    vehiclesOf(db, instanceId)
      .where('v.customer_id', customerId)
      .orderBy([
        { column: 'v.created_at', order: 'desc' },
        { column: 'v.id', order: 'desc' },
      ]),
  )) as VehicleRow[];
  return rows.map(toVehicleView);
}

export const SEARCH_RESULTS = 25;

/**
 * A whole VIN, its last 6 or 8 characters (what a shop reads off a windshield or a
 * registration), or a plate or part of one. Indexed lookups (see the read-model migration).
 */
export async function searchVehicles(knex: Knex, instanceId: string, q: string): Promise<VehicleView[]> {
  const vin = normalizeVin(q);
  const plate = normalizePlate(q);
  const rows = (await withTenant(knex, instanceId, (db) =>
    vehiclesOf(db, instanceId)
      .where((w) => {
        w.where('v.vin', vin);
        if (vin.length === 6) w.orWhereRaw('right(v.vin, 6) = ?', [vin]);
        if (vin.length === 8) w.orWhereRaw('right(v.vin, 8) = ?', [vin]);
        if (plate) w.orWhere('v.plate_search', 'like', likeContaining(plate));
      })
      .orderBy([
        { column: 'v.last_modified_at', order: 'desc' },
        { column: 'v.id', order: 'desc' },
      ])
      .limit(SEARCH_RESULTS),
  )) as VehicleRow[];
  return rows.map(toVehicleView);
}

interface VehicleJobRow {
  id: string;
  job_number: string;
  stage: string;
  part: string;
  quote: string | number | null;
  mileage_in: number | null;
  mileage_out: number | null;
  appointment: Date | null;
  created_at: Date;
  created_by: string;
  notes: string;
}

/**
 * The live jobs on a vehicle, as history items. A job is dated by its appointment once that
 * has come (the visit the work was done at), else by when it was created: a visit booked for
 * later is marked `upcoming` with its appointment, never dated in the future, so it never
 * reads as service already done.
 */
export async function vehicleJobItems(knex: Knex, instanceId: string, vehicleId: string, now: Date): Promise<VehicleHistoryItem[]> {
  const rows = (await withTenant(knex, instanceId, (db) =>
    db
      .withSchema('rm')
      .from('jobs')
      .where({ instance_id: instanceId, vehicle_id: vehicleId })
      .select(
        'id',
        'job_number',
        'stage',
        'part',
        'quote',
        'mileage_in',
        'mileage_out',
        'appointment',
        'created_at',
        'created_by',
        'notes',
      ),
  )) as VehicleJobRow[];
  return rows.map((row) => {
    const appointment = row.appointment === null ? null : new Date(row.appointment);
    const upcoming = appointment !== null && appointment.getTime() > now.getTime();
    return {
      kind: 'job' as const,
      id: row.id,
      jobId: row.id,
      at: (appointment !== null && !upcoming ? appointment : new Date(row.created_at)).toISOString(),
      title: row.job_number ? `Job #${row.job_number}` : 'Job',
      detail: [row.part, row.notes].filter((part) => part !== '').join(' — '),
      jobNumber: row.job_number || null,
      stage: row.stage,
      quote: row.quote === null ? null : quoteText(Number(row.quote)),
      mileageIn: row.mileage_in,
      mileageOut: row.mileage_out,
      by: row.created_by,
      appointment: appointment === null ? null : appointment.toISOString(),
      upcoming,
    };
  });
}

/** What a job's repair order keeps of its estimates and invoices (rm.job_money.state). */
interface OrderRow {
  job_id: string;
  job_number: string;
  mileage_in: number | null;
  mileage_out: number | null;
  state: {
    estimates?: Array<{ version: number; status: string; sentAt: string; sentBy: string; totals: { total: number } }>;
    invoices?: Array<{ invoiceNumber: number; revision: number; issuedAt: string; issuedBy: string; totals: { total: number } }>;
  };
}

/**
 * The estimates sent and the invoices issued for the live jobs on a vehicle, as history
 * items at the time each was sent or issued (an invoice by its latest revision), with the
 * job's mileage.
 */
export async function vehicleOrderItems(knex: Knex, instanceId: string, vehicleId: string): Promise<VehicleHistoryItem[]> {
  const rows = (await withTenant(knex, instanceId, (db) =>
    db
      .from('rm.jobs as j')
      .join('rm.job_money as m', 'm.job_id', 'j.id')
      .where({ 'j.instance_id': instanceId, 'j.vehicle_id': vehicleId })
      .select('j.id as job_id', 'j.job_number', 'j.mileage_in', 'j.mileage_out', 'm.state'),
  )) as OrderRow[];
  const items: VehicleHistoryItem[] = [];
  for (const row of rows) {
    const job = {
      jobId: row.job_id,
      jobNumber: row.job_number || null,
      stage: null,
      mileageIn: row.mileage_in,
      mileageOut: row.mileage_out,
      appointment: null,
      upcoming: false,
    };
    const of = row.job_number ? ` for job #${row.job_number}` : '';
    for (const estimate of row.state.estimates ?? []) {
      items.push({
        ...job,
        kind: 'estimate',
        id: `${row.job_id}:estimate:${estimate.version}`,
        at: new Date(estimate.sentAt).toISOString(),
        title: `Estimate v${estimate.version}${of}`,
        detail: `Sent; ${estimate.status === 'sent' ? 'awaiting the answer' : estimate.status}`,
        quote: quoteText(estimate.totals.total / 100),
        by: estimate.sentBy,
      });
    }
    const latest = new Map<number, NonNullable<OrderRow['state']['invoices']>[number]>();
    for (const invoice of row.state.invoices ?? []) {
      const seen = latest.get(invoice.invoiceNumber);
      if (!seen || seen.revision < invoice.revision) latest.set(invoice.invoiceNumber, invoice);
    }
    for (const invoice of latest.values()) {
      items.push({
        ...job,
        kind: 'invoice',
        id: `${row.job_id}:invoice:${invoice.invoiceNumber}`,
        at: new Date(invoice.issuedAt).toISOString(),
        title: `Invoice #${invoice.invoiceNumber}${of}`,
        detail: invoice.revision > 1 ? `Revision ${invoice.revision}` : '',
        quote: quoteText(invoice.totals.total / 100),
        by: invoice.issuedBy,
      });
    }
  }
  return items;
}

/** The ids of a customer's live vehicles (what a customer merge moves). */
export async function customerVehicleIds(knex: Knex, instanceId: string, customerId: string): Promise<string[]> {
  if (!isUuid(customerId)) return [];
  const rows = (await withTenant(knex, instanceId, (db) =>
    db.from('rm.vehicles').where({ instance_id: instanceId, customer_id: customerId }).select('id'),
  )) as Array<{ id: string }>;
  return rows.map((row) => row.id);
}
