import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import type { VehicleHistoryItem, VehicleView } from '@crm/projections/vehicles';
import { createCustomer, type NewCustomerInput } from '../../src/customers/index.ts';
import { systemContext } from '../../src/shared/commands.ts';
import { migrateVehicleLabels } from '../../src/vehicle-migration/index.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestInstance, type TestServer } from '../support/server.ts';

/** Old free-text vehicles (customer labels, job texts) become vehicle records, once, losing nothing. */
let server: TestServer;
let shop: TestInstance;
let other: TestInstance;
let owner: ApiClient;
let otherOwner: ApiClient;
const base = '/api/labelshop';

beforeAll(async () => {
  server = await startTestServer();
  shop = await createTestInstance(server, 'labelshop');
  other = await createTestInstance(server, 'labelother');
  owner = await signInUser(server, 'labelshop', 'owner', '1234');
  otherOwner = await signInUser(server, 'labelother', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

async function post(client: ApiClient, path: string, body: unknown) {
  const res = await client.post(path, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const ctxFor = (instance: TestInstance) => ({
  ...systemContext(new Date(), 'vehicle-label-migration', 'Vehicle migration'),
  instanceId: instance.id,
});

/**
 * A customer as one was made before typed vehicles became records: its labels only (the
 * customer form now makes a record of each, so old data is made below the API).
 */
async function labelledCustomer(instance: TestInstance, input: NewCustomerInput): Promise<{ id: string }> {
  const { customerId } = await createCustomer(server.runtime.deps, input, ctxFor(instance));
  await server.caughtUp();
  return { id: customerId };
}

async function vehiclesOf(customerId: string): Promise<VehicleView[]> {
  const res = await owner.get(`${base}/customers/${customerId}/vehicles`);
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

describe('the migration of free-text vehicles', () => {
  test('labels and job texts become records of their customers, jobs are put on them, a second run does nothing, a rebuild gives the same tables', async () => {
    const ford = await labelledCustomer(shop, { name: 'Fran Ford', vehicles: ['2015 Ford F-150', 'Civic'] });
    const camry = await labelledCustomer(shop, { name: 'Cam Camry', vehicles: ['2018 Toyota Camry'] });
    // Cam's Camry is a record already (as the label reads): it is not made twice.
    const camryRecord = await post(owner, `${base}/customers/${camry.id}/vehicles`, { year: 2018, make: 'Toyota', model: 'Camry' });
    const fordJob = await post(owner, `${base}/pipeline`, {
      name: 'Fran Ford',
      customerId: ford.id,
      part: 'Brakes',
      makeModel: '2015  ford f-150',
    });
    const ramJob = await post(owner, `${base}/pipeline`, {
      name: 'Fran Ford',
      customerId: ford.id,
      part: 'Tires',
      makeModel: '2009 Dodge Ram',
    });
    const camryJob = await post(owner, `${base}/pipeline`, {
      name: 'Cam Camry',
      customerId: camry.id,
      part: 'Oil',
      makeModel: '2018 Toyota Camry',
    });
    // No customer: a vehicle belongs to one, so the text stays text.
    const walkIn = await post(owner, `${base}/pipeline`, { part: 'Wipers', makeModel: 'Blue van' });
    // Another shop's labels are its own migration's business.
    const elsewhere = await labelledCustomer(other, { name: 'Otto Other', vehicles: ['2001 Audi A4'] });

    const report = await migrateVehicleLabels(server.runtime.deps, ctxFor(shop));
    expect(report).toEqual({ migrated: true, vehicles: 3, jobsLinked: 3 });

    const fords = await vehiclesOf(ford.id);
    const byLabel = new Map(fords.map((v) => [v.label, v]));
    expect([...byLabel.keys()].sort()).toEqual(['2009 Dodge Ram', '2015 Ford F-150', 'Civic']);
    expect(byLabel.get('2015 Ford F-150')).toMatchObject({ year: 2015, make: 'Ford', model: 'F-150' });
    expect(byLabel.get('Civic')).toMatchObject({ year: null, make: '', model: 'Civic' });
    expect((await vehiclesOf(camry.id)).map((v) => v.id)).toEqual([camryRecord.id]);

    const job = async (id: string) => (await owner.get(`${base}/pipeline/${id}`)).body;
    expect(await job(fordJob.id)).toMatchObject({ vehicleId: byLabel.get('2015 Ford F-150')!.id, makeModel: '2015  ford f-150' });
    expect(await job(ramJob.id)).toMatchObject({ vehicleId: byLabel.get('2009 Dodge Ram')!.id });
    expect(await job(camryJob.id)).toMatchObject({ vehicleId: camryRecord.id });
    expect(await job(walkIn.id)).toMatchObject({ vehicleId: null, makeModel: 'Blue van' });
    // Nothing lost: the customer's labels are still there, word for word.
    expect((await owner.get(`${base}/customers/${ford.id}`)).body.vehicleList).toEqual(['2015 Ford F-150', 'Civic']);

    // History reads: the vehicle says what text it came from, and lists the job put on it.
    const history = (await owner.get(`${base}/vehicles/${byLabel.get('2015 Ford F-150')!.id}/jobs`)).body.items as VehicleHistoryItem[];
    expect(history.find((item) => item.kind === 'job')).toMatchObject({ id: fordJob.id });
    expect(history.find((item) => item.kind === 'vehicle')?.detail ?? '').toContain('2015 Ford F-150');
    const jobHistory = (await owner.get(`${base}/pipeline/${fordJob.id}/history`)).body as Array<{ changes?: Array<{ field: string }> }>;
    expect(jobHistory.some((entry) => entry.changes?.some((change) => change.field === 'vehicleId'))).toBe(true);

    // Once only.
    expect(await migrateVehicleLabels(server.runtime.deps, ctxFor(shop))).toEqual({ migrated: false, vehicles: 0, jobsLinked: 0 });
    expect(await vehiclesOf(ford.id)).toHaveLength(3);
    expect((await otherOwner.get(`/api/labelother/customers/${elsewhere.id}/vehicles`)).body.items).toEqual([]);
    expect(await migrateVehicleLabels(server.runtime.deps, ctxFor(other))).toEqual({ migrated: true, vehicles: 1, jobsLinked: 0 });

    // The read models are built from these events like any others.
    await server.caughtUp();
    const { knex, store } = server.runtime.deps;
    const rebuilt = await rebuildReadModels({ knex, store, projections });
    expect(rebuilt.tables.filter((t) => !t.identical)).toEqual([]);
    expect(rebuilt.tables.map((t) => t.table)).toEqual(expect.arrayContaining(['vehicles', 'jobs', 'customers']));
  });
});
