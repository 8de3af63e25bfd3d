import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/http/app.ts';
import { SIGN_IN_LOCK_MS } from '../../src/identity/user-decider.ts';
import { routeModules } from '../../src/routes.ts';
import {
  ApiClient,
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiResponse,
  type TestInstance,
  type TestServer,
} from '../support/server.ts';

// Commands read this clock: moving it is how a throttle runs out.
let clock = new Date();
const logLines: string[] = [];
const responses: ApiResponse[] = [];

let server: TestServer;
let shop: TestInstance;
let other: TestInstance;
const REFUSED = { status: 401, message: 'Invalid username or PIN' };

beforeAll(async () => {
  server = await startTestServer(
    { LOG_LEVEL: 'debug' },
    { now: () => clock, logDestination: { write: (line: string) => void logLines.push(line) } },
  );
  ApiClient.observer = (response) => void responses.push(response);
  shop = await createTestInstance(server, 'signinshop', { username: 'Owner', pin: '2468' });
  other = await createTestInstance(server, 'signinother', { username: 'owner', pin: '1357' });
});
afterAll(async () => {
  ApiClient.observer = null;
  await server?.stop();
});

async function addUser(instance: TestInstance, body: Record<string, unknown>) {
  const admin = await signInUser(server, instance.subdomain, instance.admin.username, instance.admin.pin);
  const res = await admin.post('/api/admin/users', body);
  expect(res.status).toBe(201);
  return { admin, user: res.body as { id: string; username: string } };
}

function expectRefused(res: ApiResponse) {
  expect(res.status).toBe(REFUSED.status);
  expect(res.body.message).toBe(REFUSED.message);
}

describe('instance sign-in', () => {
  test('signs in with username, PIN and instance, and answers with the current user', async () => {
    const client = new ApiClient(server.url);
    const res = await client.post('/api/auth/login', { username: 'Owner', pin: '2468', instance: 'signinshop' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      username: 'Owner',
      displayName: 'Owner',
      role: 'admin',
      permissions: { canRead: true, canWrite: true, canDelete: true, canManageUsers: true },
      instance: {
        id: shop.id,
        name: 'SIGNINSHOP',
        subdomain: 'signinshop',
        displayName: 'signinshop Auto',
        features: { pipeline: true, customers: true, calendar: false, admin: true, serviceRequests: true },
        timeZone: expect.any(String),
      },
    });
    const current = await client.get('/api/user/current');
    expect(current.status).toBe(200);
    expect(current.body).toEqual(res.body);
  });

  test('the instance may be named by the path instead, and usernames match in any case', async () => {
    const client = new ApiClient(server.url);
    const res = await client.post('/api/signinshop/auth/login', { username: 'OWNER', pin: '2468' });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe('Owner');
    expect(res.body.instance.subdomain).toBe('signinshop');
  });

  test('the path names the instance even when the body names another', async () => {
    const client = new ApiClient(server.url);
    expectRefused(await client.post('/api/signinother/auth/login', { username: 'Owner', pin: '2468', instance: 'signinshop' }));
  });

  test('records the last login on the user', async () => {
    const before = new Date(clock);
    await signInUser(server, 'signinshop', 'owner', '2468');
    const admin = await signInUser(server, 'signinshop', 'owner', '2468');
    const list = await admin.get('/api/admin/users');
    const owner = list.body.find((u: { username: string }) => u.username === 'Owner');
    expect(new Date(owner.lastLoginAt).getTime()).toBeGreaterThanOrEqual(before.getTime());
  });

  test('signs out: the server session is gone, and signing out without one is fine too', async () => {
    const client = await signInUser(server, 'signinshop', 'owner', '2468');
    const stale = client.cookieHeader();
    const out = await client.post('/api/auth/logout');
    expect(out.status).toBe(204);
    expect((await client.get('/api/user/current')).status).toBe(401);
    // The old cookie names a session that no longer exists on the server.
    const replay = await fetch(`${server.url}/api/user/current`, { headers: { cookie: stale } });
    expect(replay.status).toBe(401);
    expect((await new ApiClient(server.url).post('/api/auth/logout')).status).toBe(204);
  });

  test('nobody signed in: the current user is 401; the super admin is no instance user (403)', async () => {
    expect((await new ApiClient(server.url).get('/api/user/current')).status).toBe(401);
    const superAdmin = await signInSuperAdmin(server);
    expect((await superAdmin.get('/api/user/current')).status).toBe(403);
  });

  test.each([
    [{ username: 'ab', pin: '2468', instance: 'signinshop' }, 'Username must be at least 3 characters'],
    [{ username: 'owner', pin: '246', instance: 'signinshop' }, 'PIN must be exactly 4 digits'],
    [{ username: 'owner', pin: '24a8', instance: 'signinshop' }, 'PIN must contain only digits'],
    [{ username: 'owner', pin: 2468, instance: 'signinshop' }, 'PIN is required'],
    [{ username: 'owner', pin: '2468' }, 'Instance is required'],
  ])('bad input %j is a 400 with a clear message', async (body, message) => {
    const res = await new ApiClient(server.url).post('/api/auth/login', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  test('every refusal without the right PIN is the same 401, and no session comes of it', async () => {
    const { admin, user } = await addUser(shop, { username: 'gone', pin: '1111' });
    expect((await admin.delete(`/api/admin/users/${user.id}`)).status).toBe(204);
    const { user: lockedUser } = await addUser(shop, { username: 'lockedout', pin: '2222' });
    expect((await admin.patch(`/api/admin/users/${lockedUser.id}/lock`, { isLocked: true })).status).toBe(200);

    const attempts = [
      { username: 'owner', pin: '9999', instance: 'signinshop' }, // wrong PIN
      { username: 'nobody', pin: '2468', instance: 'signinshop' }, // unknown user
      { username: 'owner', pin: '2468', instance: 'nosuchshop' }, // unknown instance
      { username: 'owner', pin: '2468', instance: 'signinother' }, // right PIN, other instance
      { username: 'gone', pin: '1111', instance: 'signinshop' }, // deleted
      { username: 'lockedout', pin: '9999', instance: 'signinshop' }, // locked by an admin, wrong PIN
    ];
    for (const attempt of attempts) {
      const client = new ApiClient(server.url);
      expectRefused(await client.post('/api/auth/login', attempt));
      expect(client.cookieHeader()).toBe('');
      expect((await client.get('/api/user/current')).status).toBe(401);
    }
  });

  test('an admin-locked account is told so, but only to someone with its PIN', async () => {
    const { admin, user } = await addUser(shop, { username: 'paused', pin: '2323' });
    expect((await admin.patch(`/api/admin/users/${user.id}/lock`, { isLocked: true })).status).toBe(200);
    const client = new ApiClient(server.url);
    const res = await client.post('/api/auth/login', { username: 'paused', pin: '2323', instance: 'signinshop' });
    expect(res.status).toBe(423);
    expect(res.body.message).toBe("This account is locked. Ask your shop's admin to unlock it.");
    expect(client.cookieHeader()).toBe('');
    expectRefused(await client.post('/api/auth/login', { username: 'paused', pin: '3232', instance: 'signinshop' }));
  });

  test('an inactive instance says it is closed, whoever asks, and drops the sessions it had', async () => {
    const { user } = await addUser(other, { username: 'worker', pin: '3333' });
    const session = await signInUser(server, 'signinother', 'worker', '3333');
    expect((await session.get('/api/user/current')).body.id).toBe(user.id);
    const superAdmin = await signInSuperAdmin(server);
    expect((await superAdmin.patch(`/api/crm-instances/${other.id}`, { isActive: false })).status).toBe(200);
    try {
      expect((await session.get('/api/user/current')).status).toBe(401);
      // Closed is no secret: the same answer with a right PIN, a wrong one or no such user.
      for (const attempt of [
        () => new ApiClient(server.url).post('/api/auth/login', { username: 'worker', pin: '3333', instance: 'signinother' }),
        () => new ApiClient(server.url).post('/api/signinother/auth/login', { username: 'owner', pin: '1357' }),
        () => new ApiClient(server.url).post('/api/signinother/auth/login', { username: 'nobody', pin: '0000' }),
      ]) {
        const res = await attempt();
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('This CRM is closed. Contact your provider.');
      }
    } finally {
      expect((await superAdmin.patch(`/api/crm-instances/${other.id}`, { isActive: true })).status).toBe(200);
    }
    // The dropped session stays dropped.
    expect((await session.get('/api/user/current')).status).toBe(401);
    await signInUser(server, 'signinother', 'worker', '3333');
  });
});

describe('brute force', () => {
  test('five wrong PINs block the account for 15 minutes; only the right PIN learns for how long', async () => {
    await addUser(shop, { username: 'target', pin: '4321' });
    const attempt = (pin: string) => new ApiClient(server.url).post('/api/auth/login', { username: 'target', pin, instance: 'signinshop' });
    for (let i = 0; i < 5; i++) expectRefused(await attempt(String(1000 + i)));
    // Blocked: a wrong PIN learns nothing; the right one learns the lock and how long it lasts.
    expectRefused(await attempt('1999'));
    const blocked = await attempt('4321');
    expect(blocked.status).toBe(423);
    expect(blocked.body.message).toBe('Too many failed sign-ins: this account is locked for 15 more minutes.');
    expect(Date.parse(blocked.body.lockedUntil)).toBe(clock.getTime() + SIGN_IN_LOCK_MS);
    expect(Number(blocked.headers.get('retry-after'))).toBe(SIGN_IN_LOCK_MS / 1000);
    clock = new Date(clock.getTime() + SIGN_IN_LOCK_MS - 60_000);
    const later = await attempt('4321');
    expect(later.status).toBe(423);
    expect(later.body.message).toBe('Too many failed sign-ins: this account is locked for 1 more minute.');
    clock = new Date(clock.getTime() + 60_000);
    const res = await attempt('4321');
    expect(res.status).toBe(200);
    expect(res.body.username).toBe('target');
  });

  test('the failed and blocked sign-ins reach the instance activity for admins', async () => {
    await server.caughtUp();
    const rows = await server.runtime.deps.knex
      .withSchema('rm')
      .from('activity')
      .where({ instance_id: shop.id })
      .whereIn('event_type', ['UserSignInFailed', 'UserSignInThrottled'])
      .orderBy('occurred_at')
      .select('event_type', 'summary');
    expect(rows.some((r) => r.event_type === 'UserSignInThrottled' && /target blocked until/.test(r.summary))).toBe(true);
    expect(rows.some((r) => r.summary === 'Failed sign-in for target (5 in a row)')).toBe(true);
  });

  test('a success in between resets the count', async () => {
    await addUser(shop, { username: 'typo', pin: '5678' });
    const attempt = (pin: string) => new ApiClient(server.url).post('/api/auth/login', { username: 'typo', pin, instance: 'signinshop' });
    for (let i = 0; i < 4; i++) expectRefused(await attempt('0000'));
    expect((await attempt('5678')).status).toBe(200);
    for (let i = 0; i < 4; i++) expectRefused(await attempt('0000'));
    expect((await attempt('5678')).status).toBe(200);
  });

  test('many guesses at once: no success is ever recorded after five failures in a row', async () => {
    const { user } = await addUser(shop, { username: 'burst', pin: '7777' });
    const guesses = Array.from({ length: 12 }, (_, i) => String(7000 + i * 11)).concat(['7777']);
    const results = await Promise.all(
      guesses.map((pin) => new ApiClient(server.url).post('/api/auth/login', { username: 'burst', pin, instance: 'signinshop' })),
    );
    // The right PIN signs in, or learns of the block, or (outrun by the others) is refused.
    for (const [i, r] of results.entries()) {
      if (guesses[i] === '7777') expect([200, 423, 401]).toContain(r.status);
      else expectRefused(r);
    }
    // The stream orders the attempts; each one was decided on what was recorded before it.
    const events = await server.runtime.deps.store.readStream(`user-${user.id}`);
    let failuresInARow = 0;
    let successes = 0;
    for (const event of events) {
      if (event.type === 'UserSignInFailed') failuresInARow++;
      if (event.type === 'UserSignedIn') {
        expect(failuresInARow).toBeLessThan(5);
        failuresInARow = 0;
        successes++;
      }
    }
    expect(results.filter((r) => r.status === 200)).toHaveLength(successes);
  });

  test('the per-IP limit answers 429 on both sign-in routes', async () => {
    // A second app on the same storage, with a limit small enough to reach. The windows live
    // in the database, shared by every app on it, so this client comes from an address of
    // its own (through a trusted proxy) and starts with an empty window.
    const { deps } = server.runtime;
    const { app } = createApp(
      { ...deps, config: { ...deps.config, SIGN_IN_RATE_LIMIT: 3, TRUST_PROXY: true } },
      { version: 'test', registerRoutes: routeModules },
    );
    const handleRequest = app.callback();
    const limited: Server = createServer((req, res) => void handleRequest(req, res));
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
    try {
      const client = new ApiClient(`http://127.0.0.1:${(limited.address() as AddressInfo).port}`);
      const from = { 'x-forwarded-for': '198.51.100.7' };
      expect((await client.post('/api/auth/login', { username: 'owner', pin: '2468', instance: 'signinshop' }, from)).status).toBe(200);
      expectRefused(await client.post('/api/signinshop/auth/login', { username: 'owner', pin: '0000' }, from));
      expect((await client.post('/api/signinshop/auth/login', { username: 'owner', pin: '2468' }, from)).status).toBe(200);
      const limitedRes = await client.post('/api/auth/login', { username: 'owner', pin: '2468', instance: 'signinshop' }, from);
      expect(limitedRes.status).toBe(429);
      expect(limitedRes.headers.get('retry-after')).toBeTruthy();
      expect((await client.post('/api/signinshop/auth/login', { username: 'owner', pin: '2468' }, from)).status).toBe(429);
    } finally {
      limited.closeAllConnections();
      await new Promise<void>((resolve) => limited.close(() => resolve()));
    }
  });
});

describe('cookies, headers, secrets and logs', () => {
  test('the session cookie is HttpOnly and SameSite=Lax, and a fixed session id is not adopted', async () => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-crm-request': '1', cookie: 'crm.sid=fixed-by-attacker' },
      body: JSON.stringify({ username: 'owner', pin: '2468', instance: 'signinshop' }),
    });
    expect(res.status).toBe(200);
    const live = res.headers.getSetCookie().find((c) => c.startsWith('crm.sid=') && !/expires=Thu, 01 Jan 1970/i.test(c))!;
    expect(live).toMatch(/httponly/i);
    expect(live).toMatch(/samesite=lax/i);
    expect(live).not.toContain('fixed-by-attacker');
  });

  test('signing in again rotates the session id and ends the old session', async () => {
    const client = await signInUser(server, 'signinshop', 'owner', '2468');
    const before = client.cookieHeader();
    expect((await client.post('/api/auth/login', { username: 'owner', pin: '2468', instance: 'signinshop' })).status).toBe(200);
    expect(client.cookieHeader()).not.toBe(before);
    expect((await client.get('/api/user/current')).status).toBe(200);
    expect((await fetch(`${server.url}/api/user/current`, { headers: { cookie: before } })).status).toBe(401);
  });

  test('sign-in and sign-out refuse cross-site calls', async () => {
    const client = new ApiClient(server.url);
    const body = { username: 'owner', pin: '2468', instance: 'signinshop' };
    expect((await client.request('POST', '/api/auth/login', body, { 'x-crm-request': '' })).status).toBe(403);
    expect((await client.request('POST', '/api/auth/login', body, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await client.request('POST', '/api/auth/logout', {}, { 'x-crm-request': '' })).status).toBe(403);
  });

  test('every /api answer of this file said no-store', () => {
    expect(responses.length).toBeGreaterThan(50);
    for (const res of responses) expect(res.headers.get('cache-control')).toBe('no-store');
  });

  test('no answer of this file carried a PIN hash, a password hash or a scrypt string', () => {
    for (const res of responses) expect(res.text).not.toMatch(/pinHash|passwordHash|scrypt\$/i);
  });

  test('log lines carry no PIN: sign-ins are logged without one, and pin fields are redacted', async () => {
    const from = logLines.length;
    await signInUser(server, 'signinshop', 'owner', '2468');
    await new ApiClient(server.url).post('/api/auth/login', { username: 'owner', pin: '8642', instance: 'signinshop' });
    server.runtime.deps.logger.info({ pin: '8642', body: { newPin: '8642', currentPin: '2468' } }, 'careless caller');
    const lines = logLines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((l) => l.msg === 'instance sign-in').map((l) => l.outcome)).toEqual(['signed-in', 'refused']);
    const careless = lines.find((l) => l.msg === 'careless caller')!;
    expect(careless.pin).toBe('[redacted]');
    expect(careless.body).toEqual({ newPin: '[redacted]', currentPin: '[redacted]' });
    const values = (value: unknown): unknown[] => (value && typeof value === 'object' ? Object.values(value).flatMap(values) : [value]);
    for (const line of lines) {
      expect(values(line)).not.toContain('8642');
      expect(values(line)).not.toContain('2468');
    }
    // And across the whole file: whatever was logged, no pin field held a value.
    const pinFields = /"(pin|newPin|currentPin|adminPin|pinHash|passwordHash|password)":"(?!\[redacted\])/;
    for (const line of logLines) expect(line).not.toMatch(pinFields);
  });
});
