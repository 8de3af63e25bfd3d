import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { satisfies } from '../support/openapi-arbitraries.ts';
import { createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('instance editing (super admin)', () => {
  test('changes only the fields sent, answers with the new revision, and keeps per-field history', async () => {
    const shop = await createTestInstance(server, 'editme');
    const admin = await signInSuperAdmin(server);
    const loaded = await admin.get(`/api/crm-instances/${shop.id}`);
    expect(loaded.status).toBe(200);
    const etag = loaded.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(loaded.body).toMatchObject({ subdomain: 'editme', publicRequests: false });

    const res = await admin.put(
      `/api/crm-instances/${shop.id}`,
      {
        displayName: 'Edit Me Motors',
        timeZone: 'America/Chicago',
        features: { calendar: true },
        publicRequests: true,
      },
      { 'if-match': etag! },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(etag);
    expect(res.body).toMatchObject({
      displayName: 'Edit Me Motors',
      description: '',
      timeZone: 'America/Chicago',
      publicRequests: true,
      features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
    });

    // The old ETag is stale now: someone else's form must reload first.
    const stale = await admin.put(`/api/crm-instances/${shop.id}`, { description: 'late' }, { 'if-match': etag! });
    expect(stale.status).toBe(409);

    // Setting what is there records nothing.
    const same = await admin.put(`/api/crm-instances/${shop.id}`, { displayName: 'Edit Me Motors' });
    expect(same.status).toBe(200);

    const history = await admin.get(`/api/crm-instances/${shop.id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.map((entry: { action: string }) => entry.action)).toEqual(['updated', 'created']);
    const fields = history.body[0].changes.map((change: { field: string }) => change.field);
    expect(fields).toEqual(['displayName', 'timeZone', 'features', 'publicRequests']);
    expect(history.body[0].changes).toContainEqual({ field: 'publicRequests', oldValue: false, newValue: true });
    expect(history.body[0].userDisplayName).toMatch(/super admin/i);

    // The shop's users see the new zone and features on their next request.
    const owner = await signInUser(server, 'editme', 'owner', '1234');
    const me = await owner.get('/api/user/current');
    expect(me.body.instance).toMatchObject({ displayName: 'Edit Me Motors', timeZone: 'America/Chicago' });
    expect(me.body.instance.features.calendar).toBe(true);
  });

  test('bad input is a 400 with a clear message; unknown instances are 404; only the super admin may edit', async () => {
    const shop = await createTestInstance(server, 'editbad');
    const admin = await signInSuperAdmin(server);
    const zone = await admin.put(`/api/crm-instances/${shop.id}`, { timeZone: 'Mars/Olympus' });
    expect(zone.status).toBe(400);
    expect(zone.body.message).toBe('Time zone must be an IANA time zone such as America/Chicago');
    const blank = await admin.put(`/api/crm-instances/${shop.id}`, { displayName: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Display name is required');
    // The API document says so too: its display name must hold something besides blanks.
    const document = (await admin.get('/api/openapi.json')).body;
    const edit = document.paths['/api/crm-instances/{instanceId}'].put.requestBody.content['application/json'].schema;
    expect(satisfies('   ', edit.properties.displayName)).toBe(false);
    expect(satisfies('Edit Me', edit.properties.displayName)).toBe(true);
    expect((await admin.put(`/api/crm-instances/${shop.id}`, { subdomain: 'other' })).status).toBe(400);
    expect((await admin.put(`/api/crm-instances/${shop.id}`, { features: { pipeline: 'yes' } })).status).toBe(400);
    // A key naming no feature is refused by name, on edit and on create (object or JSON string).
    const bogus = await admin.put(`/api/crm-instances/${shop.id}`, { features: { bogus: true } });
    expect(bogus.status).toBe(400);
    expect(bogus.body.message).toBe('Unknown feature: bogus');
    const base = { name: 'Bogus', displayName: 'Bogus Auto', adminUsername: 'owner', adminPin: '1234' };
    for (const features of [{ calendar: true, bogus: true }, '{"bogus": true}']) {
      const created = await admin.post('/api/crm-instances', { ...base, features });
      expect(created.status, JSON.stringify(features)).toBe(400);
      expect(created.body.message).toBe('Unknown feature: bogus');
    }
    const known = await admin.post('/api/crm-instances', { ...base, features: '{"calendar": true}' });
    expect(known.status).toBe(201);
    expect(known.body.features.calendar).toBe(true);
    expect((await admin.put(`/api/crm-instances/${shop.id}`, {}, { 'if-match': 'nonsense' })).status).toBe(400);
    expect((await admin.put('/api/crm-instances/00000000-0000-4000-8000-000000000000', { description: 'x' })).status).toBe(404);
    expect((await admin.put('/api/crm-instances/not-a-uuid', { description: 'x' })).status).toBe(404);
    expect((await admin.get('/api/crm-instances/not-a-uuid/history')).status).toBe(404);

    const owner = await signInUser(server, 'editbad', 'owner', '1234');
    expect((await owner.put(`/api/crm-instances/${shop.id}`, { description: 'mine' })).status).toBe(403);
    expect((await owner.get(`/api/crm-instances/${shop.id}/history`)).status).toBe(403);
  });

  test('the change shows in the instance timeline and the provider figures count per instance', async () => {
    const shop = await createTestInstance(server, 'editaudit');
    const admin = await signInSuperAdmin(server);
    await admin.put(`/api/crm-instances/${shop.id}`, { description: 'Brakes and tyres' });
    const owner = await signInUser(server, 'editaudit', 'owner', '1234');
    await expect
      .poll(async () => (await owner.get('/api/admin/audit')).body.items?.map((item: { summary: string }) => item.summary), {
        timeout: 10_000,
      })
      .toContain('Changed the settings of the CRM instance editaudit Auto');

    await owner.post('/api/user-info', { name: 'Figure Test', phone: '5550100', part: 'Rotor' });
    await expect
      .poll(
        async () => {
          const stats = await admin.get('/api/crm-instances/stats');
          return stats.body.find((row: { instanceId: string }) => row.instanceId === shop.id);
        },
        { timeout: 10_000 },
      )
      .toMatchObject({ users: 1, jobs: 1, customers: 1, lastActivityAt: expect.any(String) });
    expect((await owner.get('/api/crm-instances/stats')).status).toBe(403);
  });

  test("the shop's admin switches its public request page; staff may not; it is in the instance's history", async () => {
    const shop = await createTestInstance(server, 'pubswitch');
    const owner = await signInUser(server, 'pubswitch', 'owner', '1234');
    expect((await owner.get('/api/admin/public-requests')).body).toEqual({ enabled: false, path: '/pubswitch/request' });
    expect((await owner.put('/api/admin/public-requests', { enabled: 'yes' })).status).toBe(400);
    const on = await owner.put('/api/pubswitch/admin/public-requests', { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ enabled: true, path: '/pubswitch/request' });
    expect((await owner.get('/api/public/pubswitch/request-page')).body.enabled).toBe(true);

    expect((await owner.post('/api/admin/users', { username: 'counter', pin: '5678' })).status).toBe(201);
    const staff = await signInUser(server, 'pubswitch', 'counter', '5678');
    expect((await staff.put('/api/admin/public-requests', { enabled: false })).status).toBe(403);
    expect((await owner.put('/api/otherShop/admin/public-requests', { enabled: false })).status).toBe(404);

    const admin = await signInSuperAdmin(server);
    const history = (await admin.get(`/api/crm-instances/${shop.id}/history`)).body;
    expect(history[0]).toMatchObject({ action: 'updated', userDisplayName: 'Owner' });
    expect(history[0].changes).toEqual([{ field: 'publicRequests', oldValue: false, newValue: true }]);

    // Part of the service requests: while those are off, the switch does not exist.
    await admin.put(`/api/crm-instances/${shop.id}`, { features: { serviceRequests: false } });
    expect((await owner.get('/api/admin/public-requests')).status).toBe(404);
  });
});
