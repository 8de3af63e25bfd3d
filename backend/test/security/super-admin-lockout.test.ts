import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient, SUPER_ADMIN, startTestServer, type TestServer } from '../support/server.ts';

/** The super admin is locked out like a staff account: five failures in a row on its name, 15 minutes. */

let server: TestServer;
let clock = new Date('2026-03-02T09:00:00Z');

beforeAll(async () => {
  server = await startTestServer({}, { now: () => clock });
});
afterAll(async () => {
  await server?.stop();
});

const attempt = (username: string, password: string) => new ApiClient(server.url).post('/api/super-admin/login', { username, password });

test('guessing other names locks nothing; five wrong passwords on its name lock it for 15 minutes', async () => {
  for (let i = 0; i < 8; i++) expect((await attempt(`guess-${i}`, 'wrong-password')).status).toBe(401);
  expect((await attempt(SUPER_ADMIN.username, SUPER_ADMIN.password)).status).toBe(200);

  for (let i = 0; i < 5; i++) expect((await attempt(SUPER_ADMIN.username, 'wrong-password')).status).toBe(401);
  // The right password is refused now, and told why with when to come back.
  const locked = await attempt(SUPER_ADMIN.username, SUPER_ADMIN.password);
  expect(locked.status, locked.text).toBe(423);
  expect(locked.headers.get('content-type')).toMatch(/problem\+json/);
  expect(locked.body.message).toMatch(/locked for 15 more minutes/);
  expect(Number(locked.headers.get('retry-after'))).toBe(900);
  // A wrong password while locked learns nothing new.
  expect((await attempt(SUPER_ADMIN.username, 'wrong-password')).status).toBe(401);

  clock = new Date(clock.getTime() + 14 * 60_000);
  expect((await attempt(SUPER_ADMIN.username, SUPER_ADMIN.password)).status).toBe(423);
  clock = new Date(clock.getTime() + 61_000);
  expect((await attempt(SUPER_ADMIN.username, SUPER_ADMIN.password)).status).toBe(200);
  // The count starts afresh after the lock ran out.
  for (let i = 0; i < 4; i++) expect((await attempt(SUPER_ADMIN.username, 'wrong-password')).status).toBe(401);
  expect((await attempt(SUPER_ADMIN.username, SUPER_ADMIN.password)).status).toBe(200);
});

test('guessing on through the lock: past ten failures in a row the right password is refused like a wrong one', async () => {
  for (let i = 0; i < 5; i++) expect((await attempt(SUPER_ADMIN.username, 'wrong-password')).status).toBe(401);
  for (let i = 0; i < 5; i++) expect((await attempt(SUPER_ADMIN.username, 'wrong-password')).status).toBe(401);
  // "Right → locked, wrong → invalid" would tell a guesser the password: no longer told.
  expect((await attempt(SUPER_ADMIN.username, SUPER_ADMIN.password)).status).toBe(401);
  clock = new Date(clock.getTime() + 16 * 60_000);
  expect((await attempt(SUPER_ADMIN.username, SUPER_ADMIN.password)).status).toBe(200);
});
