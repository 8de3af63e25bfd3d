/**
 * A tenant read is one round trip to PostgreSQL once the session is cached and the pooled
 * connection already holds the caller's instance: counted by wrapping pg.Client#query (every
 * statement knex or the app sends goes through it), with row-level security still binding.
 */
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKnex } from '../../src/infra/database.ts';
import { withTenant } from '../../src/infra/tenant-db.ts';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';
import { recordStatements, type StatementRecorder } from '@crm/projections/testing/statement-recorder';

let server: TestServer;
let owner: ApiClient;
let otherOwner: ApiClient;
let customerId: string;
let shopId: string;
let otherId: string;
let otherCustomerId: string;
let recorder: StatementRecorder | undefined;

beforeAll(async () => {
  // No projector, reactors or message sender here: their polling would be counted as the
  // request's statements. The records read below are written with their commands.
  server = await startTestServer({ RUN_PROJECTOR: 'false' });
  const shop = await createTestInstance(server, 'trips');
  const other = await createTestInstance(server, 'tripsother');
  owner = await signInUser(server, shop.subdomain, shop.admin.username, shop.admin.pin);
  otherOwner = await signInUser(server, other.subdomain, other.admin.username, other.admin.pin);
  const created = await owner.post('/api/customers', { name: 'Round Trip Rita', phone: '5550001111' });
  expect(created.status).toBe(201);
  customerId = created.body.id;
  shopId = shop.id;
  otherId = other.id;
  const otherCreated = await otherOwner.post('/api/customers', { name: 'Other Otto', phone: '5550002222' });
  expect(otherCreated.status).toBe(201);
  otherCustomerId = otherCreated.body.id;
  recorder = recordStatements();
}, 120_000);

afterAll(async () => {
  recorder?.stop();
  await server?.stop();
});

/** The statements one request sent. */
async function statementsOf(request: () => Promise<{ status: number }>, status = 200): Promise<string[]> {
  const { result, statements } = await recorder!.during(request);
  expect(result.status).toBe(status);
  return statements;
}

describe('a tenant read', () => {
  test('a record GET is one round trip; another instance on the same pool sets its instance once more', async () => {
    // Warm: the session is cached and the tenant pool's connection holds this instance.
    await statementsOf(() => owner.get(`/api/customers/${customerId}`));
    const again = await statementsOf(() => owner.get(`/api/customers/${customerId}`));
    expect(again, again.join('\n')).toHaveLength(1);
    expect(again[0]).not.toMatch(/\bBEGIN\b|\bCOMMIT\b|SET LOCAL ROLE/i);

    // The other shop's owner gets the same connection: its instance is set, then its query;
    // row-level security still hides this shop's customer.
    await statementsOf(() => otherOwner.get('/api/session'));
    const switched = await statementsOf(() => otherOwner.get(`/api/customers/${customerId}`), 404);
    expect(switched, switched.join('\n')).toHaveLength(2);
    expect(switched[0]).toMatch(/set_config\('app\.instance_id'/);

    // And back: one more setting, then a single round trip again.
    expect(await statementsOf(() => owner.get(`/api/customers/${customerId}`))).toHaveLength(2);
    expect(await statementsOf(() => owner.get(`/api/customers/${customerId}`))).toHaveLength(1);
  }, 60_000);

  test('a customer list page is one round trip, its total included, with a search or without', async () => {
    for (const path of ['/api/customers', '/api/customers?q=Rita']) {
      await statementsOf(() => owner.get(path));
      const trips = await statementsOf(() => owner.get(path));
      expect(trips, trips.join('\n')).toHaveLength(1);
    }
  }, 60_000);

  test('an autocomplete is one round trip', async () => {
    await statementsOf(() => owner.get('/api/customers/search?q=Rita'));
    const trips = await statementsOf(() => owner.get('/api/customers/search?q=Rita'));
    expect(trips, trips.join('\n')).toHaveLength(1);
  }, 60_000);

  test("a pipeline page is one round trip, its jobs' repair-order money included", async () => {
    // A shop of its own: the job brings a customer, which the tests below do not expect.
    const jobShop = await createTestInstance(server, 'tripsjobs');
    const jobOwner = await signInUser(server, jobShop.subdomain, jobShop.admin.username, jobShop.admin.pin);
    const job = await jobOwner.post(`/api/${jobShop.subdomain}/pipeline`, {
      jobNumber: '',
      name: 'Round Trip Rita',
      phone: '5550001111',
      part: 'Brake pads',
      makeModel: '2015 Honda Civic',
      quote: '120',
      stage: 'Quote',
      vin: '',
      csr: '',
      jobType: 'In Shop',
      appointment: '',
      tech: '',
      notes: '',
      createdAt: new Date().toISOString(),
    });
    expect(job.status).toBe(201);
    await statementsOf(() => jobOwner.get(`/api/${jobShop.subdomain}/pipeline`));
    const trips = await statementsOf(() => jobOwner.get(`/api/${jobShop.subdomain}/pipeline`));
    expect(trips, trips.join('\n')).toHaveLength(1);
    expect(trips[0]).toMatch(/job_money/);
  }, 60_000);
});

describe('row-level security on the tenant pool', () => {
  let single: Knex;
  beforeAll(() => {
    // A pool of one: every read below, of either instance, runs on the same connection.
    single = createKnex(server.runtime.deps.config.DATABASE_URL!, 1);
  });
  afterAll(async () => {
    await single?.destroy();
  });

  /** Every customer id a forgetful query (no instance filter) sees for an instance. */
  const visible = (instanceId: string) =>
    withTenant(single, instanceId, async (db) => {
      const rows = (await db.withSchema('rm').from('customers').select('id')) as Array<{ id: string }>;
      return rows.map((row) => row.id).sort();
    });

  test('reads of two instances interleaved on one connection each see only their own rows', async () => {
    const reads = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? otherId : shopId));
    const seen = await Promise.all(reads.map((instance) => visible(instance)));
    seen.forEach((ids, i) => {
      expect(ids, `read ${i}`).toEqual(reads[i] === shopId ? [customerId] : [otherCustomerId]);
    });
  }, 60_000);

  test('a read that fails half-way leaves the connection to the next instance set right', async () => {
    await expect(
      withTenant(single, shopId, async (db) => {
        await db.withSchema('rm').from('customers').select('id');
        await db.raw('SELECT 1 / 0');
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await visible(otherId)).toEqual([otherCustomerId]);

    // A read abandoned while its queries were still queued on the connection: the next
    // instance's setting is queued after them, so neither sees the other's rows.
    const abandoned = withTenant(single, otherId, async (db) => {
      void db
        .withSchema('rm')
        .from('customers')
        .select('id')
        .catch(() => undefined);
      throw new Error('abandoned');
    });
    await expect(abandoned).rejects.toThrow('abandoned');
    expect(await visible(shopId)).toEqual([customerId]);
    expect(await visible(otherId)).toEqual([otherCustomerId]);
  }, 60_000);

  test('a query on the tenant pool cannot write', async () => {
    await expect(
      withTenant(single, shopId, (db) => db.withSchema('rm').from('customers').where('id', customerId).update({ name: 'X' })),
    ).rejects.toThrow(/permission denied/);
    expect(await visible(shopId)).toEqual([customerId]);
  }, 60_000);
});
