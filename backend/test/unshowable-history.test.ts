import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from './support/server.ts';

/**
 * A record whose stream holds an event its schema refuses (written by a buggy or older
 * writer, straight into the log): its page, history and time travel still answer, the
 * entry shows as a change that could not be shown, and the record carries the notice.
 */

let server: TestServer;
let client: ApiClient;
let instanceId: string;
const SHOP = 'unshowable';

beforeAll(async () => {
  server = await startTestServer();
  const shop = await createTestInstance(server, SHOP);
  instanceId = shop.id;
  client = await signInUser(server, SHOP, 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

/** Appends an event the schema refuses to a record's stream, past the server's own checks. */
async function appendBroken(stream: string, type: string): Promise<string> {
  const writer = createPostgresEventStore({ connectionString: server.runtime.deps.config.DATABASE_URL! });
  const id = randomUUID();
  try {
    await writer.append(
      stream,
      [
        {
          id,
          type,
          data: { broken: true, name: 7, instanceId },
          metadata: {
            instanceId,
            actor: { kind: 'system', id: 'test', displayName: 'Test' },
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: new Date().toISOString(),
            schemaVersion: 1,
          },
        },
      ],
      { expectedRevision: 'any' },
    );
  } finally {
    await writer.close();
  }
  await server.caughtUp();
  return id;
}

test.each([
  {
    kind: 'customer',
    create: async () => (await client.post(`/api/${SHOP}/customers`, { name: 'Broken History', phone: '5551234567' })).body.id as string,
    stream: (id: string) => `customer-${id}`,
    type: 'CustomerUpdated',
    path: (id: string) => `/api/${SHOP}/customers/${id}`,
  },
  {
    kind: 'job',
    create: async () => (await client.post(`/api/${SHOP}/pipeline`, { name: 'Broken Job', part: 'Brakes' })).body.id as string,
    stream: (id: string) => `job-${id}`,
    type: 'JobUpdated',
    path: (id: string) => `/api/${SHOP}/pipeline/${id}`,
  },
])('a $kind whose history holds an event that fails its schema answers, and says so', async ({ create, stream, type, path }) => {
  const id = await create();
  const eventId = await appendBroken(stream(id), type);
  const record = await client.get(path(id));
  expect(record.status, record.text).toBe(200);
  const history = await client.get(`${path(id)}/history`);
  expect(history.status, history.text).toBe(200);
  const entries = (Array.isArray(history.body) ? history.body : history.body.entries) as Array<Record<string, unknown>>;
  expect(entries.find((e) => e.id === eventId)).toMatchObject({ action: 'unshowable' });
  const asOf = await client.get(`${path(id)}?asOf=${encodeURIComponent(new Date().toISOString())}`);
  expect(asOf.status, asOf.text).toBe(200);
  expect((await client.get(`/api/${SHOP}/parked-changes?record=${id}`)).body).toMatchObject({ count: 1 });
  // A command still folds the record from its readable events: the record can be changed.
  const changed = await client.put(path(id), { notes: 'Still editable' });
  expect(changed.status, changed.text).toBe(200);
});
