/**
 * A tenant read is one round trip to PostgreSQL once the session is cached and the pooled
 * connection already holds the caller's instance: counted by wrapping pg.Client#query (every
 * statement knex or the app sends goes through it), with row-level security still binding.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

let server: TestServer;
let owner: ApiClient;
let otherOwner: ApiClient;
let customerId: string;
let sent: string[] | null = null;
const originalQuery = pg.Client.prototype.query;

beforeAll(async () => {
  server = await startTestServer();
  const shop = await createTestInstance(server, 'trips');
  const other = await createTestInstance(server, 'tripsother');
  owner = await signInUser(server, shop.subdomain, shop.admin.username, shop.admin.pin);
  otherOwner = await signInUser(server, other.subdomain, other.admin.username, other.admin.pin);
  const created = await owner.post('/api/customers', { name: 'Round Trip Rita', phone: '5550001111' });
  expect(created.status).toBe(201);
  customerId = created.body.id;
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    sent?.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  };
}, 120_000);

afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await server?.stop();
});

/** The statements one request sent, after the projector has nothing left to do. */
async function statementsOf(request: () => Promise<{ status: number }>, status = 200): Promise<string[]> {
  await server.caughtUp();
  sent = [];
  try {
    expect((await request()).status).toBe(status);
    return sent;
  } finally {
    sent = null;
  }
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

  test('an autocomplete is one round trip', async () => {
    await statementsOf(() => owner.get('/api/customers/search?q=Rita'));
    const trips = await statementsOf(() => owner.get('/api/customers/search?q=Rita'));
    expect(trips, trips.join('\n')).toHaveLength(1);
  }, 60_000);
});
