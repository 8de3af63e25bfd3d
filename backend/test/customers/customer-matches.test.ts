import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CustomerMatches } from '@crm/projections/customers';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

let server: TestServer;
let owner: ApiClient;
let otherOwner: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  const shop = await createTestInstance(server, 'matchshop', { username: 'owner', pin: '1234' });
  const other = await createTestInstance(server, 'matchother', { username: 'owner', pin: '4321' });
  owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  otherOwner = await signInUser(server, other.subdomain, 'owner', '4321');
  for (const body of [
    { name: 'Dana  Whitfield', phone: '5551230001', email: 'dana@example.com' },
    { name: 'Someone Else', email: 'DANA@example.com' },
    { name: 'Third Party', phone: '(555) 123-0001' },
    { name: 'Dana Whitfield Jr', email: 'junior@example.com' },
  ]) {
    const res = await owner.post('/api/customers', body);
    expect(res.status, res.text).toBe(201);
  }
  // Another shop's customer of the very same name is never a match here.
  expect((await otherOwner.post('/api/customers', { name: 'Dana Whitfield', email: 'dana@example.com' })).status).toBe(201);
});
afterAll(async () => {
  await server?.stop();
});

const matches = async (query: string) => {
  const res = await owner.get(`/api/matchshop/customers/matches?${query}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as CustomerMatches).items;
};

test('matches on the name without case and spaces, the phone digits, or the email without case; each says on what', async () => {
  const byName = await matches('name=%20dana%20whitfield%20');
  expect(byName.map((m) => [m.name, m.matchedOn])).toEqual([['Dana  Whitfield', ['name']]]);
  expect(byName[0]?.phone).toBe('•••-•••-0001');

  const byEmail = await matches('email=Dana%40Example.com');
  expect(byEmail.map((m) => [m.name, m.matchedOn])).toEqual([
    ['Someone Else', ['email']],
    ['Dana  Whitfield', ['email']],
  ]);

  const byPhone = await matches('phone=555-123-0001');
  expect(byPhone.map((m) => m.name).sort()).toEqual(['Dana  Whitfield', 'Third Party']);

  const all = await matches('name=Dana%20Whitfield&email=dana%40example.com&phone=5551230001');
  expect(all.find((m) => m.name === 'Dana  Whitfield')?.matchedOn).toEqual(['name', 'phone', 'email']);
  expect(all).toHaveLength(3);
  // A longer name is not the same name.
  expect(all.some((m) => m.name === 'Dana Whitfield Jr')).toBe(false);
});

test('nothing to match on is a 400 naming the field; a text too long is a 400', async () => {
  const none = await owner.get('/api/customers/matches?name=%20%20');
  expect(none.status).toBe(400);
  expect(none.body).toMatchObject({ errors: [expect.objectContaining({ field: 'name' })] });
  expect((await owner.get(`/api/customers/matches?email=${'a'.repeat(300)}`)).status).toBe(400);
  expect((await owner.get('/api/customers/matches?name=a&name=b')).status).toBe(400);
});

test("another shop's customers are never matched, and its path is a 404", async () => {
  expect((await otherOwner.get('/api/customers/matches?name=Dana%20Whitfield')).body).toMatchObject({
    items: [expect.objectContaining({ name: 'Dana Whitfield' })],
  });
  expect((await otherOwner.get('/api/matchshop/customers/matches?name=Dana%20Whitfield')).status).toBe(404);
});
