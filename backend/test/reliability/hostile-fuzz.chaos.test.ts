import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import type { RouteInfo } from '../../src/http/router.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The long fuzz run of `npm run test:reliability`: FUZZ_RUNS (default 10,000) generated
 * requests, as the signed-in admin of one shop, over every write route of the shop and every
 * query parameter of its reads. Each write starts from a valid body (so it reaches the
 * command and the database) with fields swapped for hostile values taken from the route's
 * contract schema: extremes of time, number and text, wrong types, NUL, lone surrogates,
 * huge strings, unknown fields; paths are sometimes spelled oddly.
 *
 * Two numbers must stay 0: answers of 5xx, and writes answered 2xx whose record then cannot
 * be read back as answered (missing, or a field that differs from what the write said it
 * stored). The shop's parked events (a change the read model could not take) are counted as
 * lost too. FUZZ_SEED replays a run.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const SHOP = 'fuzz';

let server: TestServer;
let admin: ApiClient;
let writeRoutes: RouteInfo[];
let readRoutes: RouteInfo[];

/** Records the run made (or was given), so writes reach real ones. */
const pool = {
  customer: [] as string[],
  job: [] as string[],
  request: [] as string[],
  vehicle: [] as string[],
  user: [] as string[],
  message: [] as string[],
  line: new Map<string, string[]>(),
  deleted: [] as Array<{ kind: string; id: string }>,
};

// ---- a seeded random source, so a failing run can be replayed --------------------------

let state = SEED >>> 0 || 1;
function random(): number {
  // mulberry32
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (p: number) => random() < p;

const HOSTILE_TEXT = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udc00y',
  '\u202eevil\u202c',
  '😀👍🏽👨‍👩‍👧',
  'مرحبا',
  "'; DROP TABLE events; --",
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  'x'.repeat(5_000),
  'y'.repeat(100_000),
  'z'.repeat(1_100_000),
  '\t\n\r',
  'NaN',
  'null',
];
const EXTREME_TIMES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '1900-01-01T00:00:00Z',
  '1969-12-31T23:59:59.999Z',
  '9999-12-31T23:59:00Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00.000Z',
  '2026-03-08T02:30:00-05:00',
  '2026-02-29T10:00:00Z',
  '2026-12-31T23:30:00+14:00',
  '2026-13-01T00:00:00Z',
  '0000-01-01',
  '9999-12-31',
  '2026-03-02',
  'yesterday',
];
const EXTREME_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.005,
  0.1 + 0.2,
  1e308,
  -1e308,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  999_999_999,
  1_000_000_000,
  '99999999999999999999.99',
  '-0.01',
  '0.001',
  '1e3',
  '12.49',
  '$12.49',
  ' 7 ',
];
const WRONG_TYPES = [null, true, false, [], ['a'], {}, { nested: { deeper: 'x' } }];

function hostileValue(): unknown {
  const roll = random();
  if (roll < 0.35) return pick(HOSTILE_TEXT);
  if (roll < 0.6) return pick(EXTREME_TIMES);
  if (roll < 0.85) return pick(EXTREME_NUMBERS);
  return pick(WRONG_TYPES);
}

/** The field names a route's contract documents for its body. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  return Object.keys(json.properties ?? {});
}

const stamp = () => Math.floor(random() * 1e9).toString(36);

/** A body the route accepts as it stands. */
function validBody(route: RouteInfo): Record<string, unknown> {
  const p = route.path;
  const minute = Math.floor(random() * 500_000);
  const when = new Date(Date.UTC(2026, 0, 1) + minute * 60_000).toISOString();
  if (/\/customers$|\/customers\/:id$/.test(p))
    return { name: `Fuzz ${stamp()}`, phone: '555 123 4567', email: `f${stamp()}@example.com`, address: '1 Main St', notes: 'n' };
  if (/\/customers\/:id\/vehicles$|\/vehicles\/:id$/.test(p))
    return { year: 2015, make: 'Honda', model: 'Civic', plate: `P${stamp()}`.slice(0, 8), color: 'Blue' };
  if (/\/customers\/:id\/consent$/.test(p)) return { emailConsent: chance(0.5), smsConsent: chance(0.5) };
  if (/\/pipeline$|\/pipeline\/:id$/.test(p))
    return {
      name: `Job ${stamp()}`,
      part: 'Brakes',
      phone: '5551234567',
      quote: '120.50',
      appointment: when,
      duration: 60,
      tech: 'Al',
      notes: 'n',
      ...(pool.customer.length && chance(0.5) ? { customerId: pick(pool.customer) } : {}),
    };
  if (/\/stage$/.test(p)) return { stage: pick(['Quote', 'Parts Ordered', 'Scheduled', 'In Progress', 'Completed']) };
  if (/\/appointment$/.test(p)) return { appointment: when, duration: 90, tech: 'Bo' };
  if (/\/service-requests$|\/service-requests\/:id$/.test(p))
    return {
      customerName: `Req ${stamp()}`,
      contactEmail: 'r@example.com',
      contactPhone: '5550001111',
      vehicleType: 'Truck',
      serviceType: 'Oil Change',
      scheduledDate: '2026-04-01',
      additionalNotes: 'squeal',
    };
  if (/\/convert$/.test(p)) return chance(0.5) ? {} : { part: 'Oil', quote: '45.00', appointment: when, duration: 30 };
  if (/\/lines$/.test(p))
    return pick([
      { kind: 'part', description: 'Pads', partNumber: 'BP-1', quantity: '2', unitCost: '10.00', unitPrice: '25.50', taxable: true },
      { kind: 'labor', description: 'Fit', hours: '1.5', rate: '90.00', technician: 'Al' },
      { kind: 'fee', description: 'Shop fee', amount: '5.00' },
      { kind: 'discount', description: 'Loyal', percent: '10' },
    ]);
  if (/\/lines\/:lineId$/.test(p)) return { description: `Line ${stamp()}`, quantity: '1' };
  if (/\/lines\/reorder$/.test(p)) return { lineIds: [] };
  if (/\/estimate\/send$/.test(p)) return { expiresInDays: 14 };
  if (/\/payments$/.test(p)) return { amount: '10.00', method: pick(['cash', 'card', 'check', 'other']), reference: 'r', when };
  if (/\/settings$/.test(p))
    return { shopName: 'Fuzz Auto', laborRate: '95.00', partsTaxRate: '8.25', laborTaxRate: '0', estimateLinkDays: 30 };
  if (/\/message-templates$/.test(p)) return { settings: { fromAddress: 'shop@example.com', shopPhone: '555', reminderHour: 9 } };
  if (/\/admin\/users$/.test(p)) return { username: `u${stamp()}`, displayName: 'Staff', pin: '4321', role: 'user' };
  if (/\/lock$/.test(p)) return { isLocked: chance(0.5) };
  if (/\/role$/.test(p)) return { role: 'user' };
  if (/\/pin$/.test(p)) return { pin: '8765' };
  if (/\/permissions$/.test(p)) return { canRead: true, canWrite: chance(0.8), canDelete: chance(0.5), canManageUsers: false };
  if (/\/public-requests$/.test(p)) return { enabled: chance(0.5) };
  return {};
}

/** The valid body with one or more fields hostile, an unknown field now and then. */
function hostileBody(route: RouteInfo): unknown {
  const body: Record<string, unknown> = validBody(route);
  const fields = fieldsOf(route.doc?.body);
  const roll = random();
  if (roll < 0.25) return body;
  if (roll < 0.85 && fields.length) {
    const count = 1 + Math.floor(random() * 2);
    for (let i = 0; i < count; i++) body[pick(fields)] = hostileValue();
  }
  if (roll >= 0.85 || chance(0.1)) body[pick(['phoen', 'name ', 'customerid', '__proto__x', 'x'.repeat(300), 'constructor'])] = 'extra';
  if (chance(0.03)) return pick([null, [], 'text', 42]);
  return body;
}

function hostileQueryValue(name: string): string {
  if (/from|to|asOf/i.test(name)) return String(pick([...EXTREME_TIMES, ...HOSTILE_TEXT.slice(0, 12)]));
  if (/limit|cursor|days|revision|stale/i.test(name))
    return String(pick([...EXTREME_NUMBERS, 'abc', '', '-5', '1e9', '99999999999999999999']));
  return String(pick([...HOSTILE_TEXT.slice(0, 13), 'Civic', 'Quote', '%', '_', '\\']));
}

function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate: send its CESU-8 bytes, which a server must refuse or take as text.
    return [...text]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(ch);
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16)}`).join('');
      })
      .join('');
  }
}

function spell(path: string): string {
  if (!chance(0.06)) return path;
  return pick([
    (p: string) => p.replace('/api/', '/API/'),
    (p: string) => p.replace('/api/', '//api/'),
    (p: string) => p.replace('/api/', '/./api/'),
    (p: string) => p.replace('/api/', '/%2Fapi/'),
    (p: string) => p.replace('/api/', '/api\\'),
    (p: string) => `${p}/`,
    (p: string) => p.replace('/api/', '/%61pi/'),
  ])(path);
}

// ---- paths: real records mostly, junk sometimes -------------------------------------

async function eventIdOf(kind: 'customer' | 'job', id: string): Promise<string> {
  const res = await admin.get(`/api/${SHOP}/${kind === 'customer' ? 'customers' : 'pipeline'}/${id}/history`);
  const entries = (Array.isArray(res.body) ? res.body : (res.body?.entries ?? res.body?.items ?? [])) as Array<{
    eventId?: string;
    id?: string;
  }>;
  const entry = entries.length ? pick(entries) : undefined;
  return entry?.eventId ?? entry?.id ?? '00000000-0000-4000-8000-000000000000';
}

async function fillPath(route: RouteInfo): Promise<{ path: string; params: Record<string, string> } | null> {
  const params: Record<string, string> = {};
  const p = route.path;
  const names = [...p.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  for (const name of names) {
    let value: string | undefined;
    if (name === 'instance') value = SHOP;
    else if (name === 'lineId') value = params.id ? pick(pool.line.get(params.id) ?? ['00000000-0000-4000-8000-000000000000']) : undefined;
    else if (name === 'kind') value = pick(pool.deleted.length ? pool.deleted : [{ kind: 'customer', id: '' }]).kind;
    else if (name === 'eventId') value = await eventIdOf(p.includes('customers') ? 'customer' : 'job', params.id ?? '');
    else if (name === 'id') {
      const list = p.includes('deleted-records')
        ? pool.deleted.filter((d) => d.kind === params.kind).map((d) => d.id)
        : p.includes('/customers/')
          ? pool.customer
          : p.includes('/pipeline/')
            ? pool.job
            : p.includes('/service-requests/')
              ? pool.request
              : p.includes('/vehicles/')
                ? pool.vehicle
                : p.includes('/messages/')
                  ? pool.message
                  : pool.user;
      value = list.length ? pick(list) : undefined;
    }
    if (value === undefined || chance(0.04))
      value = pick(['not-an-id', '00000000-0000-0000-0000-000000000000', "1' OR '1'='1", '..', '\u0000', 'x'.repeat(3000)]);
    params[name] = value;
  }
  return { path: p.replace(/:(\w+)/g, (_, name: string) => encode(params[name]!)), params };
}

// ---- read-back: every 2xx write is read again ----------------------------------------

/** Where the record a write answered about can be read, or null when it has no reader. */
function readerOf(route: RouteInfo, params: Record<string, string>, answer: Record<string, unknown>): string | null {
  const p = route.path;
  const id = typeof answer?.id === 'string' ? answer.id : params.id;
  if (/\/consent$/.test(p)) return `/api/${SHOP}/customers/${params.id}/consent`;
  if (/\/settings$/.test(p)) return `/api/${SHOP}/settings`;
  if (/\/message-templates$/.test(p)) return `/api/${SHOP}/message-templates`;
  if (/\/public-requests$/.test(p)) return `/api/${SHOP}/admin/public-requests`;
  if (/\/customers\/:id\/vehicles$|\/vehicles\/:id$/.test(p)) return `/api/${SHOP}/vehicles/${id}`;
  if (/\/convert$/.test(p)) return typeof answer?.id === 'string' ? `/api/${SHOP}/pipeline/${answer.id}` : null;
  if (/\/deleted-records\//.test(p)) return `/api/${SHOP}/${params.kind === 'customer' ? 'customers' : 'pipeline'}/${params.id}`;
  if (/\/customers(\/:id)?(\/history\/:eventId\/revert)?$/.test(p)) return `/api/${SHOP}/customers/${id}`;
  if (/\/service-requests(\/:id)?(\/archive)?$/.test(p)) return `/api/${SHOP}/service-requests/${id}`;
  if (/\/pipeline\/:id\/(lines|payments|invoice|estimate)/.test(p)) return `/api/${SHOP}/pipeline/${params.id}`;
  if (/\/pipeline(\/:id)?(\/stage|\/appointment|\/cancel|\/reopen|\/history\/:eventId\/revert)?$/.test(p))
    return `/api/${SHOP}/pipeline/${id}`;
  if (/\/admin\/users(\/:id)?(\/lock|\/role|\/permissions|\/pin|\/sign-in-lock)?$/.test(p))
    return `/api/${SHOP}/admin/users/${id ?? params.id}`;
  return null;
}

/** Fields that say when a record was read, not what it holds. */
const VOLATILE = new Set(['asOf', 'etag', 'serverTime', 'history', 'parkedChanges']);

function differences(answer: Record<string, unknown>, stored: Record<string, unknown>): string[] {
  const diffs: string[] = [];
  for (const [key, value] of Object.entries(answer)) {
    if (VOLATILE.has(key) || !(key in stored)) continue;
    if (JSON.stringify(value) !== JSON.stringify(stored[key]))
      diffs.push(`${key}: answered ${JSON.stringify(value)?.slice(0, 80)}, stored ${JSON.stringify(stored[key])?.slice(0, 80)}`);
  }
  return diffs;
}

function remember(route: RouteInfo, params: Record<string, string>, answer: Record<string, unknown> | null, method: string): void {
  const p = route.path;
  const id = typeof answer?.id === 'string' ? answer.id : undefined;
  if (method === 'DELETE') {
    const kind = p.includes('/customers/') ? 'customer' : p.includes('/pipeline/') && !p.includes('/lines/') ? 'job' : null;
    if (kind && params.id) pool.deleted.push({ kind, id: params.id });
    return;
  }
  if (!id) return;
  if (/\/customers$/.test(p)) pool.customer.push(id);
  else if (/\/pipeline$|\/convert$/.test(p)) pool.job.push(id);
  else if (/\/service-requests$/.test(p)) pool.request.push(id);
  else if (/\/vehicles$/.test(p)) pool.vehicle.push(id);
  else if (/\/admin\/users$/.test(p)) pool.user.push(id);
  if (/\/pipeline\/:id\/lines/.test(p) && Array.isArray(answer?.lines))
    pool.line.set(
      params.id!,
      (answer.lines as Array<{ id: string }>).map((l) => l.id),
    );
}

// ---- the run ---------------------------------------------------------------------------

const counts = { generated: 0, requests: 0, writes: 0, reads: 0, accepted: 0, readBack: 0, fiveXX: 0, lost: 0 };
const statusCounts = new Map<number, number>();
const failures: string[] = [];

async function send(method: string, path: string, body: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const headers: Record<string, string> = { 'x-crm-request': '1', cookie: admin.cookieHeader() };
  let payload: string | undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(admin.baseUrl + path, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    // A URL that fetch itself will not send never reached the server.
    if (error instanceof TypeError && /URL|Invalid/i.test(String(error.message) + String(error.cause ?? '')))
      return { status: 0, json: null, text: '' };
    throw error;
  }
  counts.requests++;
  statusCounts.set(response.status, (statusCounts.get(response.status) ?? 0) + 1);
  if ((response.headers.get('content-type') ?? '').includes('event-stream')) {
    await response.body?.cancel();
    return { status: response.status, json: null, text: '' };
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // a CSV, a PDF or HTML
  }
  if (response.status >= 500) {
    counts.fiveXX++;
    failures.push(`5xx: ${method} ${path.slice(0, 200)} ${payload?.slice(0, 300) ?? ''} → ${response.status} ${text.slice(0, 200)}`);
  }
  return { status: response.status, json, text };
}

async function fuzzWrite(route: RouteInfo): Promise<void> {
  const filled = await fillPath(route);
  if (!filled) return;
  const body = route.method === 'DELETE' ? undefined : hostileBody(route);
  counts.writes++;
  counts.generated++;
  const answer = await send(route.method, spell(filled.path), body);
  if (answer.status < 200 || answer.status >= 300) return;
  counts.accepted++;
  const record = (answer.json && typeof answer.json === 'object' ? answer.json : null) as Record<string, unknown> | null;
  remember(route, filled.params, record, route.method);
  const reader = readerOf(route, filled.params, record ?? {});
  if (!reader) return;
  counts.readBack++;
  const stored = await send('GET', reader, undefined);
  if (route.method === 'DELETE') {
    if (/\/admin\/users\/:id$|\/customers\/:id$|\/pipeline\/:id$|\/vehicles\/:id$/.test(route.path) && stored.status !== 404) {
      counts.lost++;
      failures.push(`deleted but still there: ${route.method} ${filled.path} → GET ${reader} ${stored.status}`);
    }
    return;
  }
  if (stored.status !== 200) {
    counts.lost++;
    failures.push(
      `lost: ${route.method} ${filled.path} ${JSON.stringify(body)?.slice(0, 300)} → ${answer.status}; GET ${reader} → ${stored.status}`,
    );
    return;
  }
  // The write's answer is the record as it says it stored it; the read must agree.
  const sameRecord = record && typeof record.id === 'string' && (stored.json as { id?: unknown })?.id === record.id;
  if (sameRecord) {
    const diffs = differences(record, stored.json as Record<string, unknown>);
    if (diffs.length) {
      counts.lost++;
      failures.push(`stored differs: ${route.method} ${filled.path} ${JSON.stringify(body)?.slice(0, 200)}: ${diffs.join('; ')}`);
    }
  }
}

async function fuzzRead(route: RouteInfo): Promise<void> {
  const filled = await fillPath(route);
  if (!filled) return;
  const names = [...fieldsOf(route.doc?.query), ...(chance(0.2) ? ['unknownParam', 'limit', 'from'] : [])];
  const pairs = names.filter(() => chance(0.6)).map((name) => `${encode(name)}=${encode(hostileQueryValue(name))}`);
  counts.reads++;
  counts.generated++;
  await send('GET', spell(filled.path) + (pairs.length ? `?${pairs.join('&')}` : ''), undefined);
}

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, SHOP, { username: 'owner', pin: '1234' });
  admin = await signInUser(server, SHOP, 'owner', '1234');
  const routes = server.runtime.router.routes.filter(
    (r) => r.path.startsWith('/api/:instance/') && r.access.kind !== 'public' && r.access.kind !== 'superadmin',
  );
  // Signing out or in again is not a write to a record; the rest is every write the shop has.
  writeRoutes = routes.filter((r) => r.method !== 'GET' && !/\/auth\//.test(r.path));
  readRoutes = routes.filter((r) => r.method === 'GET' && !/\/live$/.test(r.path));
  for (let i = 0; i < 5; i++) {
    const customer = await admin.post(`/api/${SHOP}/customers`, { name: `Seed ${i}`, phone: '5551234567' });
    pool.customer.push(customer.body.id);
    const job = await admin.post(`/api/${SHOP}/pipeline`, { name: `Seed job ${i}`, part: 'Brakes', customerId: customer.body.id });
    pool.job.push(job.body.id);
    const request = await admin.post(`/api/${SHOP}/service-requests`, { customerName: `Seed req ${i}`, contactPhone: '5550001111' });
    pool.request.push(request.body.id);
    const vehicle = await admin.post(`/api/${SHOP}/customers/${customer.body.id}/vehicles`, { make: 'Ford', model: 'F150' });
    pool.vehicle.push(vehicle.body.id);
    const user = await admin.post(`/api/${SHOP}/admin/users`, { username: `seeduser${i}`, pin: '1111' });
    pool.user.push(user.body.id);
    for (const res of [customer, job, request, vehicle, user]) expect(res.status, res.text).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

test(`fuzz: ${RUNS} hostile requests over every write route and query parameter; 0 answers of 5xx, 0 accepted-then-missing`, async () => {
  expect(writeRoutes.length).toBeGreaterThan(30);
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) {
    // Users are only those the run made: the admin's own account is never locked or demoted.
    const route = chance(0.65) ? pick(writeRoutes) : pick(readRoutes);
    if (route.method === 'GET') await fuzzRead(route);
    else await fuzzWrite(route);
  }
  await server.caughtUp();
  const parked = await admin.get(`/api/${SHOP}/admin/parked-events`);
  expect(parked.status, parked.text).toBe(200);
  const parkedAll = (await server.runtime.deps.knex('parked_events').select('type', 'error')) as Array<{ type: string; error: string }>;
  const parkedCount = parkedAll.length;
  for (const row of parkedAll.slice(0, 10)) failures.push(`parked: ${row.type}: ${row.error.slice(0, 300)}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const statuses = [...statusCounts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  console.log(
    `fuzz (seed ${SEED}): ${counts.generated} generated requests (${counts.requests} with the read-backs) in ${seconds} s over ${writeRoutes.length} write routes and ${readRoutes.length} read routes; ` +
      `${counts.writes} writes, ${counts.accepted} accepted, ${counts.readBack} read back; ${counts.reads} hostile queries; ` +
      `statuses ${statuses.join(' ')}; 5xx: ${counts.fiveXX}; accepted-then-missing: ${counts.lost}; parked events: ${parkedCount}`,
  );
  for (const failure of failures.slice(0, 40)) console.log(failure);
  expect(counts.generated).toBeGreaterThanOrEqual(RUNS);
  expect({ fiveXX: counts.fiveXX, lost: counts.lost, parked: parkedCount }).toEqual({ fiveXX: 0, lost: 0, parked: 0 });
}, 3_600_000);
