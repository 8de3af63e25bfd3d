import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PERMISSION_KEYS, type Permission } from '@crm/projections/identity';
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

/**
 * Who may call what, swept over every operation of the API document the server serves: the
 * document's "Who may call it" is the expectation, and every caller who is not that person
 * gets a 401 or 403 problem and nothing else. A new route is in the sweep the moment it is
 * registered (the document is made from the router), so nobody has to remember to add it.
 *
 * The guard runs before a handler reads its path parameters or body, so made-up ids and an
 * empty body are enough: a caller let through gets whatever the handler answers (a 404 for
 * the made-up record), which is never a 401 and never a 403 from the guard.
 */

type Expected =
  { kind: 'public' } | { kind: 'superadmin' } | { kind: 'user' } | { kind: 'permission'; permission: Permission } | { kind: 'admin' };

interface Operation {
  method: string;
  /** The document's path, `/api/{instance}/…`. */
  path: string;
  expected: Expected;
  stream: boolean;
}

/** The document's own words for who may call an operation (http/openapi.ts), read back. */
function expectedOf(description: string): Expected {
  const who = description.replace(/^Who may call it: /, '');
  if (who === 'Anyone (no session).') return { kind: 'public' };
  if (who === "The provider's super admin session.") return { kind: 'superadmin' };
  if (who === 'Any signed-in user of the instance.') return { kind: 'user' };
  if (who === 'Role admin of the instance.') return { kind: 'admin' };
  const permission = /^A signed-in user of the instance with (\w+)\.$/.exec(who)?.[1];
  if (permission && (PERMISSION_KEYS as readonly string[]).includes(permission))
    return { kind: 'permission', permission: permission as Permission };
  throw new Error(`An access the sweep does not know: "${who}" (teach expectedOf in access-sweep.test.ts)`);
}

const MADE_UP_ID = '00000000-0000-4000-8000-0000000000aa';

function pathFor(operation: Operation, instance: TestInstance): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'instance' || name === 'subdomain') return instance.subdomain;
    if (name === 'instanceId') return instance.id;
    if (name === 'kind') return 'job';
    if (name === 'file') return 'swagger-ui.css';
    if (name === 'token') return 'x'.repeat(64);
    return MADE_UP_ID;
  });
}

/** A request whose answer ends: an event stream is read until its head only. */
async function send(client: ApiClient | { cookie: string; baseUrl: string }, operation: Operation, path: string): Promise<ApiResponse> {
  if (client instanceof ApiClient && !operation.stream) {
    return client.request(operation.method, path, operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {});
  }
  const cookie = client instanceof ApiClient ? client.cookieHeader() : client.cookie;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 15_000);
  try {
    const response = await fetch(client.baseUrl + path, {
      method: operation.method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(operation.method === 'GET' ? {} : { 'x-crm-request': '1', 'content-type': 'application/json' }),
      },
      ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { body: '{}' }),
      signal: abort.signal,
    });
    // A stream let through stays open: its status is the answer, its body is not awaited.
    const text = operation.stream && response.status === 200 ? '' : await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: response.status, headers: response.headers, body, text };
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

function expectRefused(res: ApiResponse, status: 401 | 403, what: string) {
  expect(res.status, `${what}: ${res.text}`).toBe(status);
  expect(res.headers.get('content-type'), what).toContain('application/problem+json');
  expect((res.body as { message?: unknown }).message, what).toEqual(expect.any(String));
}

function expectLetThrough(res: ApiResponse, what: string) {
  expect([401, 403], `${what} was refused: ${res.text}`).not.toContain(res.status);
  expect(res.status, `${what}: ${res.text}`).toBeLessThan(500);
}

/**
 * Calls `check` for every operation, a few at a time: the sweep is about a thousand requests,
 * and one after another they take minutes on a busy machine.
 */
async function sweep(check: (operation: Operation) => Promise<void>): Promise<void> {
  const queue = [...operations];
  const worker = async () => {
    for (let operation = queue.shift(); operation; operation = queue.shift()) await check(operation);
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

/** The permissions of each staff member the sweep signs in as (none of them role admin). */
const STAFF: Record<string, Partial<Record<Permission, boolean>>> = {
  nothing: { canRead: false, canWrite: false, canDelete: false, canManageUsers: false },
  reader: { canRead: true, canWrite: false, canDelete: false, canManageUsers: false },
  writer: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
  deleter: { canRead: true, canWrite: true, canDelete: true, canManageUsers: false },
  manager: { canRead: true, canWrite: false, canDelete: false, canManageUsers: true },
};

let server: TestServer;
let shop: TestInstance;
let closed: TestInstance;
let operations: Operation[];
const staff = new Map<string, ApiClient>();
let admin: ApiClient;
let superAdmin: ApiClient;
/** Cookies of sessions the server has since ended, sent again as they were. */
const endedSessions: Array<{ why: string; cookie: string; instance: TestInstance }> = [];

beforeAll(async () => {
  server = await startTestServer();
  closed = await createTestInstance(server, 'sweepclosed', { username: 'closer', pin: '4321' });
  superAdmin = await signInSuperAdmin(server);
  // The provider's own CRM: its literal paths (`/api/maven/…`) are then the shop's too, and
  // every path family reaches the same records.
  const maven = ((await superAdmin.get('/api/crm-instances')).body as Array<{ id: string; subdomain: string }>).find(
    (instance) => instance.subdomain === 'maven',
  )!;
  shop = { id: maven.id, subdomain: maven.subdomain, admin: { username: 'sweepboss', pin: '1357' } };
  const boss = await superAdmin.post(`/api/crm-instances/${shop.id}/users`, { username: 'sweepboss', pin: '1357', role: 'admin' });
  if (boss.status !== 201) throw new Error(`setup: ${boss.status} ${boss.text}`);
  // Every feature on, so no route hides behind a feature's 404.
  const on = await superAdmin.put(`/api/crm-instances/${shop.id}`, {
    features: { pipeline: true, customers: true, calendar: true, serviceRequests: true, admin: true },
  });
  if (on.status !== 200) throw new Error(`setup: ${on.status} ${on.text}`);
  admin = await signInUser(server, shop.subdomain, shop.admin.username, shop.admin.pin);
  for (const [name, permissions] of Object.entries({ ...STAFF, locked: STAFF.writer!, removed: STAFF.writer! })) {
    const created = await admin.post('/api/admin/users', { username: name, pin: '2468' });
    if (created.status !== 201) throw new Error(`setup ${name}: ${created.status} ${created.text}`);
    const changed = await admin.patch(`/api/admin/users/${created.body.id}/permissions`, permissions);
    if (changed.status !== 200) throw new Error(`setup ${name}: ${changed.status} ${changed.text}`);
    staff.set(name, await signInUser(server, shop.subdomain, name, '2468'));
    (staff.get(name) as ApiClient & { id?: string }).id = created.body.id;
  }
  // Sessions the server ends: a user locked, a user deleted, a CRM closed, a sign-out.
  const idOf = (name: string) => (staff.get(name) as ApiClient & { id: string }).id;
  const locked = await admin.patch(`/api/admin/users/${idOf('locked')}/lock`, { isLocked: true });
  const removed = await admin.delete(`/api/admin/users/${idOf('removed')}`);
  const closer = await signInUser(server, closed.subdomain, 'closer', '4321');
  const close = await superAdmin.patch(`/api/crm-instances/${closed.id}`, { isActive: false });
  const signedOut = await signInUser(server, shop.subdomain, shop.admin.username, shop.admin.pin);
  const signedOutCookie = signedOut.cookieHeader();
  const signOut = await signedOut.post('/api/auth/logout');
  for (const res of [locked, removed, close, signOut]) if (res.status >= 300) throw new Error(`setup: ${res.status} ${res.text}`);
  endedSessions.push(
    { why: 'a locked user', cookie: staff.get('locked')!.cookieHeader(), instance: shop },
    { why: 'a deleted user', cookie: staff.get('removed')!.cookieHeader(), instance: shop },
    { why: 'a user of a closed CRM', cookie: closer.cookieHeader(), instance: closed },
    { why: 'a user who signed out', cookie: signedOutCookie, instance: shop },
  );

  const document = (await new ApiClient(server.url).get('/api/openapi.json')).body as {
    paths: Record<string, Record<string, { description: string; responses: Record<string, { content?: Record<string, unknown> }> }>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      expected: expectedOf(operation.description),
      stream: Object.keys(operation.responses['200']?.content ?? {}).includes('text/event-stream'),
    })),
  );
});
afterAll(async () => {
  await server?.stop();
});

/** Whether a staff member (role user) with these permissions is who the operation is for. */
function staffMayCall(expected: Expected, permissions: Partial<Record<Permission, boolean>>): boolean {
  if (expected.kind === 'user') return true;
  if (expected.kind === 'permission') return permissions[expected.permission] === true;
  return false;
}

describe('access, every operation of the API document', { timeout: 240_000 }, () => {
  test('the document lists every route the router knows', () => {
    const documented = operations.map((o) => `${o.method} ${o.path}`).sort();
    const routed = server.runtime.router.routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort();
    expect(documented).toEqual(routed);
    expect(operations.length).toBeGreaterThan(150);
  });

  test('a write is never open to someone who may only read, nor a deletion to someone who may only write', () => {
    // Changing one's own PIN is the one write every signed-in user has (it is their own account).
    const ownAccount = new Set(['PUT /api/user/pin']);
    for (const { method, path, expected } of operations) {
      if (method === 'GET' || expected.kind === 'public' || ownAccount.has(`${method} ${path}`)) continue;
      expect(expected.kind === 'user' || (expected.kind === 'permission' && expected.permission === 'canRead'), `${method} ${path}`).toBe(
        false,
      );
    }
  });

  test('without a session: 401 on everything but the public operations', async () => {
    const anonymous = new ApiClient(server.url);
    await sweep(async (operation) => {
      if (operation.expected.kind === 'public') return;
      expectRefused(await send(anonymous, operation, pathFor(operation, shop)), 401, `anonymous ${operation.method} ${operation.path}`);
    });
  });

  test.each(['a locked user', 'a deleted user', 'a user of a closed CRM', 'a user who signed out'])(
    'the session of %s is no session: 401 on every operation, its cookie sent again',
    async (why) => {
      const { cookie, instance } = endedSessions.find((ended) => ended.why === why)!;
      await sweep(async (operation) => {
        if (operation.expected.kind === 'public') return;
        const res = await send({ cookie, baseUrl: server.url }, operation, pathFor(operation, instance));
        expectRefused(res, 401, `${why}: ${operation.method} ${operation.path}`);
      });
    },
  );

  test.each(Object.keys(STAFF))(
    'staff with %s: 403 wherever the document asks for more, let through wherever it does not',
    async (name) => {
      const client = staff.get(name)!;
      const permissions = STAFF[name]!;
      for (const operation of operations) {
        if (operation.expected.kind === 'public') continue;
        // Writes let through would change the shop under the other checks: only reads are sent then.
        const allowed = staffMayCall(operation.expected, permissions);
        if (allowed && operation.method !== 'GET') continue;
        const res = await send(client, operation, pathFor(operation, shop));
        const what = `${name} ${operation.method} ${operation.path}`;
        if (allowed) expectLetThrough(res, what);
        else expectRefused(res, 403, what);
      }
    },
  );

  test("the super admin: 403 on every instance's operation (sign in to the instance for those), let through on the provider's", async () => {
    await sweep(async (operation) => {
      if (operation.expected.kind === 'public') return;
      const what = `super admin ${operation.method} ${operation.path}`;
      if (operation.expected.kind !== 'superadmin') {
        expectRefused(await send(superAdmin, operation, pathFor(operation, shop)), 403, what);
      } else if (operation.method === 'GET') {
        expectLetThrough(await send(superAdmin, operation, pathFor(operation, shop)), what);
      }
    });
  });

  test("the shop's admin: 403 on every provider operation, let through on every read of the shop", async () => {
    await sweep(async (operation) => {
      if (operation.expected.kind === 'public') return;
      const what = `shop admin ${operation.method} ${operation.path}`;
      if (operation.expected.kind === 'superadmin') expectRefused(await send(admin, operation, pathFor(operation, shop)), 403, what);
      else if (operation.method === 'GET') expectLetThrough(await send(admin, operation, pathFor(operation, shop)), what);
    });
  });
});
