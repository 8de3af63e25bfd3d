import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { lastCommittedPosition } from '@crm/projections/testing/events';
import type { RouteInfo } from '../../src/http/router.ts';
import { ApiClient, createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * Property-based hostile input against every route the router knows, generated from the API
 * contract (each route's documented body and query schemas name the fields to attack):
 * malformed JSON, wrong types, nulls, extra fields, very long strings, NUL, lone surrogates,
 * right-to-left text and emoji, SQL and HTML payloads, ids that are not ids, the path in
 * other letter cases and encodings, huge or negative limits and cursors, bad dates, odd
 * If-Match and Idempotency-Key headers. Every answer must be 2xx (the input happened to be
 * valid) or a 4xx problem-details JSON with a message; never a 5xx. Afterwards a rebuild of
 * the read models from the events must give identical tables: nothing was half-written.
 *
 * HOSTILE_RUNS sets the number of generated requests (default 1,500) for a longer run.
 */

const RUNS = Number(process.env.HOSTILE_RUNS ?? 1500);
const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : undefined;

let server: TestServer;
let clients: { superAdmin: ApiClient; admin: ApiClient; mavenAdmin: ApiClient; anonymous: ApiClient };
let ids: Record<string, string>;
let routes: RouteInfo[];
let tried = 0;
const statusCounts = new Map<number, number>();

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'hostile', { username: 'owner', pin: '1234' });
  const victim = await createTestInstance(server, 'victim', { username: 'owner', pin: '1234' });
  const superAdmin = await signInSuperAdmin(server);
  const instances = (await superAdmin.get('/api/crm-instances')).body as Array<{ id: string; subdomain: string }>;
  const maven = instances.find((i) => i.subdomain === 'maven')!;
  await superAdmin.post(`/api/crm-instances/${maven.id}/users`, { username: 'mavenboss', pin: '2468', role: 'admin' });
  const victimUsers = (await superAdmin.get(`/api/crm-instances/${victim.id}/users`)).body as Array<{ id: string }>;
  const admin = await signInUser(server, 'hostile', 'owner', '1234');
  const mavenAdmin = await signInUser(server, 'maven', 'mavenboss', '2468');
  const staff = await admin.post('/api/admin/users', { username: 'staffer', pin: '5555' });
  const customer = await admin.post('/api/customers', { name: 'Hostile Customer', phone: '5551234567' });
  const job = await admin.post('/api/user-info', { name: 'Hostile Job', part: 'Brakes', customerId: customer.body.id });
  const request = await admin.post('/api/service-requests', { name: 'Hostile Request', phone: '5551234567', description: 'Noise' });
  const mavenCustomer = await mavenAdmin.post('/api/maven/customers', { name: 'Maven Customer' });
  const mavenJob = await mavenAdmin.post('/api/crm/maven/user-info', { name: 'Maven Job' });
  for (const res of [staff, customer, job, mavenCustomer, mavenJob]) expect(res.status, res.text).toBe(201);
  clients = { superAdmin, admin, mavenAdmin, anonymous: new ApiClient(server.url) };
  ids = {
    victimId: victim.id,
    victimUserId: victimUsers[0]!.id,
    userId: staff.body.id,
    customerId: customer.body.id,
    jobId: job.body.id,
    requestId: request.status === 201 ? request.body.id : customer.body.id,
    mavenCustomerId: mavenCustomer.body.id,
    mavenJobId: mavenJob.body.id,
  };
  routes = server.runtime.router.routes;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

// ---- generators -----------------------------------------------------------------------

const PAYLOADS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udc00',
  '\udbff\ud800',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  'שלום',
  '😀👍🏽👨‍👩‍👧',
  "' OR '1'='1",
  "'; DROP TABLE events; --",
  '1; SELECT pg_sleep(5)',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '${7*7}{{7*7}}',
  '../../../../etc/passwd',
  '%00',
  '%ED%A0%80',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e400',
  '99999999999999999999999',
  'x'.repeat(10_000),
  'y'.repeat(300),
];

const NOT_IDS = [
  '0',
  '-1',
  'not-an-id',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  "1' OR '1'='1",
  'a\u0000b',
  '\ud800',
  '%2e%2e%2f',
  '..',
  'x'.repeat(5_000),
  '😀',
  '12345678-1234-1234-1234-1234567890123',
];

const BAD_DATES = [
  '2026-02-30',
  '2026-13-01',
  '9999-99-99T99:99:99Z',
  'yesterday',
  '0000-00-00',
  '-2026-01-01',
  '2026-01-01T25:00',
  '1e12',
];
const BAD_NUMBERS = ['-1', '0', '-999999999999', '1e400', '99999999999999999999', '1.5', 'NaN', 'Infinity', '0x10', ''];

const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(...BAD_DATES, ...BAD_NUMBERS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: hostileText },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileText, tie('value'), { maxKeys: 3 }) },
  ),
})).value;

/**
 * A valid body per kind of write (matched on the path's end), so that one hostile field
 * inside an otherwise valid request gets past the schema's first refusal and reaches the
 * command and the database, where the 500s used to come from.
 */
const VALID_BODIES: Array<[RegExp, Record<string, unknown>]> = [
  [
    /\/customers(\/:id)?$/,
    {
      name: 'Valid Name',
      phone: '5551234567',
      email: 'a@b.co',
      address: '1 Main St',
      vehicles: ['Civic'],
      pastAppointments: [],
      invoices: ['INV-1'],
      notes: 'n',
    },
  ],
  [
    /\/(user-info|pipeline)(\/:id)?$/,
    {
      name: 'Valid Job',
      part: 'Brakes',
      phone: '5551234567',
      makeModel: 'Civic',
      quote: 120.5,
      vin: '1HGCM82633A004352',
      csr: 'Sam',
      tech: 'Al',
      notes: 'n',
      appointment: '2026-03-02T10:00:00.000Z',
      duration: 60,
    },
  ],
  [/\/stage$/, { stage: 'Scheduled' }],
  [/\/appointment$/, { appointment: '2026-03-02T10:00:00.000Z', duration: 60 }],
  [
    /\/service-requests(\/:id)?$/,
    { name: 'Valid Request', phone: '5551234567', email: 'a@b.co', vehicle: 'Civic', description: 'Brakes squeal' },
  ],
  [/\/admin\/users$|\/crm-instances\/:instanceId\/users$/, { username: 'valid.user', displayName: 'Valid', pin: '9876', role: 'user' }],
  [/\/permissions$/, { canRead: true, canWrite: true, canDelete: false, canManageUsers: false }],
  [
    /\/crm-instances(\/:instanceId)?$/,
    { name: 'Valid Shop', displayName: 'Valid Shop', subdomain: 'valid-shop', adminUsername: 'owner', adminPin: '1234' },
  ],
];

/** Values that are the right type but at or past the edges of what a column holds. */
const EDGE_VALUES: unknown[] = [
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  -1,
  0,
  0.1 + 0.2,
  2 ** 31,
  -(2 ** 31) - 1,
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00.000Z',
  '2026-03-02T10:00:00+14:00',
  '2026-03-08T02:30:00',
  'x'.repeat(100_000),
  ['a'.repeat(1000)],
  Array.from({ length: 1000 }, (_, i) => `v${i}`),
];

const MALFORMED_JSON = [
  '{"name": ',
  '{',
  '[',
  '{"a":1,}',
  "{'a':1}",
  '{"a":"\\x00"}',
  'nul',
  '"\\ud800"',
  '{"a":' + '['.repeat(2000),
  '\u0000',
];

/** The field names a route's contract documents for its body or query. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
    return Object.keys(json.properties ?? {});
  } catch {
    return [];
  }
}

/** Percent-encodes text for a URL; a lone surrogate (which encodeURIComponent refuses) goes as its CESU bytes. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .split('')
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (code >= 0xd800 && code <= 0xdfff) {
          return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('');
        }
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

const isMaven = (path: string) => path.includes('/maven/');

/** A real record of the kind each path parameter names. */
function realValue(path: string, param: string): string {
  const maven = isMaven(path);
  switch (param) {
    case 'instance':
    case 'subdomain':
      return 'hostile';
    case 'instanceId':
      return ids.victimId!;
    case 'userId':
      return ids.victimUserId!;
    case 'file':
      return 'swagger-ui.css';
    case 'kind':
      return path.includes('customer') ? 'customer' : 'job';
    case 'eventId':
      return '3f1a1e0e-8a7b-4c55-9a55-0d5a0c1f9e11';
    default:
      if (path.includes('service-requests')) return ids.requestId!;
      if (path.includes('customers')) return maven ? ids.mavenCustomerId! : ids.customerId!;
      if (path.includes('pipeline') || path.includes('user-info')) return maven ? ids.mavenJobId! : ids.jobId!;
      return ids.userId!;
  }
}

type PathVariant = 'as-is' | 'upper' | 'mixed' | 'encoded-letter' | 'double-slash' | 'trailing-slash' | 'encoded-slash';

function spell(path: string, variant: PathVariant): string {
  switch (variant) {
    case 'as-is':
      return path;
    case 'upper':
      return path.replace('/api/', '/API/');
    case 'mixed':
      return path.replace(/[a-z]/g, (ch, i: number) => (i % 3 === 0 ? ch.toUpperCase() : ch));
    case 'encoded-letter':
      return path.replace('/api/', '/%61pi/');
    case 'double-slash':
      return path.replace('/api/', '/api//');
    case 'trailing-slash':
      return `${path}/`;
    case 'encoded-slash':
      return path.replace(/\/([^/]*)$/, '%2F$1');
  }
}

interface HostileRequest {
  /** Who sends it: the route's kind of caller. */
  client: 'superAdmin' | 'admin' | 'mavenAdmin' | 'anonymous';
  method: string;
  path: string;
  body: string | undefined;
  headers: Record<string, string>;
  label: string;
}

function hostileRequest(route: RouteInfo): fc.Arbitrary<HostileRequest> {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const bodyFields = fieldsOf(route.doc?.body);
  const queryFields = [...fieldsOf(route.doc?.query), 'limit', 'cursor', 'q', 'from', 'to', 'asOf'];
  const paramValue = (param: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(realValue(route.path, param)) },
      { weight: 2, arbitrary: fc.constantFrom(...NOT_IDS) },
      { weight: 1, arbitrary: hostileText.filter((t) => t.length > 0) },
    );
  const pathArb = fc
    .tuple(
      fc.tuple(...params.map(paramValue)),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant<PathVariant>('as-is') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<PathVariant>('upper', 'mixed', 'encoded-letter', 'double-slash', 'trailing-slash', 'encoded-slash'),
        },
      ),
    )
    .map(([values, variant]) => {
      let i = 0;
      const filled = route.path.replace(/:(\w+)/g, () => encode(values[i++] as string));
      return spell(filled, variant);
    });
  const queryArb = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...queryFields), hostileText), hostileText), { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : ''));
  const objectBody = fc
    .tuple(
      fc.dictionary(fc.constantFrom(...(bodyFields.length ? bodyFields : ['name'])), hostileValue, {
        maxKeys: Math.max(1, bodyFields.length),
      }),
      fc.dictionary(hostileText, hostileValue, { maxKeys: 2 }),
    )
    .map(([fields, extra]) => JSON.stringify({ ...extra, ...fields }));
  const valid = VALID_BODIES.find(([pattern]) => pattern.test(route.path))?.[1];
  const mutatedBody = valid
    ? fc
        .tuple(fc.constantFrom(...Object.keys(valid)), fc.oneof(hostileValue, fc.constantFrom(...EDGE_VALUES)), fc.boolean())
        .map(([field, value, unique]) =>
          // A fresh username or subdomain now and then, so creates get past "already taken".
          JSON.stringify({
            ...valid,
            ...(unique && 'username' in valid ? { username: `u${Math.random().toString(36).slice(2, 10)}` } : {}),
            ...(unique && 'subdomain' in valid ? { subdomain: `s${Math.random().toString(36).slice(2, 10)}` } : {}),
            [field]: value,
          }),
        )
    : objectBody;
  const bodyArb: fc.Arbitrary<string | undefined> = fc.oneof(
    { weight: 4, arbitrary: mutatedBody },
    { weight: 3, arbitrary: objectBody },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON) },
    { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const headersArb = fc.record(
    {
      'if-match': fc.oneof(fc.constantFrom('W/"-1"', '"abc"', '*', 'W/"99999999999999999999"', 'W/"1"', '"1", "2"'), hostileText),
      'idempotency-key': fc.oneof(fc.uuid(), hostileText),
      'content-type': fc.constantFrom(
        'text/plain',
        'application/json; charset=latin1',
        'application/x-www-form-urlencoded',
        'application/json',
      ),
    },
    { requiredKeys: [] },
  );
  const methodArb = fc.oneof(
    { weight: 9, arbitrary: fc.constant(route.method) },
    { weight: 1, arbitrary: fc.constantFrom('PATCH', 'DELETE', 'PUT', 'PURGE', 'OPTIONS') },
  );
  return fc.tuple(methodArb, pathArb, queryArb, bodyArb, headersArb).map(([method, path, query, body, headers]) => ({
    client: clientFor(route),
    method,
    path: path + query,
    body: method === 'GET' ? undefined : body,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, headerSafe(v as string)])),
    label: `${method} ${path + query}`.slice(0, 300),
  }));
}

/** Header values are Latin-1 on the wire; anything else is what a client cannot even send. */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 4000);
}

function clientFor(route: RouteInfo): HostileRequest['client'] {
  if (route.access.kind === 'superadmin') return 'superAdmin';
  if (route.access.kind === 'public') return 'anonymous';
  return isMaven(route.path) ? 'mavenAdmin' : 'admin';
}

async function send(request: HostileRequest): Promise<void> {
  const client = clients[request.client];
  const headers: Record<string, string> = { 'x-crm-request': '1', ...request.headers };
  if (request.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const cookie = client.cookieHeader();
  if (cookie) headers.cookie = cookie;
  let response: Response;
  try {
    response = await fetch(client.baseUrl + request.path, {
      method: request.method,
      headers,
      body: request.body,
      signal: AbortSignal.timeout(20_000),
    });
  } catch (error) {
    // A URL fetch itself refuses to send (e.g. a malformed one) never reached the server.
    if (error instanceof TypeError && /URL|Invalid|header/i.test(String(error.message) + String(error.cause ?? ''))) return;
    throw error;
  }
  tried++;
  statusCounts.set(response.status, (statusCounts.get(response.status) ?? 0) + 1);
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('event-stream')) {
    await response.body?.cancel();
    expect(response.status, request.label).toBeLessThan(500);
    return;
  }
  const text = await response.text();
  expect(response.status, `${request.label} → ${response.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status >= 400) {
    expect(type, `${request.label} → ${response.status} ${text.slice(0, 200)}`).toMatch(/application\/problem\+json/);
    const body = JSON.parse(text) as { message?: unknown; status?: unknown };
    expect(typeof body.message, request.label).toBe('string');
    expect((body.message as string).length, request.label).toBeGreaterThan(0);
    expect(body.status, request.label).toBe(response.status);
  }
}

test('every route: hostile input gets 2xx or a 4xx problem, never a 5xx; a rebuild finds nothing half-written', async () => {
  expect(routes.length).toBeGreaterThan(100);
  const started = performance.now();
  const anyRequest = fc.constantFrom(...routes).chain(hostileRequest);
  await fc.assert(
    fc.asyncProperty(anyRequest, async (request) => {
      await send(request);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true, verbose: 1 },
  );
  const seconds = (performance.now() - started) / 1000;

  const { knex, store } = server.runtime.deps;
  await server.runtime.deps.watcher.waitFor(await lastCommittedPosition(knex), 30_000);
  const report = await rebuildReadModels({ knex, store, projections });
  expect(report.tables.filter((t) => !t.identical)).toEqual([]);

  const statuses = [...statusCounts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  console.log(
    `hostile input: ${tried} requests over ${routes.length} routes in ${seconds.toFixed(1)} s; ` +
      `statuses ${statuses.join(' ')}; 5xx: 0; rebuild identical over ${report.tables.length} tables (${report.eventsReplayed} events)`,
  );
}, 600_000);
