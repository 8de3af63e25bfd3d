import { randomUUID } from 'node:crypto';
import { parseList } from '@crm/projections/customers';
import { WrongExpectedVersionError, type StreamAppend } from '@crm/projections/eventstore/port';
import { isBlankVehicle, parseVehicleLabel, vehicleLabel, vehicleLabelKey, type VehicleFields } from '@crm/projections/vehicles';
import type { Knex } from 'knex';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { withTenant } from '../infra/tenant-db.ts';
import { jobDecider, jobStream, type JobState } from '../pipeline/index.ts';
import { loadAggregate, toNewEvents, type InstanceContext } from '../shared/commands.ts';
import { vehicleDecider, vehicleMigrationStream, vehicleStream } from '../vehicles/index.ts';

/**
 * The one-time migration of free-text vehicles into vehicle records, per instance. Before
 * vehicles were records, a customer carried labels ('2015 Ford F-150, Civic') and a job a
 * free-text Vehicle. Each label a customer has no record for becomes a record of that
 * customer (VehicleCreated with `migratedFrom`: the text word for word, so its history says
 * where it came from); each job of a customer whose Vehicle text has no vehicleId is put on
 * the customer's record with that label (made from the job's text when there is none) with
 * an ordinary JobUpdated of vehicleId, which the job's history shows. The texts themselves
 * stay where they were: nothing is lost, and the read models are built from these events
 * like any others, so a rebuild gives the same tables. A job with no customer keeps its text
 * only (a vehicle belongs to a customer).
 *
 * Everything, with the marker VehicleLabelsMigrated on `vehiclemigration-{instance}`
 * (expected to be new), is one append: all or nothing, and a second run finds the marker
 * and changes nothing.
 */

export interface LabelMigrationReport {
  /** False when the instance was migrated before (nothing done now). */
  migrated: boolean;
  vehicles: number;
  jobsLinked: number;
}

interface VehicleRow {
  id: string;
  customer_id: string;
  year: number | null;
  make: string;
  model: string;
  trim: string;
  vin: string;
}

/** The read models' view of what there is to migrate (the streams decide). */
async function candidates(knex: Knex, instanceId: string) {
  return withTenant(knex, instanceId, async (db) => {
    const customers = (await db
      .withSchema('rm')
      .from('customers_of_instance')
      .where('instance_id', instanceId)
      .whereNot('vehicles', '')
      .select('id', 'vehicles')
      .orderBy('number')) as Array<{ id: string; vehicles: string }>;
    const jobs = (await db
      .withSchema('rm')
      .from('jobs_of_instance')
      .where('instance_id', instanceId)
      .whereNotNull('customer_id')
      .whereNull('vehicle_id')
      .whereNot('make_model', '')
      .select('id', 'customer_id', 'make_model')
      .orderBy('created_at')) as Array<{ id: string; customer_id: string; make_model: string }>;
    const vehicles = (await db
      .from('rm.vehicles')
      .where('instance_id', instanceId)
      .select('id', 'customer_id', 'year', 'make', 'model', 'trim', 'vin')) as VehicleRow[];
    return { customers, jobs, vehicles };
  });
}

const BLANK: VehicleFields = { year: null, make: '', model: '', trim: '', vin: '', plate: '', plateState: '', color: '', notes: '' };

export async function migrateVehicleLabels(deps: AppDeps, ctx: InstanceContext): Promise<LabelMigrationReport> {
  const { instanceId } = ctx;
  const marker = await deps.store.readStream(vehicleMigrationStream(instanceId));
  if (marker.length > 0) return { migrated: false, vehicles: 0, jobsLinked: 0 };
  const found = await candidates(deps.knex, instanceId);

  /** customerId → label key → vehicle id: the records there are, then the ones made here. */
  const byCustomer = new Map<string, Map<string, string>>();
  const known = (customerId: string) => {
    let labels = byCustomer.get(customerId);
    if (!labels) byCustomer.set(customerId, (labels = new Map()));
    return labels;
  };
  for (const row of found.vehicles) {
    const labels = known(row.customer_id);
    const key = vehicleLabelKey(vehicleLabel({ ...BLANK, year: row.year, make: row.make, model: row.model, trim: row.trim, vin: row.vin }));
    if (!labels.has(key)) labels.set(key, row.id);
  }

  const appends: StreamAppend[] = [];
  let made = 0;
  const create = (customerId: string, text: string, source: 'customer-vehicles' | 'job-vehicle', jobId: string | null) => {
    const fields: VehicleFields = { ...BLANK, ...parseVehicleLabel(text) };
    if (isBlankVehicle(fields)) return null;
    const vehicleId = randomUUID();
    const events = vehicleDecider.decide(
      { type: 'CreateVehicle', vehicleId, instanceId, customerId, fields, migratedFrom: { source, text, jobId } },
      vehicleDecider.initialState,
    );
    appends.push({ streamId: vehicleStream(vehicleId), events: toNewEvents(events, ctx), expectedRevision: 'no_stream' });
    known(customerId).set(vehicleLabelKey(text), vehicleId);
    made += 1;
    return vehicleId;
  };

  for (const customer of found.customers) {
    for (const text of parseList(customer.vehicles)) {
      if (!known(customer.id).has(vehicleLabelKey(text))) create(customer.id, text, 'customer-vehicles', null);
    }
  }

  let linked = 0;
  for (const job of found.jobs) {
    const vehicleId =
      known(job.customer_id).get(vehicleLabelKey(job.make_model)) ?? create(job.customer_id, job.make_model, 'job-vehicle', job.id);
    if (!vehicleId) continue;
    const loaded = await loadAggregate<JobState, never>(deps.store, jobStream(job.id), jobDecider);
    const state = loaded.state;
    // The stream decides: a job changed since the read model saw it is left as it now is.
    if ((state.status !== 'open' && state.status !== 'canceled') || state.fields.vehicleId !== null) continue;
    if (state.fields.customerId !== job.customer_id) continue;
    const events = jobDecider.decide({ type: 'UpdateJob', instanceId, changes: { vehicleId } }, state);
    if (events.length === 0) continue;
    appends.push({ streamId: jobStream(job.id), events: toNewEvents(events, ctx), expectedRevision: loaded.revision ?? 'no_stream' });
    linked += 1;
  }

  appends.push({
    streamId: vehicleMigrationStream(instanceId),
    events: toNewEvents([{ type: 'VehicleLabelsMigrated', data: { instanceId, vehicles: made, jobsLinked: linked } }], ctx),
    expectedRevision: 'no_stream',
  });
  try {
    const results = await deps.store.appendMany(appends);
    const last = results[results.length - 1];
    if (last) await settle(deps, { position: last.position });
  } catch (error) {
    // Another run got there first (its marker), or a job changed meanwhile: nothing was recorded.
    if (error instanceof WrongExpectedVersionError) {
      const again = await deps.store.readStream(vehicleMigrationStream(instanceId));
      if (again.length > 0) return { migrated: false, vehicles: 0, jobsLinked: 0 };
    }
    throw error;
  }
  return { migrated: true, vehicles: made, jobsLinked: linked };
}
