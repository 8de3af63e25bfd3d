import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient, createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

test('GET /api/session answers 200 for nobody, with the user for staff and the super admin for the provider', async () => {
  const nobody = await new ApiClient(server.url).get('/api/session');
  expect(nobody.status).toBe(200);
  expect(nobody.body).toEqual({ user: null, superAdmin: null });

  const shop = await createTestInstance(server, 'sessionshop');
  const staff = await signInUser(server, shop.subdomain, 'owner', '1234');
  const asStaff = await staff.get('/api/session');
  expect(asStaff.status).toBe(200);
  expect(asStaff.body.superAdmin).toBeNull();
  expect(asStaff.body.user).toMatchObject({ username: 'owner', role: 'admin', instance: { subdomain: 'sessionshop' } });
  // The same user as the sign-in's own check.
  expect(asStaff.body.user).toEqual((await staff.get('/api/user/current')).body);

  const provider = await signInSuperAdmin(server);
  const asProvider = await provider.get('/api/session');
  expect(asProvider.status).toBe(200);
  expect(asProvider.body).toEqual({ user: null, superAdmin: { id: 'primary', username: 'superadmin', displayName: 'Super Admin' } });

  // Signed out: 200 again, nobody.
  expect((await staff.post('/api/auth/logout')).status).toBe(204);
  expect((await staff.get('/api/session')).body).toEqual({ user: null, superAdmin: null });
});

test('a locked account or a closed instance reads as signed out', async () => {
  const shop = await createTestInstance(server, 'sessionlock');
  const owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  const added = await owner.post('/api/admin/users', { username: 'bob', pin: '5678', role: 'user' });
  expect(added.status, added.text).toBe(201);
  const bob = await signInUser(server, shop.subdomain, 'bob', '5678');
  expect((await bob.get('/api/session')).body.user).toMatchObject({ username: 'bob' });
  expect((await owner.patch(`/api/admin/users/${added.body.id}/lock`, { isLocked: true })).status).toBe(200);
  const locked = await bob.get('/api/session');
  expect(locked.status).toBe(200);
  // The check that ends the session says why (the sign-in page shows it); the session is then gone.
  expect(locked.body).toEqual({ user: null, superAdmin: null, ended: 'account-locked' });
  expect((await bob.get('/api/session')).body).toEqual({ user: null, superAdmin: null });

  const provider = await signInSuperAdmin(server);
  expect((await provider.patch(`/api/crm-instances/${shop.id}`, { isActive: false })).status).toBe(200);
  const closed = await owner.get('/api/session');
  expect(closed.status).toBe(200);
  expect(closed.body).toEqual({ user: null, superAdmin: null, ended: 'instance-closed' });
});

test('the first call a lock or a closed CRM refuses says why in its 401; later ones are a plain 401', async () => {
  const shop = await createTestInstance(server, 'sessionwhy');
  const owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  const added = await owner.post('/api/admin/users', { username: 'cara', pin: '5678', role: 'user' });
  expect(added.status, added.text).toBe(201);
  const cara = await signInUser(server, shop.subdomain, 'cara', '5678');
  expect((await owner.patch(`/api/admin/users/${added.body.id}/lock`, { isLocked: true })).status).toBe(200);
  const refused = await cara.get(`/api/${shop.subdomain}/pipeline`);
  expect(refused.status).toBe(401);
  expect(refused.body).toMatchObject({
    reason: 'account-locked',
    message: 'You were signed out because your account was locked. Ask an admin of your shop to unlock it.',
  });
  const again = await cara.get(`/api/${shop.subdomain}/pipeline`);
  expect(again.status).toBe(401);
  expect(again.body.reason).toBeUndefined();

  const provider = await signInSuperAdmin(server);
  expect((await provider.patch(`/api/crm-instances/${shop.id}`, { isActive: false })).status).toBe(200);
  const closed = await owner.get('/api/customers');
  expect(closed.status).toBe(401);
  expect(closed.body).toMatchObject({
    reason: 'instance-closed',
    message: 'You were signed out because this CRM was closed. Ask your provider to open it again.',
  });
});
