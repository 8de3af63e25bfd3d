import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import type { VehicleHistoryItem, VehicleView } from '@crm/projections/vehicles';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * A customer's vehicle records go with the customer: deleted in its deletion (their pages,
 * the Vehicles search and their VINs with them) and back with its restore, a VIN another
 * vehicle took meanwhile staying with that vehicle.
 */
let server: TestServer;
let owner: ApiClient;
let otherOwner: ApiClient;
const base = '/api/delvehicles';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'delvehicles');
  await createTestInstance(server, 'delvehother');
  owner = await signInUser(server, 'delvehicles', 'owner', '1234');
  otherOwner = await signInUser(server, 'delvehother', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

async function customer(name: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await owner.post(`${base}/customers`, { name, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function vehicle(customerId: string, body: Record<string, unknown>): Promise<VehicleView> {
  const res = await owner.post(`${base}/customers/${customerId}/vehicles`, body);
  expect(res.status, res.text).toBe(201);
  return res.body as VehicleView;
}

const searchIds = async (q: string) => ((await owner.get(`${base}/vehicles?q=${q}`)).body.items as VehicleView[]).map((v) => v.id);
const historyTitles = async (id: string) =>
  ((await owner.get(`${base}/vehicles/${id}/jobs`)).body.items as VehicleHistoryItem[]).map((item) => [item.title, item.detail]);

describe("a customer's vehicle records go with the customer", () => {
  test('deleted with it (pages, search and VINs), back with its restore as they were; one deleted on its own stays deleted', async () => {
    const id = await customer('Dora Deleted', { vehicles: ['2012 Toyota Corolla'] });
    const vin = '1HGCM82633A004352';
    const accord = await vehicle(id, { year: 2003, make: 'Honda', model: 'Accord', vin, plate: 'DEL 123' });
    const gone = await vehicle(id, { make: 'Saab', model: '900', plate: 'SAAB900' });
    expect((await owner.delete(`${base}/vehicles/${gone.id}`)).status).toBe(200);
    const corolla = ((await owner.get(`${base}/customers/${id}/vehicles`)).body.items as VehicleView[]).find(
      (v) => v.label === '2012 Toyota Corolla',
    )!;
    expect(corolla).toBeDefined();

    const deleted = await owner.delete(`${base}/customers/${id}`);
    expect(deleted.status, deleted.text).toBe(200);
    // Read at once (read-your-writes): no page, not found by VIN or plate, the VIN free for another car.
    for (const v of [accord, corolla]) expect((await owner.get(`${base}/vehicles/${v.id}`)).status).toBe(404);
    expect((await owner.get(`${base}/vehicles/${accord.id}/jobs`)).status).toBe(404);
    expect(await searchIds(vin)).toEqual([]);
    expect(await searchIds('DEL123')).toEqual([]);
    const other = await customer('Otto Other');
    const interim = await vehicle(other, { model: 'Accord', vin });
    expect((await owner.delete(`${base}/vehicles/${interim.id}`)).status).toBe(200);

    const restored = await owner.post(`${base}/deleted-records/customer/${id}/restore`, {});
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ restored: true, kind: 'customer', vehiclesRestored: 2, vinsNotRestored: [] });
    const back = (await owner.get(`${base}/customers/${id}/vehicles`)).body.items as VehicleView[];
    expect(back.map((v) => v.id).sort()).toEqual([accord.id, corolla.id].sort());
    // As it was: fields, creation and VIN (held again).
    const page = await owner.get(`${base}/vehicles/${accord.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ vin, plate: 'DEL 123', customerName: 'Dora Deleted', createdAt: accord.createdAt });
    expect(await searchIds(vin)).toEqual([accord.id]);
    // The customer list's card and search read them again.
    const listed = (await owner.get(`${base}/customers?q=${vin}`)).body.items as Array<{ id: string; vehicleList: string[] }>;
    expect(listed.map((c) => c.id)).toEqual([id]);
    expect(listed[0]!.vehicleList).toEqual(expect.arrayContaining(['2003 Honda Accord', '2012 Toyota Corolla']));
    const twin = await owner.post(`${base}/customers/${other}/vehicles`, { model: 'Accord', vin });
    expect(twin.status).toBe(409);
    expect(twin.body.vehicle).toMatchObject({ id: accord.id });
    expect((await historyTitles(accord.id)).slice(0, 2)).toEqual([
      ['Vehicle restored', 'With its customer'],
      ['Vehicle deleted', 'With its customer'],
    ]);
    // Deleted on its own before: not the customer's deletion's to bring back.
    expect((await owner.get(`${base}/vehicles/${gone.id}`)).status).toBe(404);
    // Another shop sees none of it.
    expect((await otherOwner.get(`/api/delvehother/vehicles/${accord.id}`)).status).toBe(404);
  });

  test('a merge into a customer deleted and restored since can still be undone: the vehicles it moved go back, card and search with them', async () => {
    const into = await customer('Ike Into');
    const from = await customer('Fay From');
    const vin = '2T1BURHE3JC012345';
    const moved = await vehicle(from, { year: 2018, make: 'Toyota', model: 'Corolla', vin, plate: 'FAY 1' });
    expect((await owner.post(`${base}/customers/${from}/merge`, { intoId: into })).status).toBe(200);
    expect((await owner.delete(`${base}/customers/${into}`)).status).toBe(200);
    const refused = await owner.delete(`${base}/customers/${from}/merge`);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.message).toBe('Ike Into, whom this merge went into, is deleted: restore them first, then undo the merge');

    expect((await owner.post(`${base}/deleted-records/customer/${into}/restore`, {})).body).toMatchObject({ vehiclesRestored: 1 });
    const undone = await owner.delete(`${base}/customers/${from}/merge`);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toMatchObject({ vehiclesMoved: 1 });
    expect((await owner.get(`${base}/vehicles/${moved.id}`)).body).toMatchObject({ customerId: from, vin });
    const cards = async (q: string) =>
      ((await owner.get(`${base}/customers?q=${q}`)).body.items as Array<{ id: string; vehicleList: string[] }>).map((c) => [
        c.id,
        c.vehicleList,
      ]);
    expect(await cards(vin)).toEqual([[from, ['2018 Toyota Corolla']]]);
    expect(await cards('fay%201')).toEqual([[from, ['2018 Toyota Corolla']]]);
    expect(await cards('Ike%20Into')).toEqual([[into, []]]);
  });

  test('a VIN another vehicle took meanwhile stays with it: the record comes back without it, and the answer says where it is', async () => {
    const id = await customer('Vic Vinless');
    const vin = '1FTFW1ET9DFC20001';
    const onlyVin = '1G1ZT53826F109149';
    const truck = await vehicle(id, { year: 2013, make: 'Ford', model: 'F-150', vin });
    const bare = await vehicle(id, { vin: onlyVin });
    expect((await owner.delete(`${base}/customers/${id}`)).status).toBe(200);
    const buyer = await customer('Bea Buyer');
    const holder = await vehicle(buyer, { year: 2013, make: 'Ford', model: 'F-150 XLT', vin });
    const bareHolder = await vehicle(buyer, { model: 'Civic', vin: onlyVin });

    const restored = await owner.post(`${base}/deleted-records/customer/${id}/restore`, {});
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.vehiclesRestored).toBe(1);
    expect(restored.body.vinsNotRestored).toHaveLength(2);
    expect(restored.body.vinsNotRestored).toEqual(
      expect.arrayContaining([
        {
          vehicleId: truck.id,
          vin,
          vehicleRestored: true,
          message: `2013 Ford F-150 came back without its VIN ${vin}: that VIN is on 2013 Ford F-150 XLT of Bea Buyer now.`,
        },
        {
          vehicleId: bare.id,
          vin: onlyVin,
          vehicleRestored: false,
          message: `The vehicle with VIN ${onlyVin} stays deleted: that VIN is on Civic of Bea Buyer now, and the vehicle has nothing else to name it by.`,
        },
      ]),
    );
    expect((await owner.get(`${base}/vehicles/${truck.id}`)).body).toMatchObject({ vin: '', label: '2013 Ford F-150' });
    expect((await owner.get(`${base}/vehicles/${bare.id}`)).status).toBe(404);
    // One VIN, one record: the holders keep theirs.
    expect(await searchIds(vin)).toEqual([holder.id]);
    expect(await searchIds(onlyVin)).toEqual([bareHolder.id]);
    expect((await historyTitles(truck.id))[0]).toEqual([
      'Vehicle restored',
      `With its customer, without its VIN ${vin}: another vehicle had taken it`,
    ]);

    await server.caughtUp();
    const { knex, store } = server.runtime.deps;
    const rebuilt = await rebuildReadModels({ knex, store, projections });
    expect(rebuilt.tables.filter((t) => !t.identical)).toEqual([]);
    expect(rebuilt.tables.map((t) => t.table)).toEqual(expect.arrayContaining(['vehicles', 'customers']));
  });
});
