import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { createCustomer, type NewCustomerInput } from '../../src/customers/index.ts';
import { customerListStatement, customerSuggestStatement } from '../../src/customers/customer-queries.ts';
import { tenantRows } from '../../src/infra/tenant-db.ts';
import { systemContext } from '../../src/shared/commands.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestInstance, type TestServer } from '../support/server.ts';

/** The customer list's card and its search read the customer's vehicle records, not only the text typed on the customer. */
let server: TestServer;
let shop: TestInstance;
let planShop: TestInstance;
let owner: ApiClient;
let otherOwner: ApiClient;
const base = '/api/listvehicles';

beforeAll(async () => {
  server = await startTestServer();
  shop = await createTestInstance(server, 'listvehicles');
  await createTestInstance(server, 'listvehother');
  planShop = await createTestInstance(server, 'listvehplan');
  owner = await signInUser(server, 'listvehicles', 'owner', '1234');
  otherOwner = await signInUser(server, 'listvehother', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

/** A customer as one was made before typed vehicles became records: its labels only. */
async function labelledCustomer(input: NewCustomerInput): Promise<string> {
  const ctx = { ...systemContext(new Date(), 'list-vehicles-test', 'Test'), instanceId: shop.id };
  const { customerId } = await createCustomer(server.runtime.deps, input, ctx);
  await server.caughtUp();
  return customerId;
}

async function addVehicle(customerId: string, body: Record<string, unknown>): Promise<{ id: string; revision: number }> {
  const res = await owner.post(`${base}/customers/${customerId}/vehicles`, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The customers a search finds, by name, and the vehicles each one's card lists. */
async function cards(q: string, client = owner, path = base): Promise<Record<string, string[]>> {
  const res = await client.get(`${path}/customers?q=${encodeURIComponent(q)}`);
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries(res.body.items.map((c: { name: string; vehicleList: string[] }) => [c.name, c.vehicleList]));
}

async function suggestions(q: string): Promise<Record<string, string[]>> {
  const res = await owner.get(`${base}/customers/search?q=${encodeURIComponent(q)}`);
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries(res.body.map((c: { name: string; vehicles: string[] }) => [c.name, c.vehicles]));
}

describe("the customer list's vehicles", () => {
  test('the card lists the typed vehicles in their order, each read through its record, then the records added on their own; once each; renamed and deleted records read as they are now', async () => {
    // An old customer: two typed vehicles without records, one of them typed twice.
    const olga = await labelledCustomer({ name: 'Olga Oldlabels', vehicles: ['Civic', '2012 Honda  Fit', 'civic'] });
    expect(await cards('Olga')).toEqual({ 'Olga Oldlabels': ['Civic', '2012 Honda  Fit'] });

    // A record added on the vehicle form is on the card, after the typed ones; one with the label of a typed vehicle stands for it.
    await addVehicle(olga, { year: 2019, make: 'Subaru', model: 'Outback', trim: 'Touring', vin: '4S4BSANC8K3123456' });
    await addVehicle(olga, { year: 2012, make: 'Honda', model: 'Fit' });
    expect(await cards('Olga')).toEqual({ 'Olga Oldlabels': ['Civic', '2012 Honda Fit', '2019 Subaru Outback Touring'] });

    // A vehicle typed on the customer form becomes a record: renamed on its page, the card reads the new name only.
    const created = await owner.post(`${base}/customers`, { name: 'Rita Renamed', vehicles: ['2015 Ford F-150', 'Plate only'] });
    expect(created.status, created.text).toBe(201);
    const rita = created.body.id as string;
    const ritaVehicles = (await owner.get(`${base}/customers/${rita}/vehicles`)).body.items as Array<{ id: string; label: string }>;
    const f150 = ritaVehicles.find((v) => v.label === '2015 Ford F-150')!;
    const plateOnly = ritaVehicles.find((v) => v.label === 'Plate only')!;
    const renamed = await owner.put(`${base}/vehicles/${f150.id}`, { model: 'Ranger' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await owner.delete(`${base}/vehicles/${plateOnly.id}`)).status).toBe(200);
    expect(await cards('Rita')).toEqual({ 'Rita Renamed': ['2015 Ford Ranger'] });
    // The typed text stays on the customer, as stored.
    expect((await owner.get(`${base}/customers/${rita}`)).body.vehicles).toBe('2015 Ford F-150, Plate only');

    // A deleted record added on the vehicle form leaves the card.
    const extra = await addVehicle(rita, { make: 'Kia', model: 'Soul' });
    expect((await cards('Rita'))['Rita Renamed']).toEqual(['2015 Ford Ranger', 'Kia Soul']);
    expect((await owner.delete(`${base}/vehicles/${extra.id}`)).status).toBe(200);
    expect(await cards('Rita')).toEqual({ 'Rita Renamed': ['2015 Ford Ranger'] });

    // The autocomplete shows the same vehicles.
    expect(await suggestions('Olga')).toEqual({ 'Olga Oldlabels': ['Civic', '2012 Honda Fit', '2019 Subaru Outback Touring'] });

    // A rebuild of the read models gives the same tables and the same cards.
    await server.caughtUp();
    const { knex, store } = server.runtime.deps;
    const report = await rebuildReadModels({ knex, store, projections });
    expect(report.tables.filter((t) => !t.identical)).toEqual([]);
    expect(await cards('Rita')).toEqual({ 'Rita Renamed': ['2015 Ford Ranger'] });
  });

  test("the search finds a customer by a vehicle record's year, make, model and VIN, not by another shop's; a deleted record no longer finds them", async () => {
    const vera = await labelledCustomer({ name: 'Vera Vinfinder' });
    await labelledCustomer({ name: 'Norm Novehicle', vehicles: [] });
    const wagon = await addVehicle(vera, { year: 2021, make: 'Volvo', model: 'V60 Cross Country', vin: 'YV4102WK5M1234567' });

    const plated = await addVehicle(vera, { make: 'Mini', plate: '7QRZ314' });
    for (const q of ['Cross Country', 'volvo v60', '2021 Volvo', 'YV4102WK5M1234567', '1234567', 'yv4102', '7qrz3']) {
      expect(Object.keys(await cards(q)), q).toEqual(['Vera Vinfinder']);
    }
    expect(Object.keys(await suggestions('v60 cross'))).toEqual(['Vera Vinfinder']);
    // The count counts the customer once, however many of their vehicles match.
    await addVehicle(vera, { year: 2016, make: 'Volvo', model: 'XC90' });
    const page = await owner.get(`${base}/customers?q=volvo`);
    expect(page.body.total).toBe(1);
    expect(page.body.items.map((c: { name: string }) => c.name)).toEqual(['Vera Vinfinder']);

    // Another shop's search finds nothing of it.
    expect(await cards('Volvo', otherOwner, '/api/listvehother')).toEqual({});

    // A change of a record's VIN or plate is found at once, the old one no longer.
    expect((await owner.put(`${base}/vehicles/${plated.id}`, { plate: '8XYW271' })).status).toBe(200);
    expect(await cards('7QRZ314')).toEqual({});
    expect(Object.keys(await cards('8xyw271'))).toEqual(['Vera Vinfinder']);

    expect((await owner.delete(`${base}/vehicles/${wagon.id}`)).status).toBe(200);
    expect(await cards('Cross Country')).toEqual({});
  });
});

test('vehicles added to one customer at once, each in its own append, are all on the card', async () => {
  const customers = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const res = await owner.post(`${base}/customers`, { name: `Concurrent Carla ${i}` });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    }),
  );
  const models = ['Alpha', 'Bravo', 'Charlie'];
  await Promise.all(customers.flatMap((id) => models.map((model) => addVehicle(id, { make: 'Racer', model }))));
  const listed = await cards('Concurrent Carla');
  expect(Object.values(listed).map((list) => [...list].sort())).toEqual(customers.map(() => models.map((m) => `Racer ${m}`)));
});

const CUSTOMERS = 20_000;

test(`the list and the autocomplete read a search among ${CUSTOMERS.toLocaleString('en-US')} customers with a vehicle each from the customers' rows alone`, async () => {
  const knex = server.runtime.deps.knex;
  // Straight into the read model: the plan is what is looked at, not the projector.
  await knex.raw(
    `INSERT INTO rm.customers (id, instance_id, number, name, phone, email, address, vehicles, past_appointments, invoices, notes,
       created_at, created_by, last_modified_at, last_modified_by, revision, vehicle_list, vehicle_search)
     SELECT gen_random_uuid(), ?::uuid, i, 'Bulk ' || i, '312555' || lpad(i::text, 4, '0'), '', '', 'Old Car ' || i, '', '', '',
       now() - i * interval '1 minute', 'Owner', now(), 'Owner', 0,
       json_build_array('Old Car ' || i, (2010 + i % 15) || ' Make' || i % 40 || ' Model' || i),
       (2010 + i % 15) || ' make' || i % 40 || ' model' || i
       FROM generate_series(1, ?) AS i`,
    [planShop.id, CUSTOMERS],
  );
  await knex.raw('ANALYZE rm.customers');
  const planOf = async (statement: { text: string; values: unknown[] }) => {
    const rows = await tenantRows<{ 'QUERY PLAN': string }>(knex, planShop.id, `EXPLAIN ${statement.text}`, statement.values);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  };
  // A card and a search read the customers' rows only: no vehicle table, no union of two searches.
  for (const search of ['model1234', 'bulk 1234', '5551234', '']) {
    const list = await planOf(customerListStatement(planShop.id, { search, limit: 24, cursor: null }));
    const plans = search ? [list, await planOf(customerSuggestStatement(planShop.id, search)!)] : [list];
    for (const plan of plans) {
      expect(plan, search).not.toMatch(/vehicles|customer_vehicle_labels/);
      expect(plan, search).not.toMatch(/HashAggregate|Append|Unique/);
    }
  }
  // A vehicle's text is found on its customer's row.
  const found = customerSuggestStatement(planShop.id, 'model19999')!;
  const [row] = await tenantRows<{ items: string }>(knex, planShop.id, found.text, found.values);
  expect(JSON.parse(row!.items)).toMatchObject([
    { name: 'Bulk 19999', vehicles: ['Old Car 19999', `${2010 + (19999 % 15)} Make${19999 % 40} Model19999`] },
  ]);
});
