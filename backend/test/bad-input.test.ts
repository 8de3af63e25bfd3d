import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ApiClient,
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from './support/server.ts';
import type { RouteInfo } from '../src/http/router.ts';

/**
 * Bad input never reaches a 500, on any route the router knows: malformed JSON, bodies of
 * the wrong shape, fields of the wrong type, and garbage query strings all get a 4xx with
 * a message, and the data behind them still reads afterwards.
 */

let server: TestServer;
let clients: { superAdmin: ApiClient; admin: ApiClient; mavenAdmin: ApiClient; anonymous: ApiClient };
let ids: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  const acme = await createTestInstance(server, 'acme', { username: 'owner', pin: '1234' });
  const superAdmin = await signInSuperAdmin(server);
  const instances = (await superAdmin.get('/api/crm-instances')).body as Array<{ id: string; subdomain: string }>;
  const maven = instances.find((i) => i.subdomain === 'maven')!;
  await superAdmin.post(`/api/crm-instances/${maven.id}/users`, { username: 'mavenboss', pin: '2468', role: 'admin' });
  const admin = await signInUser(server, 'acme', 'owner', '1234');
  const mavenAdmin = await signInUser(server, 'maven', 'mavenboss', '2468');
  const staff = await admin.post('/api/admin/users', { username: 'staffer', pin: '5555' });
  const customer = await admin.post('/api/customers', { name: 'Casey Customer', phone: '5551234567' });
  const job = await admin.post('/api/user-info', { name: 'Casey Customer', part: 'Brakes', customerId: customer.body.id });
  const mavenCustomer = await mavenAdmin.post('/api/maven/customers', { name: 'Maven Customer' });
  const mavenJob = await mavenAdmin.post('/api/crm/maven/user-info', { name: 'Maven Job' });
  const request = await admin.post('/api/service-requests', { customerName: 'Riley Requester' });
  for (const res of [staff, customer, job, mavenCustomer, mavenJob, request]) expect(res.status, res.text).toBe(201);
  const jobEvent = (await admin.get(`/api/user-info/${job.body.id}/history`)).body[0];
  const customerEvent = (await admin.get(`/api/customers/${customer.body.id}/history`)).body[0];
  clients = { superAdmin, admin, mavenAdmin, anonymous: new ApiClient(server.url) };
  ids = {
    acmeId: acme.id,
    mavenId: maven.id,
    userId: staff.body.id,
    customerId: customer.body.id,
    jobId: job.body.id,
    mavenCustomerId: mavenCustomer.body.id,
    mavenJobId: mavenJob.body.id,
    serviceRequestId: request.body.id,
    jobEventId: jobEvent.id,
    customerEventId: customerEvent.id,
  };
});

afterAll(async () => {
  await server?.stop();
});

const isMaven = (path: string) => path.includes('/maven/');

/** A well-formed id that names nothing: for a parameter the fixtures have no record for. */
const NOWHERE = '00000000-0000-4000-8000-000000000000';

/** The record a path's `:id` names: the kind of the path's collection, in the maven CRM for the maven family. */
function recordIdFor(path: string): string {
  const maven = isMaven(path);
  if (path.includes('/customers')) return (maven ? ids.mavenCustomerId : ids.customerId)!;
  if (path.includes('/pipeline') || path.includes('/user-info')) return (maven ? ids.mavenJobId : ids.jobId)!;
  if (path.includes('/service-requests')) return ids.serviceRequestId!;
  return ids.userId!;
}

/**
 * A value for each path parameter: a real record of the kind it names where the fixtures
 * have one (so the body or query is what gets judged), and for any other parameter a
 * well-formed id of nothing, which must still be a 4xx. New routes need no change here.
 */
function paramValue(name: string, path: string): string {
  const known: Record<string, string | undefined> = {
    instance: 'acme',
    subdomain: 'acme',
    instanceId: ids.acmeId,
    id: recordIdFor(path),
    userId: ids.userId,
    eventId: path.includes('/customers') ? ids.customerEventId : ids.jobEventId,
    kind: 'job',
    file: 'swagger-ui.css',
  };
  return known[name] ?? NOWHERE;
}

function concretePath(path: string): string {
  return path
    .split('/')
    .map((part) => (part.startsWith(':') ? encodeURIComponent(paramValue(part.slice(1), path)) : part))
    .join('/');
}

/** Event streams never end by themselves: only the status counts, then the stream is closed. */
function isEventStream(route: RouteInfo): boolean {
  return route.doc?.produces === 'text/event-stream';
}

async function statusOfStream(client: ApiClient, path: string): Promise<ApiResponse> {
  const abort = new AbortController();
  try {
    const response = await fetch(client.baseUrl + path, {
      headers: { accept: 'text/event-stream', ...(client.cookieHeader() ? { cookie: client.cookieHeader() } : {}) },
      signal: abort.signal,
    });
    // A refusal is a short body; a stream that opened is not read.
    const text = response.ok ? '' : await response.text();
    return { status: response.status, headers: response.headers, body: text, text };
  } finally {
    abort.abort();
  }
}

function clientFor(path: string, accessKind: string): ApiClient {
  if (accessKind === 'superadmin') return clients.superAdmin;
  if (accessKind === 'public') return clients.anonymous;
  return isMaven(path) ? clients.mavenAdmin : clients.admin;
}

const WRONG_TYPES = {
  name: 123,
  displayName: { nested: true },
  description: ['list'],
  subdomain: 9,
  username: true,
  pin: [1, 2, 3, 4],
  password: 1,
  currentPin: 2,
  newPin: {},
  adminUsername: 2,
  adminPin: 1234,
  role: 9,
  isLocked: 'yes',
  canRead: 'x',
  canWrite: 1,
  features: 7,
  phone: { digits: '555' },
  email: 7,
  vehicles: 5,
  pastAppointments: { a: 1 },
  invoices: true,
  notes: ['x'],
  stage: 5,
  quote: -1,
  appointment: 'tomorrow-ish',
  duration: 'long',
  customerId: 'not-an-id',
  jobNumber: {},
  instance: 42,
  tech: 5,
  customerName: 5,
  contactEmail: ['a@b.c'],
  vehicleType: { make: 'x' },
  serviceType: 3,
  scheduledDate: 'someday',
  additionalNotes: 1,
  enabled: 'yes',
  isActive: 'no',
  publicRequests: 'on',
  timeZone: 12,
};

const BODIES: Array<[string, string]> = [
  ['malformed JSON', '{"name": '],
  ['an array', '[1, 2]'],
  ['a string', '"text"'],
  ['null', 'null'],
  ['fields of the wrong type', JSON.stringify(WRONG_TYPES)],
  [
    'over-long text',
    JSON.stringify({
      name: 'x'.repeat(20_000),
      notes: 'y'.repeat(200_000),
      username: 'z'.repeat(5_000),
      customerName: 'x'.repeat(20_000),
      additionalNotes: 'y'.repeat(200_000),
    }),
  ],
];

/** Bodies the edge checks once answered with a 500 or let through. */
const EDGE_BODIES: Array<[string, string]> = [
  // Named after Object.prototype's own members: the unknown-field check found `constructor`
  // on the prototype (a 500) and took `toString` for a field the schema names (let through).
  ['fields named after Object.prototype', '{"constructor":{"prototype":{"x":1}},"__proto__":{"a":1}}'],
  ['a field named toString', '{"toString":"x"}'],
  // 20,000 nested lists in 40 kB: a stack overflow (a 500) in the body's text check.
  ['a value nested 20,000 deep', `{"name":${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
];

const GARBAGE_QUERY =
  '?limit=-7&cursor=%25%25%25&q=' +
  encodeURIComponent("'; drop table events; --") +
  '&asOf=yesterday&from=soon&to=later&stage=Nope&sort=price&canceled=maybe&customerId=zz&entityType=%00&userId=1';

function expectClientError(res: ApiResponse, what: string): void {
  expect(res.status, `${what}: ${res.status} ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.headers.get('content-type')?.includes('json')) {
    expect(typeof (res.body as { message?: unknown }).message, what).toBe('string');
  }
}

describe('bad input on every route', () => {
  test('bodies: malformed, wrong shape, wrong types, over-long — 4xx with a message, never 500', async () => {
    const routes = server.runtime.router.routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method));
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const client = clientFor(route.path, route.access.kind);
      const path = concretePath(route.path);
      for (const [label, body] of BODIES) {
        const res = await client.request(route.method, path, body, { 'content-type': 'application/json' });
        // A route that takes no body (sign-out, cancel, reopen, revert, restore, ...) has nothing to
        // reject: a 2xx there is right, as long as it is not a 500.
        if (!route.doc?.body) {
          expect(res.status, `${route.method} ${route.path} with ${label}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
          continue;
        }
        expectClientError(res, `${route.method} ${route.path} with ${label}`);
      }
    }
  });

  test('bodies with fields named after Object.prototype, or nested 20,000 deep: 400 with a message, never 500', async () => {
    const routes = server.runtime.router.routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.doc?.body);
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const client = clientFor(route.path, route.access.kind);
      for (const [label, body] of EDGE_BODIES) {
        const res = await client.request(route.method, concretePath(route.path), body, { 'content-type': 'application/json' });
        expectClientError(res, `${route.method} ${route.path} with ${label}`);
      }
    }
    const deep = await clients.admin.request('PUT', `/api/customers/${ids.customerId}`, EDGE_BODIES[2]![1], {
      'content-type': 'application/json',
    });
    expect(deep.body.detail).toBe('The request body nests more than 32 levels deep');
  });

  test('a write route that takes no body refuses a body with fields, naming them (nothing sent is ignored)', async () => {
    // DELETE bodies are not read at all (the body parser takes POST, PUT and PATCH).
    const routes = server.runtime.router.routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.doc?.body);
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const client = clientFor(route.path, route.access.kind);
      const res = await client.request(route.method, concretePath(route.path), { reason: 'sent along' });
      const what = `${route.method} ${route.path}: ${res.status} ${res.text.slice(0, 200)}`;
      // Refused by its access rule first, or by this one: never done with the field dropped.
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      if (res.status === 400) expect(res.body.errors, what).toEqual([{ field: 'reason', message: 'Unknown field: reason' }]);
    }
    // An empty object, or no body at all, is what such a route takes.
    const job = await clients.admin.post('/api/user-info', { name: 'Empty Body Job' });
    expect((await clients.admin.post(`/api/user-info/${job.body.id}/cancel`, {})).status).toBe(200);
    expect((await clients.admin.post(`/api/user-info/${job.body.id}/reopen`)).status).toBe(200);
  });

  test('query strings: garbage parameters on every GET are 4xx or ignored, never 500', async () => {
    const routes = server.runtime.router.routes.filter((r) => r.method === 'GET');
    for (const route of routes) {
      const client = clientFor(route.path, route.access.kind);
      const path = concretePath(route.path) + GARBAGE_QUERY;
      const res = isEventStream(route) ? await statusOfStream(client, path) : await client.get(path);
      expect(res.status, `GET ${route.path}${GARBAGE_QUERY}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
    }
  });

  test('an unknown query parameter is a 400 naming it on every route, the public ones and the health checks included', async () => {
    const answers: Array<[RouteInfo, ApiResponse]> = [];
    for (const route of server.runtime.router.routes) {
      const client = clientFor(route.path, route.access.kind);
      const path = `${concretePath(route.path)}?nosuchparam=1`;
      const res = isEventStream(route) ? await statusOfStream(client, path) : await client.request(route.method, path);
      const what = `${route.method} ${route.path}?nosuchparam=1: ${res.status} ${res.text.slice(0, 200)}`;
      // Refused by its access rule or feature first, or by this one: never answered as if it were not sent.
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      if (res.status === 400)
        expect(res.text, what).toContain('"errors":[{"field":"nosuchparam","message":"Unknown query parameter: nosuchparam"}]');
      answers.push([route, res]);
    }
    // Every public route answers with this rule before looking anything up (estimate link, unsubscribe, public request page, sign-in).
    const publicRoutes = answers.filter(([route]) => route.access.kind === 'public');
    expect(publicRoutes.length).toBeGreaterThan(8);
    for (const [route, res] of publicRoutes) expect(res.status, `${route.method} ${route.path}: ${res.text.slice(0, 200)}`).toBe(400);
    for (const path of ['/healthz', '/readyz']) {
      const res = await clients.anonymous.get(`${path}?nosuchparam=1`);
      expect(res.status, path).toBe(400);
      expect(res.body.detail).toBe('Unknown query parameter: nosuchparam');
      expect((await clients.anonymous.get(path)).status, path).toBe(200);
    }
    // A name of Object.prototype's own is as unknown as any other.
    const prototypeNames = await clients.admin.get('/api/customers?constructor=1&toString=2');
    expect(prototypeNames.status, prototypeNames.text).toBe(400);
    expect(prototypeNames.body.detail).toBe('Unknown query parameters: constructor, toString');
    // What a route documents it still takes.
    expect((await clients.admin.get('/api/customers?limit=5')).status).toBe(200);
  });

  test('nothing stored was lost or half-written: the records read as before', async () => {
    const customer = await clients.admin.get(`/api/customers/${ids.customerId}`);
    expect(customer.status).toBe(200);
    expect(customer.body).toMatchObject({ name: 'Casey Customer', phone: '555-123-4567' });
    const job = await clients.admin.get(`/api/user-info/${ids.jobId}`);
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ name: 'Casey Customer', part: 'Brakes', stage: 'Quote' });
    const users = await clients.admin.get('/api/admin/users');
    expect(users.body.map((u: { username: string }) => u.username).sort()).toEqual(['owner', 'staffer']);
    expect(users.body.every((u: { isLocked: boolean }) => !u.isLocked)).toBe(true);
    expect((await signInUser(server, 'acme', 'owner', '1234')).cookieHeader()).toContain('crm.sid');
  });
});
