import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient, signInSuperAdmin, startTestServer, SUPER_ADMIN, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: 'platform-test-metrics-token' });
});
afterAll(async () => {
  await server?.stop();
});

const newInstance = (subdomain: string) => ({
  name: subdomain.toUpperCase(),
  displayName: `${subdomain} Auto`,
  description: 'Brakes and tyres',
  subdomain,
  adminUsername: 'owner',
  adminDisplayName: 'Owner',
  adminPin: '1234',
});

describe('super admin sign-in', () => {
  test('signs in, reads current, signs out', async () => {
    const client = new ApiClient(server.url);
    expect((await client.get('/api/super-admin/current')).status).toBe(401);
    const login = await client.post('/api/super-admin/login', SUPER_ADMIN);
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ id: 'primary', username: 'superadmin', displayName: 'Super Admin' });
    const current = await client.get('/api/super-admin/current');
    expect(current.status).toBe(200);
    expect(current.body.username).toBe('superadmin');
    expect((await client.post('/api/super-admin/logout')).status).toBe(204);
    expect((await client.get('/api/super-admin/current')).status).toBe(401);
  });

  test('a wrong password gets the sign-in failure message and no session', async () => {
    const client = new ApiClient(server.url);
    const res = await client.post('/api/super-admin/login', { username: 'superadmin', password: 'nope-nope' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid username or password');
    expect((await client.get('/api/super-admin/current')).status).toBe(401);
  });
});

describe('CRM instances', () => {
  test('the reserved instance exists and is listed for the super admin', async () => {
    const admin = await signInSuperAdmin(server);
    const list = await admin.get('/api/crm-instances');
    expect(list.status).toBe(200);
    expect(list.body.map((i: { subdomain: string }) => i.subdomain)).toContain('maven');
  });

  test('creates an instance with its first admin and answers with the projected instance', async () => {
    const admin = await signInSuperAdmin(server);
    const res = await admin.post('/api/crm-instances', { ...newInstance('Joes-Garage 1'), features: { calendar: true } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      subdomain: 'joesgarage1',
      displayName: 'joes-garage 1 Auto'.replace('joes-garage 1', 'Joes-Garage 1'),
      features: { pipeline: true, customers: true, calendar: true, admin: true },
      isActive: true,
    });
    const list = await admin.get('/api/crm-instances');
    expect(list.body.map((i: { subdomain: string }) => i.subdomain)).toContain('joesgarage1');
  });

  test('subdomains are unique across instances', async () => {
    const admin = await signInSuperAdmin(server);
    expect((await admin.post('/api/crm-instances', newInstance('uniq'))).status).toBe(201);
    const again = await admin.post('/api/crm-instances', { ...newInstance('UNIQ'), name: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Subdomain "uniq" is already taken');
  });

  test('the subdomain defaults to the name, normalised', async () => {
    const admin = await signInSuperAdmin(server);
    const { subdomain: _s, ...rest } = newInstance('x');
    const res = await admin.post('/api/crm-instances', { ...rest, name: "Bob's Parts & Service" });
    expect(res.status).toBe(201);
    expect(res.body.subdomain).toBe('bobspartsservice');
  });

  test.each([
    [{}, 'Name and Display Name are required'],
    [{ ...newInstance('a1'), name: '   ' }, 'Name and Display Name are required'],
    [{ ...newInstance('a2'), displayName: 42 }, 'Name and Display Name are required'],
    [{ ...newInstance('a3'), adminPin: '12' }, 'PIN must be exactly 4 digits'],
    [{ ...newInstance('a4'), adminPin: 'abcd' }, 'PIN must contain only digits'],
    [{ ...newInstance('a5'), adminUsername: 'ab' }, 'Username must be at least 3 characters'],
    [{ ...newInstance('a6'), subdomain: '%%%', name: '!!!' }, 'Subdomain must contain only lowercase letters and numbers'],
  ])('bad input %j gets 400 with a clear message', async (body, message) => {
    const admin = await signInSuperAdmin(server);
    const res = await admin.post('/api/crm-instances', body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 400, title: 'Bad Request', message });
    expect(res.body.detail).toBe(message);
  });

  test('malformed JSON, a non-object body and an oversize body are 4xx, never 500', async () => {
    const admin = await signInSuperAdmin(server);
    const malformed = await admin.request('POST', '/api/crm-instances', '{"name": ', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('Malformed JSON in request body');
    const array = await admin.post('/api/crm-instances', [1, 2]);
    expect(array.status).toBe(400);
    expect(array.body.message).toBe('The request body must be a JSON object');
    // Valid JSON that is no object gets the same clear answer, not "malformed".
    for (const body of ['null', '"text"', '7']) {
      const res = await admin.request('POST', '/api/crm-instances', body, { 'content-type': 'application/json' });
      expect(res.status, body).toBe(400);
      expect(res.body.message, body).toBe('The request body must be a JSON object');
    }
    const huge = await admin.post('/api/crm-instances', { ...newInstance('big'), description: 'x'.repeat(1_100_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toMatch(/too large/);
  });

  test('only the super admin may list or create instances', async () => {
    const anonymous = new ApiClient(server.url);
    expect((await anonymous.get('/api/crm-instances')).status).toBe(401);
    expect((await anonymous.post('/api/crm-instances', newInstance('nope'))).status).toBe(401);
  });
});

describe('deactivating an instance', () => {
  test('ends its sessions and refuses sign-in until it is reactivated; all of it recorded', async () => {
    const superAdmin = await signInSuperAdmin(server);
    const created = await superAdmin.post('/api/crm-instances', newInstance('pausable'));
    const instanceId = created.body.id as string;
    const signIn = (client: ApiClient) => client.post('/api/auth/login', { username: 'owner', pin: '1234', instance: 'pausable' });
    const staff = new ApiClient(server.url);
    expect((await signIn(staff)).status).toBe(200);

    const off = await superAdmin.patch(`/api/crm-instances/${instanceId}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: instanceId, isActive: false });
    expect((await staff.get('/api/user/current')).status).toBe(401);
    const refused = await signIn(new ApiClient(server.url));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('This CRM is closed. Contact your provider.');
    // Asking again changes nothing and records nothing.
    expect((await superAdmin.patch(`/api/crm-instances/${instanceId}`, { isActive: false })).body.isActive).toBe(false);

    const on = await superAdmin.patch(`/api/crm-instances/${instanceId}`, { isActive: true });
    expect(on.body.isActive).toBe(true);
    const back = new ApiClient(server.url);
    expect((await signIn(back)).status).toBe(200);
    const audit = await back.get('/api/admin/audit?entityType=instance');
    expect(audit.body.items.map((i: { summary: string }) => i.summary)).toEqual([
      'Reactivated the CRM instance pausable Auto',
      'Deactivated the CRM instance pausable Auto',
      'Created the CRM instance pausable Auto',
    ]);
  });

  test("the provider's own instance stays active; bad ids and bodies are 4xx", async () => {
    const superAdmin = await signInSuperAdmin(server);
    const maven = ((await superAdmin.get('/api/crm-instances')).body as Array<{ id: string; subdomain: string }>).find(
      (i) => i.subdomain === 'maven',
    )!;
    const res = await superAdmin.patch(`/api/crm-instances/${maven.id}`, { isActive: false });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("The provider's own instance cannot be deactivated");
    expect((await superAdmin.patch(`/api/crm-instances/${maven.id}`, { isActive: 'no' })).body.message).toBe(
      'isActive must be true or false',
    );
    expect((await superAdmin.patch('/api/crm-instances/not-an-id', { isActive: true })).status).toBe(404);
    expect((await superAdmin.patch('/api/crm-instances/00000000-0000-4000-8000-000000000000', { isActive: true })).status).toBe(404);
  });
});

describe('public instance lookup', () => {
  test('names an instance for its login page, and says when there is no such CRM', async () => {
    const admin = await signInSuperAdmin(server);
    await admin.post('/api/crm-instances', newInstance('lookup'));
    const anonymous = new ApiClient(server.url);
    const found = await anonymous.get('/api/instances/LookUp');
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ subdomain: 'lookup', name: 'LOOKUP', displayName: 'lookup Auto', isActive: true });
    const missing = await anonymous.get('/api/instances/nosuchcrm');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('No such CRM');
  });

  test('slugs the app routes use cannot be taken', async () => {
    const admin = await signInSuperAdmin(server);
    const res = await admin.post('/api/crm-instances', { ...newInstance('x'), subdomain: 'Settings' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Subdomain "settings" is reserved; choose another');
  });
});

describe('edge rules', () => {
  test('every /api response says no-store and carries a request id', async () => {
    const client = new ApiClient(server.url);
    for (const res of [await client.get('/api/app-info'), await client.get('/api/crm-instances'), await client.get('/api/nothing-here')]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  test('unknown API paths are problem details 404', async () => {
    const res = await new ApiClient(server.url).get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('/api/nothing-here');
  });

  test('mutating calls without the guard header or from another origin are refused', async () => {
    const admin = await signInSuperAdmin(server);
    const noHeader = await admin.request('POST', '/api/crm-instances', newInstance('csrf1'), { 'x-crm-request': '' });
    expect(noHeader.status).toBe(403);
    const foreign = await admin.request('POST', '/api/crm-instances', newInstance('csrf2'), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('Cross-site request refused');
  });

  test('the session cookie is HttpOnly and SameSite=Lax, and rotates at sign-in', async () => {
    const client = new ApiClient(server.url);
    await client.get('/api/app-info');
    const res = await fetch(`${server.url}/api/super-admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-crm-request': '1', cookie: 'crm.sid=fixed-by-attacker' },
      body: JSON.stringify(SUPER_ADMIN),
    });
    const cookies = res.headers.getSetCookie().filter((c) => c.startsWith('crm.sid='));
    const live = cookies.find((c) => !/expires=Thu, 01 Jan 1970/i.test(c))!;
    expect(live).toMatch(/httponly/i);
    expect(live).toMatch(/samesite=lax/i);
    expect(live).not.toContain('fixed-by-attacker');
    expect(live).not.toMatch(/secure/i);
  });

  test('health, readiness and metrics answer', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { database: 'ok', eventStore: 'ok', projector: 'ok' } });
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer platform-test-metrics-token' } })
    ).text();
    expect(metrics).toContain('projection_lag_seconds');
  });

  test('responses never carry a password or hash', async () => {
    const admin = await signInSuperAdmin(server);
    const res = await admin.get('/api/crm-instances');
    expect(res.text).not.toMatch(/scrypt|passwordHash|pinHash/);
  });
});
