import { afterAll, beforeAll, expect, test } from 'vitest';
import { satisfies, type JsonSchema } from '../support/openapi-arbitraries.ts';
import { ApiClient, createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The other direction of "the document is the server": what the server takes, the document
 * must allow. Ordinary bodies of several fields, which the server answers 2xx, are checked
 * against their operation's published schema (closed objects and "at least one field filled"
 * together), and the calendar's range names its formats.
 */

const SHOP = 'docbodies';
let server: TestServer;
let admin: ApiClient;
let document: { paths: Record<string, Record<string, JsonSchema>> };

beforeAll(async () => {
  server = await startTestServer();
  const shop = await createTestInstance(server, SHOP, { username: 'owner', pin: '1234' });
  const features = await (await signInSuperAdmin(server)).put(`/api/crm-instances/${shop.id}`, { features: { calendar: true } });
  if (features.status !== 200) throw new Error(`calendar not switched on: ${features.status} ${features.text}`);
  admin = await signInUser(server, SHOP, 'owner', '1234');
  document = (await new ApiClient(server.url).get('/api/openapi.json')).body;
});
afterAll(async () => {
  await server?.stop();
});

const bodySchema = (method: string, path: string): JsonSchema =>
  document.paths[path]![method]!.requestBody.content['application/json'].schema as JsonSchema;

test('bodies of several fields that the server accepts fit the published schema', async () => {
  const customer = { name: 'Two Fields', phone: '5551230000', email: 'two@example.com' };
  const job = { name: 'Two Fields', phone: '5551230000', quote: '120.00', makeModel: '2015 Honda Civic' };
  const request = { customerName: 'Two Fields', contactEmail: 'two@example.com', serviceType: 'Oil Change', additionalNotes: 'rattle' };
  const cases: Array<[string, string, string, Record<string, unknown>]> = [
    ['post', '/api/{instance}/customers', `/api/${SHOP}/customers`, customer],
    ['post', '/api/customers', '/api/customers', { ...customer, name: 'Two Fields B' }],
    ['post', '/api/{instance}/pipeline', `/api/${SHOP}/pipeline`, job],
    ['post', '/api/{instance}/service-requests', `/api/${SHOP}/service-requests`, request],
    ['post', '/api/service-requests', '/api/service-requests', request],
  ];
  for (const [method, documented, path, body] of cases) {
    const answer = await admin.post(path, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(201);
    expect(
      satisfies(body, bodySchema(method, documented)),
      `${method.toUpperCase()} ${documented} documents ${JSON.stringify(body)} as invalid`,
    ).toBe(true);
  }
  // The "at least one field" rule still shows: an empty body fits none of the alternatives.
  expect(satisfies({}, bodySchema('post', '/api/{instance}/customers'))).toBe(false);
  expect(satisfies({ name: 'x', nosuch: 1 }, bodySchema('post', '/api/{instance}/customers'))).toBe(false);
});

test("the calendar's from and to are documented as a date or a date-time, as the server takes them", async () => {
  const parameters = document.paths['/api/{instance}/calendar']!.get!.parameters as Array<{ name: string; schema: JsonSchema }>;
  for (const name of ['from', 'to']) {
    const schema = parameters.find((parameter) => parameter.name === name)!.schema;
    const formats = ((schema.anyOf ?? [schema]) as JsonSchema[]).map((alternative) => alternative.format);
    expect(formats.sort(), name).toEqual(['date', 'date-time']);
  }
  expect((await admin.get(`/api/${SHOP}/calendar?from=2026-03-02&to=2026-03-09`)).status).toBe(200);
  expect((await admin.get(`/api/${SHOP}/calendar?from=2026-03-02T00:00:00Z&to=2026-03-09T00:00:00%2B02:00`)).status).toBe(200);
  expect((await admin.get(`/api/${SHOP}/calendar?from=soon&to=later`)).status).toBe(400);
});
