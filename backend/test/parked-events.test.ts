import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestInstance, signInUser, startTestServer, type TestServer } from './support/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

test('a poison event is parked: the projector goes on, /readyz names it, /metrics counts it', async () => {
  const shop = await createTestInstance(server, 'parkshop');
  const client = await signInUser(server, shop.subdomain, 'owner', '1234');
  expect(await (await fetch(`${server.url}/metrics`)).text()).toContain('parked_events{checkpoint="main"} 0');

  // An event its schema refuses (written by a buggy or older writer).
  const poison = { id: randomUUID(), stream: `user-${randomUUID()}` };
  await server.runtime.deps.store.append(
    poison.stream,
    [
      {
        id: poison.id,
        type: 'UserCreated',
        data: { userId: 'not-a-user', username: 7 },
        metadata: {
          instanceId: shop.id,
          actor: { kind: 'system', id: 'test', displayName: 'Test' },
          correlationId: randomUUID(),
          causationId: null,
          occurredAt: new Date().toISOString(),
          schemaVersion: 1,
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );

  // What comes after it still reaches the read models (read-your-writes included).
  const res = await client.post('/api/customers', { name: 'After The Poison' });
  expect(res.status, res.text).toBe(201);
  expect((await client.get(`/api/customers/${res.body.id}`)).status).toBe(200);

  const ready = await fetch(`${server.url}/readyz`);
  // Parked events do not take the process out of rotation; they are named.
  expect(ready.status).toBe(200);
  const body = (await ready.json()) as { parkedEvents: unknown[] };
  expect(body.parkedEvents).toEqual([
    expect.objectContaining({
      checkpoint: 'main',
      eventId: poison.id,
      streamId: poison.stream,
      type: 'UserCreated',
      error: expect.stringContaining('ZodError'),
    }),
  ]);
  expect(await (await fetch(`${server.url}/metrics`)).text()).toContain('parked_events{checkpoint="main"} 1');
});
