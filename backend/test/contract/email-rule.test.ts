import { afterAll, beforeAll, expect, test } from 'vitest';
import { EMAIL_PATTERN, isEmailAddress } from '@crm/projections/shared';
import { satisfies, type JsonSchema } from '../support/openapi-arbitraries.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * One e-mail rule for every address the API takes (a customer's, a service request's
 * contact, the shop's, the messages' From address), the same in the server and the API
 * document: an address a mail server would refuse, or read as two, is a 400 naming the field
 * and is documented as invalid; a plain one is taken and reads back as sent.
 */

const SHOP = 'emailrule';
let server: TestServer;
let admin: ApiClient;
let document: { paths: Record<string, Record<string, JsonSchema>> };

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, SHOP, { username: 'owner', pin: '1234' });
  admin = await signInUser(server, SHOP, 'owner', '1234');
  document = (await new ApiClient(server.url).get('/api/openapi.json')).body;
});
afterAll(async () => {
  await server?.stop();
});

const REFUSED = ['x,y@b.test', 'x;y@b.test', 'a b@c.de', 'a@b', 'Ann <a@b.de>', '"q"@b.de', 'a@b@c.de', 'a..b@c.de', 'a@b.de.', 'é@b.de'];
const TAKEN = ["o'brien+tag@mail.example.com", 'A.B-C@sub.example-shop.co'];

test('the rule: one plain address, no list, no display name, a dotted domain', () => {
  for (const address of REFUSED) expect(isEmailAddress(address), address).toBe(false);
  for (const address of TAKEN) expect(isEmailAddress(address), address).toBe(true);
  expect(isEmailAddress(`${'x'.repeat(65)}@b.de`)).toBe(false);
});

const bodySchema = (method: string, path: string): JsonSchema =>
  document.paths[path]![method]!.requestBody.content['application/json'].schema as JsonSchema;

test('every e-mail field refuses what the rule refuses, and its document says so', async () => {
  const cases: Array<{
    method: 'post' | 'put';
    documented: string;
    path: string;
    body: (email: string) => Record<string, unknown>;
    field: string;
  }> = [
    {
      method: 'post',
      documented: '/api/{instance}/customers',
      path: `/api/${SHOP}/customers`,
      body: (email) => ({ name: 'Mail', email }),
      field: 'email',
    },
    {
      method: 'post',
      documented: '/api/{instance}/service-requests',
      path: `/api/${SHOP}/service-requests`,
      body: (contactEmail) => ({ customerName: 'Mail', contactEmail }),
      field: 'contactEmail',
    },
    { method: 'put', documented: '/api/{instance}/settings', path: `/api/${SHOP}/settings`, body: (email) => ({ email }), field: 'email' },
    {
      method: 'put',
      documented: '/api/{instance}/message-templates',
      path: `/api/${SHOP}/message-templates`,
      body: (fromAddress) => ({ settings: { fromAddress } }),
      field: 'settings.fromAddress',
    },
  ];
  for (const { method, documented, path, body, field } of cases) {
    const schema = bodySchema(method, documented);
    for (const address of REFUSED) {
      const res = await admin[method](path, body(address));
      expect(res.status, `${path} ${address}: ${res.text}`).toBe(400);
      expect(JSON.stringify(res.body.errors), `${path} ${address}`).toContain(`"field":"${field}"`);
      expect(satisfies(body(address), schema), `${documented} documents ${address} as valid`).toBe(false);
    }
    for (const address of TAKEN) {
      const res = await admin[method](path, body(address));
      expect(res.status, `${path} ${address}: ${res.text}`).toBeLessThan(300);
      expect(JSON.stringify(res.body), path).toContain(JSON.stringify(address).slice(1, -1));
      expect(satisfies(body(address), schema), `${documented} documents ${address} as invalid`).toBe(true);
    }
  }
  // The public request form states the same pattern.
  const publicSchema = JSON.stringify(bodySchema('post', '/api/public/{subdomain}/service-requests'));
  expect(publicSchema).toContain(JSON.stringify(EMAIL_PATTERN));
});
