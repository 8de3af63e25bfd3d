import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import type { VehicleHistoryItem, VehicleView } from '@crm/projections/vehicles';
import { createCustomer } from '../../src/customers/index.ts';
import { systemContext } from '../../src/shared/commands.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestInstance, type TestServer } from '../support/server.ts';

/** A vehicle typed on the customer form (a new customer, or one added on an edit) is a vehicle record, as the job dialog's is. */
let server: TestServer;
let shop: TestInstance;
let owner: ApiClient;
let otherOwner: ApiClient;
const base = '/api/formvehicles';

beforeAll(async () => {
  server = await startTestServer();
  shop = await createTestInstance(server, 'formvehicles');
  await createTestInstance(server, 'formvehother');
  owner = await signInUser(server, 'formvehicles', 'owner', '1234');
  otherOwner = await signInUser(server, 'formvehother', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

async function vehiclesOf(customerId: string): Promise<VehicleView[]> {
  const res = await owner.get(`${base}/customers/${customerId}/vehicles`);
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

const labels = async (customerId: string) => (await vehiclesOf(customerId)).map((v) => v.label).sort();

describe("the customer form's vehicles", () => {
  test('a new customer: each vehicle typed is a record of it (one per vehicle, as a person reads it), with its history, read back at once; the labels stay on the customer', async () => {
    const created = await owner.post(`${base}/customers`, {
      name: 'Fay Form',
      vehicles: ['2015 Ford F-150', 'Civic', '2015 ford  F-150'],
    });
    expect(created.status, created.text).toBe(201);
    // The text keeps one of each vehicle, as the records do.
    expect(created.body.vehicleList).toEqual(['2015 Ford F-150', 'Civic']);
    const vehicles = await vehiclesOf(created.body.id);
    expect(vehicles.map((v) => v.label).sort()).toEqual(['2015 Ford F-150', 'Civic']);
    expect(vehicles.find((v) => v.label === '2015 Ford F-150')).toMatchObject({
      customerId: created.body.id,
      customerName: 'Fay Form',
      year: 2015,
      make: 'Ford',
      model: 'F-150',
      vin: '',
    });
    const history = (await owner.get(`${base}/vehicles/${vehicles[0]!.id}/jobs`)).body.items as VehicleHistoryItem[];
    expect(history.map((item) => item.title)).toEqual(['Vehicle added']);
    // Another shop sees none of it.
    expect((await otherOwner.get(`/api/formvehother/vehicles/${vehicles[0]!.id}`)).status).toBe(404);
  });

  test('an edit: a vehicle added becomes a record; one it had, or another change, makes none; unknown fields are still a 400', async () => {
    const created = await owner.post(`${base}/customers`, { name: 'Eddie Edit', vehicles: ['2010 Mazda 3'] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const added = await owner.put(`${base}/customers/${id}`, { vehicles: ['2010 Mazda 3', '2020 Honda Fit'] }, { 'if-match': '"0"' });
    expect(added.status, added.text).toBe(200);
    expect(await labels(id)).toEqual(['2010 Mazda 3', '2020 Honda Fit']);
    const phone = await owner.put(`${base}/customers/${id}`, { phone: '5550102020' });
    expect(phone.status, phone.text).toBe(200);
    // A label taken off takes its record with it; typed again (in any case) it is one record again.
    expect((await owner.put(`${base}/customers/${id}`, { vehicles: ['2020 Honda Fit'] })).status).toBe(200);
    expect((await owner.put(`${base}/customers/${id}`, { vehicles: ['2020 honda fit', '2010 Mazda 3'] })).status).toBe(200);
    expect(await labels(id)).toEqual(['2010 Mazda 3', '2020 Honda Fit']);
    const unknown = await owner.post(`${base}/customers`, { name: 'Una Known', vehicles: ['Civic'], vehicleRecords: [] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail ?? unknown.text).toMatch(/vehicleRecords/);
  });

  test('a vehicle taken off the customer on an edit is deleted with the change, its VIN freed; the others stay', async () => {
    const created = await owner.post(`${base}/customers`, { name: 'Rhea Remove', vehicles: ['2003 Honda Accord', 'Civic'] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const accord = (await vehiclesOf(id)).find((v) => v.label === '2003 Honda Accord')!;
    const vin = '1M8GDM9AXKP042788';
    expect((await owner.put(`${base}/vehicles/${accord.id}`, { vin })).status).toBe(200);

    const edited = await owner.put(`${base}/customers/${id}`, { vehicles: ['civic'] }, { 'if-match': `"${created.body.revision}"` });
    expect(edited.status, edited.text).toBe(200);
    // Read back at once, as the form's save answers: the Accord is gone, the Civic stays.
    expect(await labels(id)).toEqual(['Civic']);
    expect((await owner.get(`${base}/vehicles/${accord.id}`)).status).toBe(404);
    // Its VIN is free for another vehicle, and the deletion is in the customer's list of changes.
    const other = await owner.post(`${base}/customers`, { name: 'Otto Other' });
    const reused = await owner.post(`${base}/customers/${other.body.id}/vehicles`, { model: 'Accord', vin });
    expect(reused.status, reused.text).toBe(201);
    const list = await owner.get(`${base}/customers?q=rhea`);
    expect(list.body.items[0].vehicleList).toEqual(['Civic']);
  });

  test('an old customer whose labels have no records gets none from an unrelated edit, only for a vehicle added', async () => {
    const ctx = { ...systemContext(new Date(), 'old-data', 'Old data'), instanceId: shop.id };
    const { customerId } = await createCustomer(server.runtime.deps, { name: 'Olga Old', vehicles: ['1999 Saab 900'] }, ctx);
    await server.caughtUp();
    expect((await owner.put(`${base}/customers/${customerId}`, { notes: 'Calls first' })).status).toBe(200);
    expect(await labels(customerId)).toEqual([]);
    expect((await owner.put(`${base}/customers/${customerId}`, { vehicles: ['1999 Saab 900', '2004 Volvo V70'] })).status).toBe(200);
    expect(await labels(customerId)).toEqual(['2004 Volvo V70']);
  });

  test('a vehicle longer than a record field takes is cut at a whole character, never half an emoji (PostgreSQL refuses it: a 500 before)', async () => {
    const wagon = `${'a'.repeat(79)}😀 wagon`;
    const created = await owner.post(`${base}/customers`, { name: 'Emma Emoji', vehicles: [wagon, `2015 ${'m'.repeat(49)}😀 X`] });
    expect(created.status, created.text).toBe(201);
    expect(created.body.vehicleList).toEqual([wagon, `2015 ${'m'.repeat(49)}😀 X`]);
    expect(await labels(created.body.id)).toEqual([`2015 ${'m'.repeat(49)} X`, 'a'.repeat(79)]);
    const edited = await owner.put(`${base}/customers/${created.body.id}`, { vehicles: [wagon, `${'b'.repeat(79)}😀😀`] });
    expect(edited.status, edited.text).toBe(200);
    // The vehicle taken off goes with its record, though the record holds its label cut.
    expect(await labels(created.body.id)).toEqual(['a'.repeat(79), 'b'.repeat(79)]);
  });

  test('a vehicle longer than a record takes names the record it became: taken off, its record goes; typed again, it is one record again', async () => {
    const long = `${'Long '.repeat(18)}wagon`;
    const created = await owner.post(`${base}/customers`, { name: 'Lars Long', vehicles: [long] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(await labels(id)).toEqual([long.slice(0, 80).trim()]);
    expect((await owner.put(`${base}/customers/${id}`, { vehicles: ['Civic'] })).status).toBe(200);
    expect((await owner.put(`${base}/customers/${id}`, { vehicles: ['Civic', long] })).status).toBe(200);
    expect(await labels(id)).toEqual(['Civic', long.slice(0, 80).trim()]);
  });

  test("an undo from the customer's history changes the text only; a deleted customer's records are listed again once it is restored", async () => {
    const created = await owner.post(`${base}/customers`, { name: 'Una Undo', vehicles: ['Civic'] });
    const id = created.body.id as string;
    expect((await owner.put(`${base}/customers/${id}`, { vehicles: ['Civic', 'Golf'] })).status).toBe(200);
    const [added] = (await owner.get(`${base}/customers/${id}/history`)).body;
    const undone = await owner.post(`${base}/customers/${id}/history/${added.id}/revert`, {});
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.vehicleList).toEqual(['Civic']);
    expect(await labels(id)).toEqual(['Civic', 'Golf']);

    expect((await owner.delete(`${base}/customers/${id}`)).status).toBe(200);
    expect((await owner.get(`${base}/customers/${id}/vehicles`)).status).toBe(404);
    const restored = await owner.post(`${base}/deleted-records/customer/${id}/restore`, {});
    expect(restored.status, restored.text).toBe(200);
    expect(await labels(id)).toEqual(['Civic', 'Golf']);
  });

  test('a record from the form takes a VIN as any record does (one vehicle per VIN), and is deleted on its own; a rebuild gives the same tables', async () => {
    const created = await owner.post(`${base}/customers`, { name: 'Vin Form', vehicles: ['2003 Honda Accord'] });
    expect(created.status, created.text).toBe(201);
    const [accord] = await vehiclesOf(created.body.id);
    const vin = '1HGCM82633A004352';
    expect((await owner.put(`${base}/vehicles/${accord!.id}`, { vin })).status).toBe(200);
    const twin = await owner.post(`${base}/customers`, { name: 'Twin Form' });
    const taken = await owner.post(`${base}/customers/${twin.body.id}/vehicles`, { model: 'Accord', vin });
    expect(taken.status).toBe(409);
    expect(taken.body.vehicle).toMatchObject({ id: accord!.id, customerName: 'Vin Form' });
    expect((await owner.delete(`${base}/vehicles/${accord!.id}`)).status).toBe(200);
    expect(await vehiclesOf(created.body.id)).toEqual([]);

    await server.caughtUp();
    const { knex, store } = server.runtime.deps;
    const rebuilt = await rebuildReadModels({ knex, store, projections });
    expect(rebuilt.tables.filter((t) => !t.identical)).toEqual([]);
    expect(rebuilt.tables.map((t) => t.table)).toEqual(expect.arrayContaining(['vehicles', 'customers']));
  });
});
