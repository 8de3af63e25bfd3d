import { afterAll, beforeAll, expect, test } from 'vitest';
import { customerNow } from '../../src/messages/message-context.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let owner: ApiClient;
const base = '/api/mergemsg';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'mergemsg', { username: 'owner', pin: '1234' });
  owner = await signInUser(server, 'mergemsg', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

async function customer(name: string, email: string, phone: string): Promise<string> {
  const res = await owner.post(`${base}/customers`, { name, email, phone });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

test("messages for a merged-away customer go to the survivor's contact, and back to its own after the undo", async () => {
  const store = server.runtime.deps.store;
  const fromId = await customer('Dana Dup', 'dana.old@example.test', '5550101111');
  const intoId = await customer('Dana Keep', 'dana@example.test', '5550102222');
  const middleId = await customer('Dana Middle', 'dana.mid@example.test', '5550103333');
  expect(await customerNow(store, fromId)).toMatchObject({ customerId: fromId, fields: { email: 'dana.old@example.test' } });

  const merged = await owner.post(`${base}/customers/${fromId}/merge`, { intoId: middleId });
  expect(merged.status, merged.text).toBe(200);
  // A chain of merges ends at the customer that stands.
  const again = await owner.post(`${base}/customers/${middleId}/merge`, { intoId });
  expect(again.status, again.text).toBe(200);
  const survivor = { customerId: intoId, fields: { name: 'Dana Keep', email: 'dana@example.test', phone: '5550102222' } };
  expect(await customerNow(store, fromId)).toMatchObject(survivor);
  expect(await customerNow(store, middleId)).toMatchObject(survivor);
  expect(await customerNow(store, intoId)).toMatchObject(survivor);

  const undone = await owner.delete(`${base}/customers/${middleId}/merge`);
  expect(undone.status, undone.text).toBe(200);
  expect(await customerNow(store, fromId)).toMatchObject({ customerId: middleId, fields: { email: 'dana.mid@example.test' } });
  expect((await owner.delete(`${base}/customers/${fromId}/merge`)).status).toBe(200);
  expect(await customerNow(store, fromId)).toMatchObject({ customerId: fromId, fields: { email: 'dana.old@example.test' } });

  // A deleted survivor: nobody to write to.
  expect((await owner.post(`${base}/customers/${fromId}/merge`, { intoId })).status).toBe(200);
  expect((await owner.delete(`${base}/customers/${intoId}`)).status).toBe(200);
  expect(await customerNow(store, fromId)).toBeNull();
});
