import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { createTestInstance, signInSuperAdmin, signInUser, startTestServer, type ApiClient, type TestServer } from './support/server.ts';
import { testEventMetadata } from '@crm/projections/testing/events';

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
          metadata: testEventMetadata(instanceId),
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
  {
    // The repair order's lines live on the job's stream: a line event that fails its schema.
    kind: 'repair order',
    create: async () => (await client.post(`/api/${SHOP}/pipeline`, { name: 'Broken Lines', part: 'Brakes' })).body.id as string,
    stream: (id: string) => `job-${id}`,
    type: 'LineAdded',
    path: (id: string) => `/api/${SHOP}/pipeline/${id}`,
  },
  {
    kind: 'service request',
    create: async () =>
      (await client.post(`/api/${SHOP}/service-requests`, { customerName: 'Broken Request', serviceType: 'Oil Change' })).body.id as string,
    stream: (id: string) => `servicerequest-${id}`,
    type: 'ServiceRequestUpdated',
    path: (id: string) => `/api/${SHOP}/service-requests/${id}`,
    noAsOf: true,
    edit: { additionalNotes: 'Still editable' },
  },
])(
  'a $kind whose history holds an event that fails its schema answers, and says so',
  async ({ create, stream, type, path, noAsOf, edit }) => {
    const id = await create();
    const eventId = await appendBroken(stream(id), type);
    const record = await client.get(path(id));
    expect(record.status, record.text).toBe(200);
    const history = await client.get(`${path(id)}/history`);
    expect(history.status, history.text).toBe(200);
    const entries = (Array.isArray(history.body) ? history.body : history.body.entries) as Array<Record<string, unknown>>;
    expect(entries.find((e) => e.id === eventId)).toMatchObject({ action: 'unshowable' });
    if (!noAsOf) {
      const asOf = await client.get(`${path(id)}?asOf=${encodeURIComponent(new Date().toISOString())}`);
      expect(asOf.status, asOf.text).toBe(200);
    }
    expect((await client.get(`/api/${SHOP}/parked-changes?record=${id}`)).body).toMatchObject({ count: 1 });
    // A command still folds the record from its readable events: the record can be changed.
    const changed = await client.put(path(id), edit ?? { notes: 'Still editable' });
    expect(changed.status, changed.text).toBe(200);
  },
);

test('a repair order whose job stream holds a line event that fails its schema: lines can still be added, its documents still print', async () => {
  const id = (await client.post(`/api/${SHOP}/pipeline`, { name: 'Broken Order', part: 'Brakes' })).body.id as string;
  await appendBroken(`job-${id}`, 'LineAdded');
  const added = await client.post(`/api/${SHOP}/pipeline/${id}/lines`, { kind: 'labor', description: 'Pads', hours: '1', rate: '80.00' });
  expect(added.status, added.text).toBe(201);
  expect((added.body.lines as Array<{ description: string }>).map((l) => l.description)).toEqual(['Pads']);
  const pdf = await client.get(`/api/${SHOP}/pipeline/${id}/estimate.pdf`);
  expect(pdf.status, pdf.text).toBe(200);
});

test('a vehicle whose stream holds an event that fails its schema answers with its jobs, says so, and can still be changed', async () => {
  const customer = (await client.post(`/api/${SHOP}/customers`, { name: 'Broken Vehicle Owner', phone: '5559876543' })).body.id as string;
  const made = await client.post(`/api/${SHOP}/customers/${customer}/vehicles`, { make: 'Ford', model: 'Focus', year: 2015 });
  expect(made.status, made.text).toBe(201);
  const id = made.body.id as string;
  await appendBroken(`vehicle-${id}`, 'VehicleUpdated');
  const vehicle = await client.get(`/api/${SHOP}/vehicles/${id}`);
  expect(vehicle.status, vehicle.text).toBe(200);
  expect(vehicle.body).toMatchObject({ make: 'Ford', model: 'Focus' });
  const jobs = await client.get(`/api/${SHOP}/vehicles/${id}/jobs`);
  expect(jobs.status, jobs.text).toBe(200);
  expect((await client.get(`/api/${SHOP}/customers/${customer}/vehicles`)).status).toBe(200);
  expect((await client.get(`/api/${SHOP}/parked-changes?record=${id}`)).body).toMatchObject({ count: 1 });
  const changed = await client.put(`/api/${SHOP}/vehicles/${id}`, { notes: 'Still editable' });
  expect(changed.status, changed.text).toBe(200);
  expect((await client.get(`/api/${SHOP}/vehicles/${id}`)).body).toMatchObject({ notes: 'Still editable', make: 'Ford' });
});

test("a shop's own history (the provider's) lists an event of its stream that fails its schema, and the shop still changes", async () => {
  const eventId = await appendBroken(`crminstance-${instanceId}`, 'CrmInstanceUpdated');
  const provider = await signInSuperAdmin(server);
  const history = await provider.get(`/api/crm-instances/${instanceId}/history`);
  expect(history.status, history.text).toBe(200);
  expect((history.body as Array<Record<string, unknown>>)[0]).toMatchObject({ id: eventId, action: 'unshowable', changes: [] });
  const changed = await provider.put(`/api/crm-instances/${instanceId}`, { description: 'Still editable' });
  expect(changed.status, changed.text).toBe(200);
  expect((await provider.get(`/api/crm-instances/${instanceId}/history`)).body[0]).toMatchObject({ action: 'updated' });
});
