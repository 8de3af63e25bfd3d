import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const OFF = 'This feature is not enabled for this CRM';

async function setFeatures(instanceId: string, features: Record<string, boolean>) {
  const admin = await signInSuperAdmin(server);
  const res = await admin.put(`/api/crm-instances/${instanceId}`, { features });
  expect(res.status).toBe(200);
}

describe('feature flags are enforced by the server', () => {
  test('each family answers while its feature is on and 404 while it is off, in every path family', async () => {
    const shop = await createTestInstance(server, 'flags');
    const owner = await signInUser(server, 'flags', 'owner', '1234');
    const families: Array<{ feature: string; paths: string[] }> = [
      { feature: 'pipeline', paths: ['/api/user-info', '/api/flags/pipeline'] },
      { feature: 'customers', paths: ['/api/customers', '/api/flags/customers'] },
      { feature: 'admin', paths: ['/api/admin/audit', '/api/flags/admin/audit'] },
    ];
    for (const { paths } of families) for (const path of paths) expect((await owner.get(path)).status, path).toBe(200);

    for (const { feature, paths } of families) {
      await setFeatures(shop.id, { [feature]: false });
      for (const path of paths) {
        const res = await owner.get(path);
        expect(res.status, `${path} with ${feature} off`).toBe(404);
        expect(res.body.message).toBe(OFF);
      }
      await setFeatures(shop.id, { [feature]: true });
      for (const path of paths) expect((await owner.get(path)).status, `${path} with ${feature} on again`).toBe(200);
    }
  });

  test('writes are refused too, and user management stays whatever Admin says', async () => {
    const shop = await createTestInstance(server, 'flagswrite');
    const owner = await signInUser(server, 'flagswrite', 'owner', '1234');
    await setFeatures(shop.id, { pipeline: false, customers: false, admin: false });
    expect((await owner.post('/api/user-info', { name: 'Nope', part: 'x' })).status).toBe(404);
    expect((await owner.post('/api/customers', { name: 'Nope' })).status).toBe(404);
    expect((await owner.get('/api/admin/audit.csv')).status).toBe(404);
    expect((await owner.get('/api/admin/users')).status).toBe(200);
    const added = await owner.post('/api/admin/users', { username: 'tech1', pin: '4321' });
    expect(added.status).toBe(201);
  });

  test("the pipeline's customer autocomplete and the chosen customer's read answer while Customers is off (and not when both are off)", async () => {
    const shop = await createTestInstance(server, 'flagssuggest');
    const owner = await signInUser(server, 'flagssuggest', 'owner', '1234');
    expect((await owner.post('/api/user-info', { name: 'Alice Autocomplete', phone: '5550101', part: 'Pads' })).status).toBe(201);
    await setFeatures(shop.id, { customers: false });
    await expect
      .poll(async () => (await owner.get('/api/customers/search?query=Alice')).body, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ name: 'Alice Autocomplete' })]);
    // Choosing the suggestion reads the customer on its own (its whole phone): that answers too.
    const [suggestion] = (await owner.get('/api/customers/search?query=Alice')).body;
    const chosen = await owner.get(`/api/flagssuggest/customers/${suggestion.id}`);
    expect(chosen.status).toBe(200);
    expect(chosen.body.name).toBe('Alice Autocomplete');
    // The rest of the customers stays off.
    expect((await owner.get(`/api/customers/${suggestion.id}/history`)).status).toBe(404);
    expect((await owner.put(`/api/customers/${suggestion.id}`, { notes: 'x' })).status).toBe(404);
    await setFeatures(shop.id, { pipeline: false });
    const off = await owner.get('/api/customers/search?query=Alice');
    expect(off.status).toBe(404);
    expect(off.body.message).toBe(OFF);
    expect((await owner.get(`/api/customers/${suggestion.id}`)).status).toBe(404);
  });
});
