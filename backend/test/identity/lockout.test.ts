import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/** A user locked out after failed PINs: the admin list says until when, and an admin may end it. */
let server: TestServer;
let admin: ApiClient;
let userId: string;

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'lockshop');
  admin = await signInUser(server, 'lockshop', 'owner', '1234');
  const created = await admin.post('/api/admin/users', { username: 'fumbles', pin: '4444' });
  expect(created.status).toBe(201);
  userId = created.body.id;
  expect(created.body.signInLockedUntil).toBeNull();
  for (let i = 0; i < 5; i++) {
    const res = await new ApiClient(server.url).post('/api/auth/login', { username: 'fumbles', pin: '0000', instance: 'lockshop' });
    expect(res.status).toBe(401);
  }
});
afterAll(async () => {
  await server?.stop();
});

test('the list shows until when a user is locked out after failed sign-ins', async () => {
  await expect
    .poll(async () => {
      const list = await admin.get('/api/admin/users');
      return list.body.find((u: { id: string }) => u.id === userId)?.signInLockedUntil ?? null;
    })
    .not.toBeNull();
  const one = await admin.get(`/api/admin/users/${userId}`);
  const until = Date.parse(one.body.signInLockedUntil);
  expect(until - Date.now()).toBeGreaterThan(10 * 60_000);
  expect(until - Date.now()).toBeLessThanOrEqual(15 * 60_000);
  expect(one.body.isLocked).toBe(false);
});

test('only those who manage users may end a lockout; ending it lets the user in at once', async () => {
  const staff = await admin.post('/api/admin/users', { username: 'bystander', pin: '5555' });
  const bystander = await signInUser(server, 'lockshop', 'bystander', '5555');
  expect((await bystander.delete(`/api/admin/users/${userId}/sign-in-lock`)).status).toBe(403);
  expect(staff.status).toBe(201);

  const cleared = await admin.delete(`/api/admin/users/${userId}/sign-in-lock`);
  expect(cleared.status, cleared.text).toBe(200);
  expect(cleared.body).toMatchObject({ id: userId, signInLockedUntil: null, isLocked: false });
  const signedIn = await new ApiClient(server.url).post('/api/auth/login', { username: 'fumbles', pin: '4444', instance: 'lockshop' });
  expect(signedIn.status).toBe(200);
  // Nothing to clear is no error and records nothing.
  const again = await admin.delete(`/api/admin/users/${userId}/sign-in-lock`);
  expect(again.status).toBe(200);
  const activity = await admin.get('/api/admin/audit?entityType=user');
  const summaries = activity.body.items.map((e: { summary: string }) => e.summary);
  expect(summaries.filter((s: string) => s === 'Cleared the sign-in lockout of fumbles')).toHaveLength(1);
});

test('another instance cannot see or end it', async () => {
  await createTestInstance(server, 'lockother');
  const outsider = await signInUser(server, 'lockother', 'owner', '1234');
  expect((await outsider.delete(`/api/admin/users/${userId}/sign-in-lock`)).status).toBe(404);
  expect((await outsider.delete(`/api/lockshop/admin/users/${userId}/sign-in-lock`)).status).toBe(404);
});

test('guessing on through the lock: past ten failures in a row the right PIN is refused like a wrong one', async () => {
  await admin.post('/api/admin/users', { username: 'guessed', pin: '6262' });
  const login = (pin: string) => new ApiClient(server.url).post('/api/auth/login', { username: 'guessed', pin, instance: 'lockshop' });
  for (let i = 0; i < 5; i++) expect((await login('0000')).status).toBe(401);
  // The owner, with the right PIN, learns that the account is locked...
  expect((await login('6262')).status).toBe(423);
  for (let i = 0; i < 4; i++) expect((await login('0000')).status).toBe(401);
  // ...but not once guessing went on through the lock ("right → locked" would give the PIN away).
  const refused = await login('6262');
  expect(refused.status).toBe(401);
  expect(refused.body.message).toBe('Invalid username or PIN');
});
