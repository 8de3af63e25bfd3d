import { afterAll, beforeAll, expect, test } from 'vitest';
import { SESSION_COOKIE } from '../../src/http/session-cookie.ts';
import { forgetCachedSessions, IDLE_TIMEOUT_MS, TOUCH_INTERVAL_MS } from '../../src/http/session-store.ts';
import { ApiClient, createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The idle timeout: a session expires a full idle window (8 hours for staff, 1 for the super
 * admin) after it was last touched, its row and its cookie alike; a request touches it when
 * its expiry was set more than a minute ago, and between touches sends no cookie and writes
 * nothing. Time is moved by setting the stored expiry back, as if the touch were older.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

interface StoredSession {
  expire: number;
  expiresAt: number;
}

function sessionIdOf(client: ApiClient): string {
  const match = new RegExp(`(?:^|; )${SESSION_COOKIE.replace('.', '\\.')}=([^;]+)`).exec(client.cookieHeader());
  if (!match) throw new Error('no session cookie');
  return match[1]!;
}

async function stored(id: string): Promise<StoredSession> {
  const row = await server.runtime.deps
    .knex('sessions')
    .where({ id })
    .first<{ data: { _expire: number }; expires_at: Date }>('data', 'expires_at');
  return { expire: row.data._expire, expiresAt: new Date(row.expires_at).getTime() };
}

/** Makes the session's last touch `ms` older, in its row (every process then reads it so). */
async function age(id: string, ms: number): Promise<void> {
  await server.runtime.deps.knex.raw(
    `UPDATE sessions SET data = jsonb_set(data, '{_expire}', to_jsonb((data->>'_expire')::bigint - ?)),
            expires_at = expires_at - make_interval(secs => ? / 1000.0)
      WHERE id = ?`,
    [ms, ms, id],
  );
  forgetCachedSessions();
}

/** The session cookie's Max-Age in ms, when the answer sets it. */
function cookieMaxAge(headers: Headers): number | null {
  const cookie = headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) return null;
  const expires = /expires=([^;]+)/i.exec(cookie);
  return expires ? Date.parse(expires[1]!) - Date.now() : null;
}

test('requests within a minute of the last touch send no cookie and leave the stored expiry as it is', async () => {
  const shop = await createTestInstance(server, 'idlequiet');
  const owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  const id = sessionIdOf(owner);
  const before = await stored(id);
  for (let i = 0; i < 3; i++) {
    const answer = await owner.get('/api/session');
    expect(answer.body.user).toMatchObject({ username: 'owner' });
    expect(answer.headers.getSetCookie()).toEqual([]);
  }
  expect(await stored(id)).toEqual(before);
});

test('a request after a minute pushes the expiry forward a full idle window, in the row and the cookie', async () => {
  const shop = await createTestInstance(server, 'idletouch');
  const owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  const id = sessionIdOf(owner);
  await age(id, TOUCH_INTERVAL_MS + 1000);
  const aged = await stored(id);
  const requestedAt = Date.now();
  const answer = await owner.get('/api/session');
  expect(answer.body.user).toMatchObject({ username: 'owner' });
  const touched = await stored(id);
  expect(touched.expire).toBeGreaterThanOrEqual(requestedAt + IDLE_TIMEOUT_MS.user);
  expect(touched.expire).toBeGreaterThan(aged.expire);
  expect(touched.expiresAt).toBeGreaterThanOrEqual(touched.expire);
  // The cookie lives as long as the row's expiry: the browser keeps it for the whole window.
  const maxAge = cookieMaxAge(answer.headers);
  expect(maxAge).not.toBeNull();
  expect(maxAge!).toBeGreaterThan(IDLE_TIMEOUT_MS.user - TOUCH_INTERVAL_MS);
  expect(maxAge!).toBeLessThanOrEqual(IDLE_TIMEOUT_MS.user + 1000);
  // Touched: the next request sends no cookie again.
  expect((await owner.get('/api/session')).headers.getSetCookie()).toEqual([]);
});

test('a session idle for its whole window is signed out; the super admin has an hour', async () => {
  const shop = await createTestInstance(server, 'idleend');
  const owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  const id = sessionIdOf(owner);
  // Just inside the window (the last touch 8 hours less a minute ago): still signed in.
  await age(id, IDLE_TIMEOUT_MS.user - TOUCH_INTERVAL_MS);
  expect((await owner.get('/api/session')).body.user).toMatchObject({ username: 'owner' });
  // And touched by that request: it starts a new window.
  expect((await stored(id)).expire).toBeGreaterThan(Date.now() + IDLE_TIMEOUT_MS.user - TOUCH_INTERVAL_MS);
  await age(id, IDLE_TIMEOUT_MS.user + 1000);
  expect((await owner.get('/api/session')).body).toEqual({ user: null, superAdmin: null });
  expect((await owner.get('/api/customers')).status).toBe(401);

  const provider = await signInSuperAdmin(server);
  const providerId = sessionIdOf(provider);
  const signedIn = await stored(providerId);
  expect(signedIn.expire - Date.now()).toBeLessThanOrEqual(IDLE_TIMEOUT_MS.superadmin);
  await age(providerId, TOUCH_INTERVAL_MS + 1000);
  const answer = await provider.get('/api/session');
  expect(answer.body.superAdmin).toMatchObject({ username: 'superadmin' });
  const maxAge = cookieMaxAge(answer.headers);
  expect(maxAge!).toBeGreaterThan(IDLE_TIMEOUT_MS.superadmin - TOUCH_INTERVAL_MS);
  expect(maxAge!).toBeLessThanOrEqual(IDLE_TIMEOUT_MS.superadmin + 1000);
  await age(providerId, IDLE_TIMEOUT_MS.superadmin + 1000);
  expect((await provider.get('/api/session')).body).toEqual({ user: null, superAdmin: null });
});
