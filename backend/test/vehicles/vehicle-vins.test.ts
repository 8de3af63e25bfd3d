import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import type { VehicleView } from '@crm/projections/vehicles';
import type { Runtime } from '../../src/runtime.ts';
import { systemContext, toNewEvents } from '../../src/shared/commands.ts';
import { vehicleStream } from '../../src/vehicles/vehicle-decider.ts';
import {
  ApiClient,
  createTestInstance,
  startSecondApiProcess,
  signInUser,
  startTestServer,
  type TestInstance,
  type TestServer,
} from '../support/server.ts';

/**
 * A VIN names one car: one live vehicle of an instance carries it, whichever way the vehicle
 * is made or changed, and whichever API process serves the requests.
 */
let server: TestServer;
/** A second API process on the same database, without a projector (as when scaled out). */
let second: Runtime;
let shop: TestInstance;
let owner: ApiClient;
let ownerTwo: ApiClient;
let otherOwner: ApiClient;
const base = '/api/vinshop';

beforeAll(async () => {
  server = await startTestServer();
  second = await startSecondApiProcess(server);
  shop = await createTestInstance(server, 'vinshop');
  await createTestInstance(server, 'vinother');
  owner = await signInUser(server, 'vinshop', 'owner', '1234');
  otherOwner = await signInUser(server, 'vinother', 'owner', '1234');
  ownerTwo = new ApiClient(second.url);
  expect((await ownerTwo.post('/api/auth/login', { username: 'owner', pin: '1234', instance: 'vinshop' })).status).toBe(200);
});
afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

async function customer(name: string, client = owner, at = base): Promise<string> {
  const res = await client.post(`${at}/customers`, { name });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function addVehicle(customerId: string, body: Record<string, unknown>): Promise<VehicleView> {
  const res = await owner.post(`${base}/customers/${customerId}/vehicles`, body);
  expect(res.status, res.text).toBe(201);
  return res.body as VehicleView;
}

/** A 409 at the VIN box naming the vehicle (and its customer) that has the VIN. */
function expectTaken(res: { status: number; text: string; body: Record<string, unknown> }, holder: VehicleView, customerName: string) {
  expect(res.status, res.text).toBe(409);
  expect(res.body.message).toContain(`is already on ${holder.label} of ${customerName}`);
  expect(res.body.errors).toEqual([{ field: 'vin', message: res.body.message }]);
  expect(res.body.vehicle).toEqual({ id: holder.id, label: holder.label, customerId: holder.customerId, customerName });
}

describe('one vehicle per VIN', () => {
  test('a second vehicle with a VIN already on one (typed any way) is a 409 naming it; another shop may have it', async () => {
    const ann = await customer('Ann Accord');
    const bob = await customer('Bob Buyer');
    const accord = await addVehicle(ann, { year: 2003, make: 'Honda', model: 'Accord', vin: '1HGCM82653A100001' });
    expectTaken(await owner.post(`${base}/customers/${bob}/vehicles`, { make: 'Honda', vin: '1hgcm 8265-3a100001' }), accord, 'Ann Accord');
    // Not even on the same customer: one car, one record.
    expectTaken(await owner.post(`${base}/customers/${ann}/vehicles`, { vin: '1HGCM82653A100001' }), accord, 'Ann Accord');
    expect((await owner.get(`${base}/customers/${bob}/vehicles`)).body.items).toEqual([]);
    // Tenant B's cars are not tenant A's business (and the 409 would tell them about A's customers).
    const otto = await customer('Otto Other', otherOwner, '/api/vinother');
    const elsewhere = await otherOwner.post(`/api/vinother/customers/${otto}/vehicles`, { vin: '1HGCM82653A100001' });
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });

  test('changing a VIN to one another vehicle has is a 409 (with or without If-Match); the old VIN is free after a change or a deletion', async () => {
    const cal = await customer('Cal Change');
    const first = await addVehicle(cal, { make: 'Ford', vin: '1FTFW1ET9DFC20001' });
    const second = await addVehicle(cal, { make: 'Ford', vin: '1FTFW1ET0DFC20002' });
    expectTaken(await owner.put(`${base}/vehicles/${second.id}`, { vin: '1FTFW1ET9DFC20001' }), first, 'Cal Change');
    expectTaken(await owner.put(`${base}/vehicles/${second.id}`, { vin: '1FTFW1ET9DFC20001' }, { 'if-match': '"0"' }), first, 'Cal Change');
    expect((await owner.get(`${base}/vehicles/${second.id}`)).body).toMatchObject({ vin: '1FTFW1ET0DFC20002', revision: 0 });
    // Saving a vehicle with its own VIN unchanged is no conflict.
    expect((await owner.put(`${base}/vehicles/${first.id}`, { vin: '1FTFW1ET9DFC20001', color: 'Red' })).status).toBe(200);

    // The first gets a corrected VIN: its old one is free for the second.
    expect((await owner.put(`${base}/vehicles/${first.id}`, { vin: '2T1BURHE9JC300001' })).status).toBe(200);
    const moved = await owner.put(`${base}/vehicles/${second.id}`, { vin: '1FTFW1ET9DFC20001' }, { 'if-match': '"0"' });
    expect(moved.status, moved.text).toBe(200);
    // A deleted vehicle's VIN is free again.
    expect((await owner.delete(`${base}/vehicles/${first.id}`)).status).toBe(200);
    expect((await addVehicle(cal, { make: 'Toyota', vin: '2T1BURHE9JC300001' })).vin).toBe('2T1BURHE9JC300001');
  });

  test("a new caller's job whose VIN another vehicle has is a 409 at the VIN box, leaving no customer, job or vehicle behind", async () => {
    const dee = await customer('Dee Driver');
    const civic = await addVehicle(dee, { year: 2007, make: 'Honda', model: 'Civic', vin: '1HGCM82673A100002' });
    const res = await owner.post(`${base}/pipeline`, { name: 'Ned Newcomer', makeModel: '2007 Honda Civic', vin: '1HGCM82673A100002' });
    expectTaken(res, civic, 'Dee Driver');
    expect((await owner.get(`${base}/customers?q=Newcomer`)).body.total).toBe(0);
    expect((await owner.get(`${base}/vehicles?q=1HGCM82673A100002`)).body.items.map((v: VehicleView) => v.id)).toEqual([civic.id]);
    // On the vehicle itself, or for a customer chosen, the VIN is the vehicle's own: no conflict.
    const onIt = await owner.post(`${base}/pipeline`, { part: 'Oil', vehicleId: civic.id });
    expect(onIt.status, onIt.text).toBe(201);
    const chosen = await owner.post(`${base}/pipeline`, { name: 'Dee Driver', customerId: dee, part: 'Oil', vin: '1HGCM82673A100002' });
    expect(chosen.status, chosen.text).toBe(201);
  });

  test('racing requests for one VIN, on two API processes at once: exactly one vehicle gets it', async () => {
    const customers = await Promise.all(Array.from({ length: 8 }, (_, i) => customer(`Racer ${i}`)));
    const results = await Promise.all(
      customers.flatMap((id, i) => [
        (i % 2 === 0 ? owner : ownerTwo).post(`${base}/customers/${id}/vehicles`, { make: 'Toyota', vin: '2T1BURHE0JC300002' }),
        (i % 2 === 0 ? ownerTwo : owner).post(`${base}/pipeline`, { name: `Walk-in ${i}`, makeModel: 'Toyota', vin: '2T1BURHE0JC300002' }),
      ]),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    expect((await owner.get(`${base}/vehicles?q=2T1BURHE0JC300002`)).body.items).toHaveLength(1);
  });

  test('duplicates recorded before VINs were held stay readable and rebuild the same; a new vehicle with that VIN names the oldest', async () => {
    const eve = await customer('Eve Early');
    const fay = await customer('Fay Later');
    const vin = '1G1ZT53816F400001';
    const ids = [randomUUID(), randomUUID()];
    const ctx = { ...systemContext(new Date(), 'old-writer', 'Old writer'), instanceId: shop.id };
    // As a writer before reservations recorded them: two cars with one VIN, no reservation.
    for (const [i, customerId] of [eve, fay].entries()) {
      const created = {
        type: 'VehicleCreated' as const,
        data: { vehicleId: ids[i]!, instanceId: shop.id, customerId, year: 2006, make: 'Chevrolet', model: 'Malibu', trim: '', vin },
      };
      const data = { ...created.data, plate: '', plateState: '', color: '', notes: '' };
      await server.runtime.deps.store.appendMany([
        { streamId: vehicleStream(ids[i]!), events: toNewEvents([{ ...created, data }], ctx), expectedRevision: 'no_stream' },
      ]);
    }
    const found = (await owner.get(`${base}/vehicles?q=${vin}`)).body.items as VehicleView[];
    expect(found.map((v) => v.id).sort()).toEqual([...ids].sort());

    await server.caughtUp();
    const { knex, store } = server.runtime.deps;
    const rebuilt = await rebuildReadModels({ knex, store, projections });
    expect(rebuilt.tables.filter((t) => !t.identical)).toEqual([]);
    expect((await owner.get(`${base}/vehicles?q=${vin}`)).body.items).toHaveLength(2);

    const oldest = found.find((v) => v.id === ids[0])!;
    const gus = await customer('Gus Third');
    expectTaken(await owner.post(`${base}/customers/${gus}/vehicles`, { vin }), oldest, 'Eve Early');
    // Each old record can still be edited; changing one's VIN away leaves the other the only one.
    expect((await owner.put(`${base}/vehicles/${ids[0]}`, { notes: 'Seen twice' })).status).toBe(200);
    expect((await owner.put(`${base}/vehicles/${ids[1]}`, { vin: '' })).status).toBe(200);
    expect((await owner.get(`${base}/vehicles?q=${vin}`)).body.items.map((v: VehicleView) => v.id)).toEqual([ids[0]]);
  });
});
