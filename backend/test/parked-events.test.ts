import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import type { NewEvent } from '@crm/projections/eventstore/port';
import { InlineProjectionError } from '@crm/projections/runtime/inline';
import { listParkedEvents } from '@crm/projections/runtime/parked';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { projections } from '@crm/projections/read-models';
import { createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from './support/server.ts';
import { testEventMetadata } from '@crm/projections/testing/events';

let server: TestServer;
// /metrics on the API port answers only with the token.
const METRICS_TOKEN = 'parked-events-metrics-token';
const metricsText = async () =>
  await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN });
});
afterAll(async () => {
  await server?.stop();
});

test('a poison event is parked: the projector goes on, /readyz and /metrics count it, parked_events names it', async () => {
  const shop = await createTestInstance(server, 'parkshop');
  const client = await signInUser(server, shop.subdomain, 'owner', '1234');
  expect(await metricsText()).toContain('parked_events{checkpoint="main"} 0');

  // An event its schema refuses (written by a buggy or older writer).
  const poison = { id: randomUUID(), stream: `user-${randomUUID()}` };
  const events: NewEvent[] = [
    {
      id: poison.id,
      type: 'UserCreated',
      data: { userId: 'not-a-user', username: 7 },
      metadata: testEventMetadata(shop.id),
    },
  ];
  // The server's own store refuses it: its inline read model (users) cannot take it, so nothing is recorded.
  await expect(server.runtime.deps.store.append(poison.stream, events, { expectedRevision: 'no_stream' })).rejects.toThrow(
    InlineProjectionError,
  );
  expect(await server.runtime.deps.store.readStream(poison.stream)).toEqual([]);
  // A writer that appends without the inline read models (an older version) gets it into the log.
  const writer = createPostgresEventStore({ connectionString: server.runtime.deps.config.DATABASE_URL! });
  try {
    await writer.append(poison.stream, events, { expectedRevision: 'no_stream' });
  } finally {
    await writer.close();
  }

  // What comes after it still reaches the read models (read-your-writes included).
  const res = await client.post('/api/customers', { name: 'After The Poison' });
  expect(res.status, res.text).toBe(201);
  expect((await client.get(`/api/customers/${res.body.id}`)).status).toBe(200);
  // The projector parks the poison event and goes on past it.
  await server.caughtUp();

  const ready = await fetch(`${server.url}/readyz`);
  // Parked events do not take the process out of rotation; they are named.
  expect(ready.status).toBe(200);
  // /readyz counts them without internals; the table (and the log) says what they are.
  expect(((await ready.json()) as { parkedEvents: number }).parkedEvents).toBe(1);
  expect(await listParkedEvents(server.runtime.deps.knex)).toEqual([
    expect.objectContaining({
      checkpoint: 'main',
      eventId: poison.id,
      streamId: poison.stream,
      type: 'UserCreated',
      error: expect.stringContaining('ZodError'),
    }),
  ]);
  expect(await metricsText()).toContain('parked_events{checkpoint="main"} 1');

  // The super admin sees every shop's, with its record, error and time; a shop's admin sees
  // the shop's own; every user of the shop gets a notice on the record; other shops see nothing.
  const parkedView = {
    eventId: poison.id,
    type: 'UserCreated',
    streamId: poison.stream,
    recordId: poison.stream.slice('user-'.length),
    instanceId: shop.id,
    subdomain: shop.subdomain,
    checkpoint: 'main',
    error: expect.stringContaining('ZodError'),
    parkedAt: expect.any(String),
  };
  const superAdmin = await signInSuperAdmin(server);
  expect((await superAdmin.get('/api/crm-instances/parked-events')).body).toEqual([parkedView]);
  expect((await client.get(`/api/${shop.subdomain}/admin/parked-events`)).body).toEqual([parkedView]);
  expect((await client.get(`/api/parked-changes?record=${parkedView.recordId}`)).body).toEqual({
    count: 1,
    lastParkedAt: expect.any(String),
  });
  expect((await client.get(`/api/parked-changes?record=${res.body.id}`)).body).toEqual({ count: 0, lastParkedAt: null });
  expect((await client.get('/api/parked-changes')).status).toBe(400);
  const other = await createTestInstance(server, 'parkother');
  const otherAdmin = await signInUser(server, other.subdomain, 'owner', '1234');
  expect((await otherAdmin.get('/api/admin/parked-events')).body).toEqual([]);
  expect((await otherAdmin.get(`/api/parked-changes?record=${parkedView.recordId}`)).body).toEqual({ count: 0, lastParkedAt: null });

  // A rebuild skips it as the live projector did, and says so: a difference, never "identical".
  const report = await rebuildReadModels({ store: server.runtime.deps.store, knex: server.runtime.deps.knex, projections });
  expect(report.tables.filter((t) => !t.identical)).toEqual([]);
  expect(report.parked).toEqual([
    { eventId: poison.id, streamId: poison.stream, type: 'UserCreated', error: expect.stringContaining('ZodError') },
  ]);
  expect(report.identical).toBe(false);
});
