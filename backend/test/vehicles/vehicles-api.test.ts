import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { VehicleHistoryItem, VehicleView } from '@crm/projections/vehicles';
import { satisfies, type JsonSchema } from '../support/openapi-arbitraries.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let owner: ApiClient;
let otherOwner: ApiClient;
let customerId: string;
const base = '/api/vehshop';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'vehshop', { username: 'owner', pin: '1234' });
  await createTestInstance(server, 'vehother', { username: 'owner', pin: '4321' });
  owner = await signInUser(server, 'vehshop', 'owner', '1234');
  otherOwner = await signInUser(server, 'vehother', 'owner', '4321');
  const customer = await owner.post(`${base}/customers`, { name: 'Pat Truck', phone: '5550001111' });
  expect(customer.status, customer.text).toBe(201);
  customerId = customer.body.id;
});
afterAll(async () => {
  await server?.stop();
});

async function addVehicle(body: Record<string, unknown>, customer = customerId): Promise<VehicleView> {
  const res = await owner.post(`${base}/customers/${customer}/vehicles`, body);
  expect(res.status, res.text).toBe(201);
  return res.body as VehicleView;
}

describe('vehicles', () => {
  test('created on a customer: typed year and make beside what the VIN decodes to, ETag, readable back', async () => {
    const res = await owner.post(`${base}/customers/${customerId}/vehicles`, {
      year: '2004',
      make: 'Honda',
      model: 'Accord',
      trim: 'EX',
      vin: '1hgcm8-2633a004352',
      plate: 'abc 123',
      plateState: 'ca',
      color: 'Silver',
      notes: 'Rattle in the dash',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('etag')).toBe('"0"');
    expect(res.body).toMatchObject({
      customerId,
      customerName: 'Pat Truck',
      label: '2004 Honda Accord EX',
      year: 2004,
      make: 'Honda',
      vin: '1HGCM82633A004352',
      plate: 'ABC 123',
      plateState: 'CA',
      decoded: { year: 2003, make: 'Honda', country: 'United States', checkDigit: 'valid' },
      vinWarning: null,
      lastMileage: null,
      createdBy: 'Owner',
      revision: 0,
    });
    const read = await owner.get(`${base}/vehicles/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const list = await owner.get(`${base}/customers/${customerId}/vehicles`);
    expect(list.body.items.map((v: VehicleView) => v.id)).toContain(res.body.id);
  });

  test('a wrong VIN is a 400 naming the problem; unknown fields and bad years too', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ vin: 'abc' }, /VIN must be 17 characters \(this one has 3\)/],
      [{ vin: '1HGCM82633A004353' }, /check digit is wrong/],
      [{ vin: '1HGCM82633A00435O' }, /I, O or Q/],
      [{ make: 'Ford', year: 1700 }, /Year must be a year from 1900 to 2100/],
      [{ make: 'Ford', wheels: 4 }, /wheels|Unrecognized/i],
      [{ color: 'Red' }, /at least one of year, make, model, VIN or plate/],
    ];
    for (const [body, message] of cases) {
      const res = await owner.post(`${base}/customers/${customerId}/vehicles`, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });

  test('a VIN from outside North America with no check digit is kept, with a warning', async () => {
    const vehicle = await addVehicle({ vin: 'WVWZZZ1JZXW000001' });
    expect(vehicle).toMatchObject({ decoded: { make: 'Volkswagen', year: 1999, checkDigit: 'not-verified' } });
    expect(vehicle.vinWarning).toMatch(/not verified/);
  });

  test('found by whole VIN, its last 6 or 8 characters, or plate', async () => {
    const vehicle = await addVehicle({ make: 'Chevrolet', vin: '1G1ZT53826F109149', plate: 'ZX-9 TRK' });
    for (const q of ['1G1ZT53826F109149', '109149', 'F109149'.padStart(8, '6'), 'zx9trk', 'ZX-9', '9 trk']) {
      const res = await owner.get(`${base}/vehicles?q=${encodeURIComponent(q)}`);
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.items.map((v: VehicleView) => v.id),
        q,
      ).toContain(vehicle.id);
    }
    expect((await owner.get(`${base}/vehicles?q=09149`)).body.items.map((v: VehicleView) => v.id)).not.toContain(vehicle.id);
    expect((await owner.get(`${base}/vehicles?q=x`)).status).toBe(400);
    expect((await otherOwner.get(`/api/vehother/vehicles?q=109149`)).body.items).toEqual([]);
  });

  test('search text of fewer than two characters once trimmed is a 400, and the API document refuses it too', async () => {
    const document = (await new ApiClient(server.url).get('/api/openapi.json')).body;
    const parameters = document.paths['/api/{instance}/vehicles'].get.parameters as Array<{ name: string; schema: JsonSchema }>;
    const documented = parameters.find((parameter) => parameter.name === 'q')!.schema;
    for (const q of ['x', ' x', 'x ', ' x ', '\tx\n', '  ']) {
      const res = await owner.get(`${base}/vehicles?q=${encodeURIComponent(q)}`);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body.detail, JSON.stringify(q)).toMatch(/at least 2 characters/);
      expect(satisfies(q, documented), JSON.stringify(q)).toBe(false);
    }
    for (const q of ['ab', ' ab ', 'a b', '\tzx9\n']) {
      expect((await owner.get(`${base}/vehicles?q=${encodeURIComponent(q)}`)).status, JSON.stringify(q)).toBe(200);
      expect(satisfies(q, documented), JSON.stringify(q)).toBe(true);
    }
  });

  test('updated with If-Match; a stale revision is a 409 with the vehicle as it is now', async () => {
    const vehicle = await addVehicle({ year: 2015, make: 'Ford', model: 'F-150' });
    const res = await owner.put(`${base}/vehicles/${vehicle.id}`, { trim: 'XLT', notes: 'New tires' }, { 'if-match': '"0"' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ label: '2015 Ford F-150 XLT', notes: 'New tires', revision: 1 });
    expect(res.headers.get('etag')).toBe('"1"');
    const stale = await owner.put(`${base}/vehicles/${vehicle.id}`, { color: 'Blue' }, { 'if-match': '"0"' });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.current).toMatchObject({ id: vehicle.id, revision: 1 });
    const bad = await owner.put(`${base}/vehicles/${vehicle.id}`, { vin: '1FTFW1ET5DFC10312' });
    expect(bad.status).toBe(400);
    const history = await owner.get(`${base}/vehicles/${vehicle.id}/jobs`);
    expect(history.status).toBe(200);
    expect(history.body.items.map((item: { title: string }) => item.title)).toEqual(['Note', 'Vehicle added']);
  });

  test('deleted: gone from its customer, 404 after', async () => {
    const vehicle = await addVehicle({ make: 'Kia' });
    expect((await owner.delete(`${base}/vehicles/${vehicle.id}`)).status).toBe(200);
    expect((await owner.get(`${base}/vehicles/${vehicle.id}`)).status).toBe(404);
    expect((await owner.get(`${base}/vehicles/${vehicle.id}/jobs`)).status).toBe(404);
    const list = await owner.get(`${base}/customers/${customerId}/vehicles`);
    expect(list.body.items.map((v: VehicleView) => v.id)).not.toContain(vehicle.id);
  });

  test("another shop's vehicles and customers are not found", async () => {
    const vehicle = await addVehicle({ make: 'Mazda' });
    expect((await otherOwner.get(`/api/vehother/vehicles/${vehicle.id}`)).status).toBe(404);
    expect((await otherOwner.put(`/api/vehother/vehicles/${vehicle.id}`, { make: 'X' })).status).toBe(404);
    expect((await otherOwner.delete(`/api/vehother/vehicles/${vehicle.id}`)).status).toBe(404);
    expect((await otherOwner.post(`/api/vehother/customers/${customerId}/vehicles`, { make: 'X' })).status).toBe(404);
    expect((await otherOwner.get(`/api/vehshop/vehicles/${vehicle.id}`)).status).toBe(404);
  });
});

describe('jobs on vehicles', () => {
  test('a job on a vehicle takes its customer, name and VIN, records mileage, and shows on the vehicle page', async () => {
    const vehicle = await addVehicle({ year: 2003, make: 'Honda', model: 'Accord', vin: '1HGCM82653A100001' });
    const created = await owner.post(`${base}/pipeline`, {
      part: 'Brakes',
      vehicleId: vehicle.id,
      mileageIn: '120,000',
      mileageOut: 120_030,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      customerId,
      vehicleId: vehicle.id,
      makeModel: '2003 Honda Accord',
      vin: '1HGCM82653A100001',
      mileageIn: 120_000,
      mileageOut: 120_030,
    });
    expect((await owner.get(`${base}/vehicles/${vehicle.id}`)).body.lastMileage).toBe(120_030);

    // Lower than the last reading: refused until confirmed with a reason.
    const lower = await owner.post(`${base}/pipeline`, { part: 'Oil', vehicleId: vehicle.id, mileageIn: 90_000 });
    expect(lower.status, lower.text).toBe(400);
    expect(lower.body.message).toMatch(/lower than this vehicle's last reading, 120,030/);
    expect(lower.body).toMatchObject({ needsReason: true, lastMileage: 120_030 });
    const confirmed = await owner.post(`${base}/pipeline`, {
      part: 'Oil',
      vehicleId: vehicle.id,
      mileageIn: 90_000,
      mileageLowerReason: 'Odometer replaced',
    });
    expect(confirmed.status, confirmed.text).toBe(201);
    expect((await owner.get(`${base}/vehicles/${vehicle.id}`)).body.lastMileage).toBe(90_000);

    // An update that reads it higher needs nothing; out below in is a 400.
    const update = await owner.put(`${base}/pipeline/${confirmed.body.id}`, { mileageOut: 90_100 });
    expect(update.status, update.text).toBe(200);
    expect((await owner.put(`${base}/pipeline/${confirmed.body.id}`, { mileageOut: 80_000 })).status).toBe(400);

    const history = await owner.get(`${base}/vehicles/${vehicle.id}/jobs`);
    const jobs = history.body.items.filter((item: { kind: string }) => item.kind === 'job');
    expect(jobs.map((job: { id: string }) => job.id).sort()).toEqual([created.body.id, confirmed.body.id].sort());
    expect(jobs.find((job: { id: string }) => job.id === confirmed.body.id)).toMatchObject({ mileageIn: 90_000, mileageOut: 90_100 });
    expect(history.body.items.map((item: { title: string }) => item.title)).toContain('Lower mileage confirmed');
  });

  test("a new caller's job: the Vehicle and VIN typed become the new customer's vehicle record, the job on it with its mileage", async () => {
    const created = await owner.post(`${base}/pipeline`, {
      name: 'Walter Wheeler',
      phone: '3125550142',
      makeModel: '2016 Honda Civic',
      vin: '1hgcm82673a100002',
      mileageIn: '84,210',
    });
    expect(created.status, created.text).toBe(201);
    const { customerId: walter, vehicleId } = created.body;
    expect(walter).toBeTruthy();
    expect(vehicleId).toBeTruthy();
    const vehicles = await owner.get(`${base}/customers/${walter}/vehicles`);
    expect(vehicles.status, vehicles.text).toBe(200);
    expect(vehicles.body.items).toHaveLength(1);
    expect(vehicles.body.items[0]).toMatchObject({
      id: vehicleId,
      year: 2016,
      make: 'Honda',
      model: 'Civic',
      vin: '1HGCM82673A100002',
      lastMileage: 84_210,
    });
    const jobs = await owner.get(`${base}/vehicles/${vehicleId}/jobs`);
    expect(jobs.body.items.filter((item: { kind: string }) => item.kind === 'job').map((item: { id: string }) => item.id)).toEqual([
      created.body.id,
    ]);

    // A VIN that does not check out stays on the job's text only; a job naming no vehicle makes none.
    const typo = await owner.post(`${base}/pipeline`, { name: 'Tina Typo', makeModel: 'Civic', vin: '1HGCM82633A00435' });
    expect(typo.status, typo.text).toBe(201);
    expect(typo.body.vin).toBe('1HGCM82633A00435');
    const typoVehicles = await owner.get(`${base}/customers/${typo.body.customerId}/vehicles`);
    expect(typoVehicles.body.items).toMatchObject([{ id: typo.body.vehicleId, model: 'Civic', vin: '' }]);
    const bare = await owner.post(`${base}/pipeline`, { name: 'Nora None', part: 'Wipers' });
    expect(bare.status, bare.text).toBe(201);
    expect(bare.body.vehicleId).toBeNull();
    expect((await owner.get(`${base}/customers/${bare.body.customerId}/vehicles`)).body.items).toEqual([]);
  });

  test('a vehicle of another customer, or no vehicle at all, is refused naming vehicleId', async () => {
    const other = await owner.post(`${base}/customers`, { name: 'Someone Else' });
    const vehicle = await addVehicle({ make: 'Subaru' });
    const res = await owner.post(`${base}/pipeline`, { customerId: other.body.id, vehicleId: vehicle.id });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].field).toBe('vehicleId');
    const missing = await owner.post(`${base}/pipeline`, { vehicleId: '00000000-0000-4000-8000-000000000999' });
    expect(missing.status, missing.text).toBe(400);
    const foreign = await otherOwner.post(`/api/vehother/pipeline`, { vehicleId: vehicle.id });
    expect(foreign.status, foreign.text).toBe(400);
  });

  test("the vehicle's history lists each job's estimates and invoices, newest first, with the job's mileage", async () => {
    const vehicle = await addVehicle({ year: 2012, make: 'Mazda', model: '3' });
    const created = await owner.post(`${base}/pipeline`, { vehicleId: vehicle.id, part: 'Struts', mileageIn: '64000' });
    expect(created.status, created.text).toBe(201);
    const job = `${base}/pipeline/${created.body.id}`;
    const ifMatch = async () => ({ 'if-match': `"${(await owner.get(job)).body.revision}"` });
    const line = await owner.post(`${job}/lines`, { kind: 'fee', description: 'Alignment', amount: '80' }, await ifMatch());
    expect(line.status, line.text).toBe(201);
    const sent = await owner.post(`${job}/estimate/send`, {}, await ifMatch());
    expect(sent.status, sent.text).toBe(201);
    const invoiced = await owner.post(`${job}/invoice`, {}, await ifMatch());
    expect(invoiced.status, invoiced.text).toBe(201);

    const items = (await owner.get(`${base}/vehicles/${vehicle.id}/jobs`)).body.items as VehicleHistoryItem[];
    const ofJob = items.filter((item) => item.jobId === created.body.id);
    expect(ofJob.map((item) => item.kind).sort()).toEqual(['estimate', 'invoice', 'job']);
    const invoice = ofJob.find((item) => item.kind === 'invoice')!;
    const estimate = ofJob.find((item) => item.kind === 'estimate')!;
    expect(invoice).toMatchObject({ quote: '80', mileageIn: 64000, title: expect.stringMatching(/^Invoice #\d+ for job #/) });
    expect(estimate).toMatchObject({ quote: '80', mileageIn: 64000, title: expect.stringMatching(/^Estimate v1 for job #/) });
    // Newest first: the invoice came after the estimate.
    expect(items.indexOf(invoice)).toBeLessThan(items.indexOf(estimate));
    expect(items.map((item) => item.at)).toEqual([...items.map((item) => item.at)].sort().reverse());
  });
  test('a job booked for later is an upcoming visit with its appointment, never dated in the future; a past appointment dates the job', async () => {
    const vehicle = await addVehicle({ year: 2018, make: 'Toyota', model: 'Tacoma' });
    const future = new Date(Date.now() + 7 * 24 * 3600_000);
    future.setUTCSeconds(0, 0);
    const booked = await owner.post(`${base}/pipeline`, { vehicleId: vehicle.id, part: 'Brakes', appointment: future.toISOString() });
    expect(booked.status, booked.text).toBe(201);
    const done = await owner.post(`${base}/pipeline`, { vehicleId: vehicle.id, part: 'Oil', appointment: '2025-03-01T09:00:00Z' });
    expect(done.status, done.text).toBe(201);

    const res = await owner.get(`${base}/vehicles/${vehicle.id}/jobs`);
    expect(res.status, res.text).toBe(200);
    const items = res.body.items as VehicleHistoryItem[];
    const upcoming = items.find((item) => item.id === booked.body.id)!;
    expect(upcoming).toMatchObject({ kind: 'job', upcoming: true, appointment: future.toISOString() });
    expect(new Date(upcoming.at).getTime()).toBeLessThanOrEqual(Date.now());
    expect(items.find((item) => item.id === done.body.id)).toMatchObject({
      upcoming: false,
      appointment: '2025-03-01T09:00:00.000Z',
      at: '2025-03-01T09:00:00.000Z',
    });
    expect(items.filter((item) => item.kind === 'vehicle')).toMatchObject([{ upcoming: false, appointment: null }]);
  });
});
