import { afterAll, beforeAll, expect, test } from 'vitest';
import { routeStatuses } from '../../src/http/statuses.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestInstance, type TestServer } from '../support/server.ts';

let server: TestServer;
let shop: TestInstance;
let admin: ApiClient;
let document: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
beforeAll(async () => {
  server = await startTestServer();
  shop = await createTestInstance(server, 'statusshop');
  admin = await signInUser(server, shop.subdomain, shop.admin.username, shop.admin.pin);
  document = (await new ApiClient(server.url).get('/api/openapi.json')).body;
});
afterAll(async () => {
  await server?.stop();
});

const openApiPath = (koaPath: string) => koaPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
const documented = (method: string, path: string) => Object.keys(document.paths[path]?.[method]?.responses ?? {}).map(Number);

test('every operation lists exactly the statuses its route declares, errors as problem details', () => {
  for (const route of server.runtime.router.routes) {
    const operation = document.paths[openApiPath(route.path)]![route.method.toLowerCase()]!;
    expect(Object.keys(operation.responses).map(Number), `${route.method} ${route.path}`).toEqual([...routeStatuses(route).keys()]);
    for (const [status, response] of Object.entries(operation.responses)) {
      if (Number(status) >= 400)
        expect(Object.keys(response.content ?? {}), `${route.method} ${route.path} ${status}`).toEqual(['application/problem+json']);
    }
  }
});

test('a signed-in write lists 422 (a reused Idempotency-Key) and answers it', async () => {
  expect(documented('post', '/api/{instance}/customers')).toContain(422);
  const key = { 'idempotency-key': 'reused-key-1' };
  expect((await admin.post(`/api/${shop.subdomain}/customers`, { name: 'Ada' }, key)).status).toBe(201);
  const reused = await admin.post(`/api/${shop.subdomain}/customers`, { name: 'Grace' }, key);
  expect(reused.status).toBe(422);
  expect(reused.headers.get('content-type')).toContain('application/problem+json');
});

test('sign-ins list the 401 of wrong credentials', async () => {
  expect(documented('post', '/api/auth/login')).toContain(401);
  expect(documented('post', '/api/super-admin/login')).toContain(401);
  const refused = await new ApiClient(server.url).post('/api/auth/login', { instance: shop.subdomain, username: 'owner', pin: '9999' });
  expect(refused.status).toBe(401);
});

test('an empty or malformed Idempotency-Key is a 400 naming the header, and nothing is written', async () => {
  for (const bad of ['', ' ', 'has space', 'x'.repeat(201), 'ünïcode']) {
    const res = await admin.post(`/api/${shop.subdomain}/customers`, { name: 'Keyless' }, { 'idempotency-key': bad });
    expect(res.status, JSON.stringify(bad)).toBe(400);
    expect(res.body.detail).toContain('Idempotency-Key');
  }
  const list = await admin.get(`/api/${shop.subdomain}/customers?q=Keyless`);
  expect(JSON.stringify(list.body)).not.toContain('Keyless');
});

test('a method a path does not have is a 405 with Allow, not a 404', async () => {
  for (const [method, path, allow] of [
    ['PUT', '/api/openapi.json', 'GET'],
    ['DELETE', `/api/${shop.subdomain}/customers`, 'GET'],
    ['PATCH', '/api/auth/login', 'POST'],
  ] as const) {
    const res = await admin.request(method, path, method === 'DELETE' ? undefined : {});
    expect(res.status, `${method} ${path}`).toBe(405);
    expect(res.headers.get('allow'), `${method} ${path}`).toContain(allow);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  }
});
