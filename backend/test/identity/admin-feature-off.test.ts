import { afterAll, beforeAll, expect, test } from 'vitest';
import { signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

test('with the admin feature off, the instance admin still manages its users (the feature governs screens, not the API)', async () => {
  const provider = await signInSuperAdmin(server);
  const created = await provider.post('/api/crm-instances', {
    name: 'NOADMIN',
    displayName: 'No Admin Auto',
    subdomain: 'noadmin',
    features: { pipeline: true, customers: true, calendar: false, admin: false },
    adminUsername: 'owner',
    adminPin: '1234',
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body.features.admin).toBe(false);

  const owner = await signInUser(server, 'noadmin', 'owner', '1234');
  const added = await owner.post('/api/admin/users', { username: 'tech', pin: '5678', role: 'user' });
  expect(added.status, added.text).toBe(201);
  const list = await owner.get('/api/admin/users');
  expect(list.status).toBe(200);
  expect(list.body.map((u: { username: string }) => u.username)).toEqual(['owner', 'tech']);
  expect((await owner.patch(`/api/admin/users/${added.body.id}/lock`, { isLocked: true })).status).toBe(200);
});
