import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createTestInstance, signInSuperAdmin, signInUser, startTestServer, type ApiClient, type TestServer } from './support/server.ts';

/**
 * One rule for the whole API: what the contract accepts, storage holds. This walks the
 * contract's own schemas (the ones the router declares and the OpenAPI document shows):
 * every field of the record-creating bodies gets the extremes of its kind (times at and
 * past the ends of what PostgreSQL and the calendar hold, amounts past the numeric column,
 * texts past their limits, wrong types), and every answer is either a 4xx or a record that
 * can be read back, in the list and on the calendar too. Every query parameter of every GET
 * route gets the same treatment: a 4xx or an answer, never a 5xx.
 */

let server: TestServer;
let owner: ApiClient;
const SLUG = 'extremeshop';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, SLUG);
  const provider = await signInSuperAdmin(server);
  const instances = (await provider.get('/api/crm-instances')).body as Array<{ id: string; subdomain: string }>;
  const id = instances.find((i) => i.subdomain === SLUG)!.id;
  expect((await provider.put(`/api/crm-instances/${id}`, { features: { calendar: true } })).status).toBe(200);
  owner = await signInUser(server, SLUG, 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

const TIMES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1899-12-31T23:59:59Z',
  '1900-01-01T00:00:00Z',
  '9999-12-29T00:00:00Z',
  '9999-12-31T23:59:00Z',
  '+010000-01-01T00:00:00Z',
];
const NUMBERS = [-1, 1441, 999_999_999.99, 1_000_000_000, 1e308, 0.001];
const TEXTS = ['x'.repeat(100), 'x'.repeat(201), 'x'.repeat(5001), '999999999.99', '1000000000.00'];
const ODD = [null, true, {}, '2026-02-30'];
const EXTREMES: unknown[] = [...TIMES, ...NUMBERS, ...TEXTS, ...ODD];

type JsonSchema = Record<string, unknown>;

/** The body's own fields (not the read-only ones a record may be sent back with). */
function bodyFields(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties)
    .filter(([, property]) => !String(property.description ?? '').startsWith('Read-only'))
    .map(([name]) => name);
}

function routeBody(method: string, path: string): z.ZodType {
  const route = server.runtime.router.routes.find((r) => r.method === method && r.path === path);
  if (!route?.doc?.body) throw new Error(`${method} ${path} declares no body`);
  return route.doc.body;
}

const CREATES = [
  { path: '/api/:instance/pipeline', base: { part: 'Extreme part' }, read: (id: string) => `/api/${SLUG}/pipeline/${id}` },
  { path: '/api/:instance/customers', base: { name: 'Extreme Customer' }, read: (id: string) => `/api/${SLUG}/customers/${id}` },
  {
    path: '/api/:instance/service-requests',
    base: { customerName: 'Extreme Request' },
    read: (id: string) => `/api/${SLUG}/service-requests/${id}`,
  },
] as const;

describe('every field of every create: refused, or stored and read back', () => {
  test.each(CREATES)('$path', { timeout: 300_000 }, async ({ path, base, read }) => {
    const fields = bodyFields(routeBody('POST', path));
    expect(fields.length).toBeGreaterThan(3);
    let stored = 0;
    for (const field of fields) {
      for (const value of EXTREMES) {
        const label = `${field}=${JSON.stringify(value).slice(0, 40)}`;
        const res = await owner.post(path.replace(':instance', SLUG), { ...base, [field]: value });
        expect(res.status, `${label}: ${res.text}`).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.headers.get('content-type'), label).toContain('application/problem+json');
          continue;
        }
        stored++;
        const back = await owner.get(read(res.body.id));
        expect(back.status, `${label} was accepted but cannot be read back: ${back.text}`).toBe(200);
        if (field === 'appointment' && back.body.appointment) {
          // The calendar shows it: its block's week is a range the calendar answers.
          const at = new Date(back.body.appointment as string);
          const from = at.toISOString();
          const to = new Date(at.getTime() + 86_400_000).toISOString();
          const calendar = await owner.get(`/api/${SLUG}/calendar?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
          expect(calendar.status, `${label}: ${calendar.text}`).toBe(200);
          expect(
            calendar.body.items.map((i: { id: string }) => i.id),
            label,
          ).toContain(res.body.id);
        }
      }
    }
    expect(stored).toBeGreaterThan(0);
  });

  test(
    'an appointment is refused when its end would leave what storage holds, by create and by reschedule',
    { timeout: 60_000 },
    async () => {
      const late = await owner.post(`/api/${SLUG}/pipeline`, { part: 'Late', appointment: '9999-12-31T23:00:00Z', duration: 60 });
      expect(late.status, late.text).toBe(400);
      expect(late.body.errors[0].field).toBe('appointment');
      const job = await owner.post(`/api/${SLUG}/pipeline`, { part: 'Movable', appointment: '2026-05-01T15:00:00Z' });
      expect(job.status).toBe(201);
      for (const appointment of ['0000-01-01T00:00:00Z', '9999-12-31T23:00:00Z']) {
        const moved = await owner.patch(`/api/${SLUG}/pipeline/${job.body.id}/appointment`, { appointment, duration: 60 });
        expect(moved.status, moved.text).toBe(400);
      }
      const kept = await owner.get(`/api/${SLUG}/pipeline/${job.body.id}`);
      expect(kept.body.appointment).toBe('2026-05-01T15:00:00.000Z');
    },
  );
});

const QUERY_EXTREMES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01',
  // A day of year 0 (the takings report once answered 500 to it).
  '0000-01-01',
  '9999-12-31',
  '+010000-01-01T00:00:00Z',
  '99999999999999999999',
  'x'.repeat(1000),
];

describe('every query parameter of every GET route: a 4xx or an answer, never a 5xx', () => {
  test('walks the routes', { timeout: 300_000 }, async () => {
    const job = await owner.post(`/api/${SLUG}/pipeline`, { part: 'Query target' });
    const params: Record<string, string> = { instance: SLUG, id: job.body.id, subdomain: SLUG };
    const routes = server.runtime.router.routes.filter(
      (r) => r.method === 'GET' && r.doc?.query && r.doc.produces !== 'text/event-stream' && !r.path.includes('/maven/'),
    );
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const json = z.toJSONSchema(route.doc!.query!, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      const names = Object.keys((json.properties ?? {}) as object);
      const path = route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => params[name] ?? 'x');
      for (const name of names) {
        const answers = await Promise.all(QUERY_EXTREMES.map((value) => owner.get(`${path}?${name}=${encodeURIComponent(value)}`)));
        answers.forEach((res, i) =>
          expect(res.status, `${route.path}?${name}=${QUERY_EXTREMES[i]!.slice(0, 30)}: ${res.text.slice(0, 300)}`).toBeLessThan(500),
        );
      }
    }
  });
});
