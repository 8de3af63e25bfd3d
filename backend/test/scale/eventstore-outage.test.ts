import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '@crm/projections/db/embedded';
import { createEventStoreDbEventStore } from '@crm/projections/eventstore/eventstoredb';
import type { EventStore } from '@crm/projections/eventstore/port';
import { createApp } from '../../src/http/app.ts';
import { routeModules } from '../../src/routes.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * EventStoreDB out of reach: the API answers 503 with Retry-After (the client tries again),
 * never 500, and /readyz takes the process out of the load balancer. A second app on the
 * test server's database, whose event store is an EventStoreDB address nothing listens on.
 */

let server: TestServer;
let store: EventStore;
let app: Server;
let url: string;

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'esdbout', { username: 'owner', pin: '2468' });
  store = createEventStoreDbEventStore(`esdb://127.0.0.1:${await freePort()}?tls=false&defaultDeadline=3000`);
  const { app: koa } = createApp({ ...server.runtime.deps, store }, { version: 'test', registerRoutes: routeModules });
  const handle = koa.callback();
  app = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});

afterAll(async () => {
  app?.closeAllConnections();
  await new Promise<void>((resolve) => (app ? app.close(() => resolve()) : resolve()));
  await store?.close();
  await server?.stop();
});

test('a command or a sign-in while EventStoreDB cannot be reached is 503 with Retry-After; /readyz says not ready', async () => {
  // The session lives in PostgreSQL: signed in through the working server, used on this one.
  const owner = await signInUser(server, 'esdbout', 'owner', '2468');
  const client = new ApiClient(url);
  const cookie = { cookie: owner.cookieHeader() };
  for (const res of [
    await client.post('/api/customers', { name: 'Nobody Records This' }, cookie),
    await client.post('/api/auth/login', { instance: 'esdbout', username: 'owner', pin: '2468' }),
  ]) {
    expect(res.status, res.text).toBe(503);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  const ready = await client.get('/readyz');
  expect(ready.status).toBe(503);
  // Reads of the read models go on.
  expect((await client.get('/api/customers', cookie)).status).toBe(200);
});
