import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isApiPath, normalizedPath } from '../../src/http/security.ts';
import { signInHashing } from '../../src/http/sign-in-pace.ts';
import { ApiClient, createTestInstance, SUPER_ADMIN, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The HTTP edge under attack: one text rule for every input, one path rule for every
 * guard, browser security headers, private operations endpoints, problem details for every
 * error status, no permission escalation, PIN changes that end other sessions.
 */

const METRICS_TOKEN = 'metrics-token-for-the-tests-0123456789';
let server: TestServer;
let admin: ApiClient;
let jobId: string;
let customerId: string;

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN });
  await createTestInstance(server, 'edge', { username: 'owner', pin: '1234' });
  admin = await signInUser(server, 'edge', 'owner', '1234');
  const customer = await admin.post('/api/customers', { name: 'Edge Customer' });
  expect(customer.status, customer.text).toBe(201);
  customerId = customer.body.id;
  const job = await admin.post('/api/user-info', { name: 'Edge Job', part: 'Brakes', customerId });
  expect(job.status, job.text).toBe(201);
  jobId = job.body.id;
});

afterAll(async () => {
  await server?.stop();
});

function expectProblem(res: { status: number; headers: Headers; body: any; text: string }, status: number): void {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
}

describe('one text rule: NUL and unpaired surrogates are a 400 wherever they come in', () => {
  const BAD = ['a\u0000b', '\ud800', 'x\udc00y', '\udfff\ud800'];

  test('in the unauthenticated sign-in body, in a text field, in a field name and nested', async () => {
    const anonymous = new ApiClient(server.url);
    for (const bad of BAD) {
      expectProblem(await anonymous.post('/api/auth/login', { instance: 'edge', username: bad, pin: '1234' }), 400);
      expectProblem(await anonymous.post('/api/super-admin/login', { username: SUPER_ADMIN.username, password: bad }), 400);
      expectProblem(await admin.post('/api/customers', { name: `Name ${bad}` }), 400);
      expectProblem(await admin.post('/api/customers', { name: 'Fine', [`key${bad}`]: 1 }), 400);
      expectProblem(await admin.put(`/api/customers/${customerId}`, { name: 'Fine', vehicles: [{ make: bad }] }), 400);
    }
    // A raw JSON escape reaches the parser as a lone surrogate too.
    expectProblem(await admin.post('/api/customers', '{"name":"\\ud83d"}'), 400);
    // Paired surrogates (emoji), right-to-left text and markup are text like any other.
    const fine = await admin.post('/api/customers', { name: 'שלום 😀 <b>bold</b>' });
    expect(fine.status, fine.text).toBe(201);
    expect(fine.body.name).toBe('שלום 😀 <b>bold</b>');
  });

  test('in query strings, path ids and headers used as input', async () => {
    expectProblem(await admin.get('/api/customers?q=%00'), 400);
    expectProblem(await admin.get('/api/user-info?search=a%00b'), 400);
    expectProblem(await admin.get(`/api/user-info/${jobId}%00`), 400);
    expectProblem(await admin.put(`/api/user-info/%00/stage`, { stage: 'Scheduled' }), 400);
    // A percent-escape that is no UTF-8 (an encoded surrogate) or no escape at all.
    expectProblem(await admin.get('/api/customers/%ED%A0%80'), 400);
    expectProblem(await admin.get('/api/customers/%E0%A4%A'), 400);
    // Headers: If-Match and Idempotency-Key that are not what they claim.
    expectProblem(await admin.put(`/api/customers/${customerId}`, { name: 'Edge Customer' }, { 'if-match': 'W/"nope"' }), 400);
    expectProblem(await admin.post('/api/customers', { name: 'K' }, { 'idempotency-key': 'x'.repeat(300) }), 400);
  });
});

describe('one path rule: the guard, no-store and problem details hold whatever the spelling of /api/', () => {
  test('a cross-site POST /API/... without the guard header and with a foreign Origin is refused', async () => {
    for (const path of [`/API/edge/pipeline/${jobId}/cancel`, `/Api/user-info/${jobId}/cancel`, `/%61pi/user-info/${jobId}/cancel`]) {
      const res = await fetch(server.url + path, {
        method: 'POST',
        headers: { cookie: admin.cookieHeader(), origin: 'https://evil.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, path).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    }
    // With the guard header, a wrong-case path is simply no route (case-sensitive routing).
    const res = await admin.post(`/API/edge/pipeline/${jobId}/cancel`, {});
    expectProblem(res, 404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The job was never cancelled.
    expect((await admin.get(`/api/user-info/${jobId}`)).body.stage).not.toBe('Canceled');
  });

  test('every spelling of an API path is the API or a 404 problem, no-store, never the app shell', async () => {
    for (const path of [
      '//api/customers',
      '/./api/customers',
      '/%2Fapi/customers',
      '/api%5Ccustomers',
      '/x/../api/customers',
      '///api//customers',
      '/api;/customers',
      '/api%3B/customers',
      '/api;x',
      '/api%20/customers',
    ]) {
      const res = await fetch(server.url + path, { headers: { cookie: admin.cookieHeader() } });
      const text = await res.text();
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('content-type'), path).not.toMatch(/html/);
      expect(text, path).not.toMatch(/<!doctype html/i);
      // The API reads it (200, or its 400 for a path it will not take) or it is a 404: always a problem, never the shell.
      if (res.status !== 200) {
        expect([400, 404], path).toContain(res.status);
        expect(res.headers.get('content-type'), path).toMatch(/application\/problem\+json/);
      }
    }
    // A raw backslash (not escaped) is read the same way.
    const raw = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
      (resolve, reject) => {
        const url = new URL(server.url);
        const req = request({ host: url.hostname, port: url.port, path: '/api\\customers', method: 'GET' }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      },
    );
    expect(raw.headers['cache-control']).toBe('no-store');
    expect(raw.body).not.toMatch(/<!doctype html/i);
    // The one rule the app shell's fallback asks too (it serves HTML only where this says no).
    for (const path of ['//api/x', '/./api/x', '/%2Fapi/x', '/api\\x', '/API/x', '/a/../api', '/%61pi/x', '/api;/x', '/api%20/x'])
      expect(isApiPath(path), path).toBe(true);
    for (const path of ['/', '/customers', '/apiary', '/x/api/y', '/api.json', '/api%2F..%2Fcustomers'])
      expect(isApiPath(path), path).toBe(false);
    // A plain path is its own normal form; one step away from plain, the full rules apply.
    for (const [raw, normal] of [
      ['/api/x/', '/api/x/'],
      ['/api/a-b_c~9', '/api/a-b_c~9'],
      ['/api//x', '/api/x'],
      ['/api/./x/', '/api/x/'],
      ['/api/x%2F', '/api/x/'],
      ['/api/x ', '/api/x'],
    ] as const)
      expect(normalizedPath(raw), raw).toBe(normal);
  });

  test('the cross-site check compares the scheme too: an https Origin on the http server is refused', async () => {
    const host = new URL(server.url).host;
    for (const origin of [`https://${host}`, `http://${host}`]) {
      const res = await fetch(`${server.url}/api/user-info/${jobId}/cancel`, {
        method: 'POST',
        headers: { cookie: admin.cookieHeader(), origin, 'content-type': 'application/json', 'x-crm-request': '1' },
        body: '{}',
      });
      if (origin.startsWith('https')) expect(res.status, origin).toBe(403);
      else expect(res.status, origin).toBeLessThan(400);
    }
    await admin.post(`/api/user-info/${jobId}/reopen`, {});
  });

  test('a script, style or asset the build does not have is a 404 problem, not the app shell', async () => {
    for (const path of ['/assets/index-gone0000.js', '/assets/gone.png', '/gone-chunk.js', '/assets/style-gone.css', '/x.js.map']) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type') ?? '', path).not.toMatch(/text\/html/);
    }
    // Client-side routes still get the shell.
    const page = await fetch(server.url + '/edge/customers');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  test('GET /API/... is a no-store problem, not the app shell', async () => {
    const res = await admin.get('/API/customers');
    expectProblem(res, 404);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('browser security headers and operations endpoints', () => {
  test('CSP without inline scripts, nosniff, no framing, referrer policy on API, shell and docs', async () => {
    for (const path of ['/api/session', '/', '/customers', '/api/docs', '/healthz']) {
      const res = await fetch(server.url + path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  test('/metrics needs the token; /readyz tells ready or not without internals', async () => {
    expectProblem(Object.assign(await new ApiClient(server.url).get('/metrics')), 404);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(404);
    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('projection_lag_seconds');
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as Record<string, unknown>;
    expect(body).toEqual({ status: 'ready', checks: { database: 'ok', eventStore: 'ok', projector: 'ok' }, parkedEvents: 0 });
  });

  test('a method a path does not take (known or not) is a 405 problem, never a 501', async () => {
    expectProblem(await admin.request('PATCH', '/api/customers'), 405);
    expectProblem(await admin.request('PURGE', '/api/customers'), 405);
    expectProblem(await admin.get('/api/no-such-thing'), 404);
  });
});

describe('nobody grants what they lack', () => {
  test('a manager without canDelete cannot make a user who deletes (the reported attack)', async () => {
    const staff = await admin.post('/api/admin/users', { username: 'manager', pin: '2222' });
    expect(staff.status, staff.text).toBe(201);
    const granted = await admin.patch(`/api/admin/users/${staff.body.id}/permissions`, { canManageUsers: true });
    expect(granted.status, granted.text).toBe(200);
    const manager = await signInUser(server, 'edge', 'manager', '2222');

    // Create a user and grant it canDelete: refused, nothing granted.
    const accomplice = await manager.post('/api/admin/users', { username: 'accomplice', pin: '3333' });
    expect(accomplice.status, accomplice.text).toBe(201);
    const escalate = await manager.patch(`/api/admin/users/${accomplice.body.id}/permissions`, { canDelete: true });
    expectProblem(escalate, 403);
    expect(escalate.body.message).toContain('canDelete');
    expect((await admin.get(`/api/admin/users/${accomplice.body.id}`)).body.permissions.canDelete).toBe(false);
    const asAccomplice = await signInUser(server, 'edge', 'accomplice', '3333');
    expectProblem(await asAccomplice.delete(`/api/customers/${customerId}`), 403);
    // Nor an admin: only an admin makes admins.
    expectProblem(await manager.post('/api/admin/users', { username: 'boss2', pin: '4444', role: 'admin' }), 403);

    // Someone who already holds more is beyond the manager: no PIN reset to sign in as them.
    const deleter = await admin.post('/api/admin/users', { username: 'deleter', pin: '5555' });
    await admin.patch(`/api/admin/users/${deleter.body.id}/permissions`, { canDelete: true });
    expectProblem(await manager.put(`/api/admin/users/${deleter.body.id}/pin`, { pin: '6666' }), 403);
    expectProblem(await manager.patch(`/api/admin/users/${deleter.body.id}/lock`, { isLocked: true }), 403);
    expectProblem(await manager.delete(`/api/admin/users/${deleter.body.id}`), 403);
    expect((await manager.delete(`/api/customers/${customerId}`)).status).toBe(403);
    expect((await admin.get(`/api/customers/${customerId}`)).status).toBe(200);
  });
});

describe('sessions and sign-in', () => {
  test('changing your own PIN ends your other sessions and keeps this one', async () => {
    await admin.post('/api/admin/users', { username: 'pinner', pin: '7777' });
    const here = await signInUser(server, 'edge', 'pinner', '7777');
    const elsewhere = await signInUser(server, 'edge', 'pinner', '7777');
    const changed = await here.put('/api/user/pin', { currentPin: '7777', newPin: '8888' });
    expect(changed.status, changed.text).toBe(204);
    expect((await here.get('/api/user/current')).status).toBe(200);
    expect((await elsewhere.get('/api/user/current')).status).toBe(401);
  });

  test('a sign-in hashes exactly once whether or not the account exists (users and super admin)', async () => {
    const original = signInHashing.verify;
    let calls = 0;
    signInHashing.verify = (secret, encoded) => {
      calls++;
      return original(secret, encoded);
    };
    try {
      const anonymous = new ApiClient(server.url);
      const attempts: Array<[string, Record<string, string>]> = [
        ['/api/auth/login', { instance: 'edge', username: 'owner', pin: '0000' }],
        ['/api/auth/login', { instance: 'edge', username: 'nobody-here', pin: '0000' }],
        ['/api/auth/login', { instance: 'no-such-shop', username: 'owner', pin: '0000' }],
        ['/api/super-admin/login', { username: 'not-the-admin', password: 'wrong-password' }],
      ];
      for (const [path, body] of attempts) {
        calls = 0;
        const res = await anonymous.post(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(401);
        expect(calls, `${path} ${JSON.stringify(body)}`).toBe(1);
      }
    } finally {
      signInHashing.verify = original;
    }
  });
});

test('METRICS_PORT: /metrics on a port of its own (no token), none on the API port', async () => {
  const separate = await startTestServer({ METRICS_PORT: '0' });
  try {
    expect(separate.runtime.metricsUrl).not.toBeNull();
    const scraped = await fetch(`${separate.runtime.metricsUrl}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('http_request_duration_seconds');
    expect((await fetch(`${separate.runtime.metricsUrl}/api/session`)).status).toBe(404);
    expect((await fetch(`${separate.url}/metrics`)).status).toBe(404);
  } finally {
    await separate.stop();
  }
});
