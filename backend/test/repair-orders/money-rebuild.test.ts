import { afterAll, beforeAll, expect, test } from 'vitest';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/**
 * A job's money rows (job_money, invoices, payments) key on the job, not on its customer: a
 * merge moves the job to another customer and the money stays right, and a rebuild from the
 * events writes exactly the tables the live projections wrote.
 */

const SHOP = 'moneymerge';
const P = `/api/${SHOP}`;
let server: TestServer;
let owner: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, SHOP, { username: 'owner', pin: '1234' });
  owner = await signInUser(server, SHOP, 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

test("after a customer merge, the money tables and their rebuild are the same, and the job's money reads the same", async () => {
  const from = await owner.post(`${P}/customers`, { name: 'Sam Duplicate', phone: '5550109988' });
  const into = await owner.post(`${P}/customers`, { name: 'Sam Original', phone: '5550109988' });
  for (const created of [from, into]) expect(created.status, created.text).toBe(201);
  const job = await owner.post(`${P}/pipeline`, { name: 'Sam Duplicate', customerId: from.body.id });
  expect(job.status, job.text).toBe(201);
  const jobPath = `${P}/pipeline/${job.body.id}`;
  expect((await owner.post(`${jobPath}/lines`, { kind: 'part', description: 'Pads', unitPrice: '80' })).status).toBe(201);
  const invoiced = await owner.post(`${jobPath}/invoice`, {});
  expect(invoiced.status, invoiced.text).toBeLessThan(300);
  const paid = await owner.post(`${jobPath}/payments`, { amount: '30', method: 'cash' });
  expect(paid.status, paid.text).toBe(201);

  const merged = await owner.post(`${P}/customers/${from.body.id}/merge`, { intoId: into.body.id });
  expect(merged.status, merged.text).toBe(200);
  expect(merged.body.jobsMoved).toBe(1);
  // A payment after the merge too: the live projection applies it to the moved job.
  expect((await owner.post(`${jobPath}/payments`, { amount: '20', method: 'card' })).status).toBe(201);

  const { knex, store } = server.runtime.deps;
  const columns = await knex('information_schema.columns')
    .where({ table_schema: 'rm', column_name: 'customer_id' })
    .whereIn('table_name', ['job_money', 'invoices', 'payments'])
    .select('table_name');
  expect(columns).toEqual([]);
  const moved = await owner.get(jobPath);
  expect(moved.body).toMatchObject({ customerId: into.body.id });
  expect(moved.body.totals).toMatchObject({ paid: '50.00' });

  const report = await rebuildReadModels({ knex, store, projections });
  expect(report.tables.map((table) => table.table)).toEqual(expect.arrayContaining(['job_money', 'invoices', 'payments']));
  expect(report.tables.filter((table) => !table.identical)).toEqual([]);
  expect((await owner.get(jobPath)).body.totals).toEqual(moved.body.totals);
});
