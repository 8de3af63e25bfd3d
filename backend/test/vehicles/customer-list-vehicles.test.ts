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

    for (const q of ['Cross Country', 'volvo v60', '2021 Volvo', 'YV4102WK5M1234567', '1234567', 'yv4102']) {
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

    expect((await owner.delete(`${base}/vehicles/${wagon.id}`)).status).toBe(200);
    expect(await cards('Cross Country')).toEqual({});
  });
});

const CUSTOMERS = 20_000;

test(`the list and the autocomplete read a search among ${CUSTOMERS.toLocaleString('en-US')} customers with a vehicle each through indexes`, async () => {
  const knex = server.runtime.deps.knex;
  // Straight into the read model: the plan is what is looked at, not the projector.
  await knex.raw(
    `INSERT INTO rm.customers (id, instance_id, number, name, phone, email, address, vehicles, past_appointments, invoices, notes,
       created_at, created_by, last_modified_at, last_modified_by, revision)
     SELECT gen_random_uuid(), ?::uuid, i, 'Bulk ' || i, '312555' || lpad(i::text, 4, '0'), '', '', 'Old Car ' || i, '', '', '',
       now() - i * interval '1 minute', 'Owner', now(), 'Owner', 0
       FROM generate_series(1, ?) AS i`,
    [planShop.id, CUSTOMERS],
  );
  await knex.raw(
    `INSERT INTO rm.vehicles (id, instance_id, customer_id, year, make, model, trim, vin, plate, plate_state, color, notes,
       created_at, created_by, last_modified_at, last_modified_by, revision)
     SELECT gen_random_uuid(), instance_id, id, 2010 + number % 15, 'Make' || number % 40, 'Model' || number, '', '', '', '', '', '',
       created_at, 'Owner', now(), 'Owner', 0
       FROM rm.customers WHERE instance_id = ?`,
    [planShop.id],
  );
  await knex.raw(
    `INSERT INTO rm.customer_vehicle_labels (instance_id, customer_id, vehicle_id, label)
     SELECT instance_id, customer_id, id, year || ' ' || make || ' ' || model FROM rm.vehicles WHERE instance_id = ?`,
    [planShop.id],
  );
  for (const table of ['customers', 'vehicles', 'customer_vehicle_labels']) await knex.raw(`ANALYZE rm.${table}`);
  const planOf = async (statement: { text: string; values: unknown[] }) => {
    const rows = await tenantRows<{ 'QUERY PLAN': string }>(knex, planShop.id, `EXPLAIN ${statement.text}`, statement.values);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  };
  // The customers' own search is as it was (PostgreSQL picks its trigram index or, on a table
  // this small, a scan); the vehicles are read by their indexes only.
  for (const search of ['model1234', 'bulk 1234', '5551234']) {
    const list = await planOf(customerListStatement(planShop.id, { search, limit: 24, cursor: null }));
    const suggest = await planOf(customerSuggestStatement(planShop.id, search)!);
    for (const plan of [list, suggest]) {
      expect(plan, search).not.toMatch(/Seq Scan on vehicles/);
      expect(plan, search).toContain('Bitmap Index Scan on vehicles_search_idx');
      expect(plan, search).toMatch(/Index Scan (Backward )?using vehicles_instance_id_customer_id_created_at_idx/);
      expect(plan, search).toMatch(/Index Scan.* customer_vehicle_labels_pkey/);
      expect(plan, search).not.toMatch(/Seq Scan on customer_vehicle_labels/);
    }
  }
  // The page without a search reads each card's vehicles by its customer.
  const page = await planOf(customerListStatement(planShop.id, { search: '', limit: 24, cursor: null }));
  expect(page).not.toMatch(/Seq Scan on vehicles/);
  expect(page).toMatch(/Index Scan (Backward )?using vehicles_instance_id_customer_id_created_at_idx/);
});
