import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The weekday and wall-clock time of an instant in a zone, e.g. "Mon 00:00". */
const wallClock = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(new Date(iso))
    .replace(',', '');

async function shopIn(subdomain: string, timeZone: string, features: Record<string, boolean> = { calendar: true }) {
  const shop = await createTestInstance(server, subdomain);
  const admin = await signInSuperAdmin(server);
  expect((await admin.put(`/api/crm-instances/${shop.id}`, { timeZone, features })).status).toBe(200);
  return shop;
}

describe('GET /api/dashboard (the instance home figures)', () => {
  test("counts in the shop's own week, whatever the server's zone", async () => {
    const zone = 'Pacific/Auckland';
    const shop = await shopIn('dashzone', zone);
    const owner = await signInUser(server, 'dashzone', 'owner', '1234');
    const first = await owner.get('/api/dashboard');
    expect(first.status).toBe(200);
    expect(first.body.timeZone).toBe(zone);
    expect(wallClock(first.body.weekStart, zone)).toBe('Mon 00:00');
    expect(wallClock(first.body.weekEnd, zone)).toBe('Mon 00:00');

    const start = new Date(first.body.weekStart).getTime();
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    const jobs = [
      { name: 'In Week', phone: '5550001', part: 'Pads', appointment: at(30), quote: '120' },
      { name: 'Last Week', phone: '5550002', part: 'Rotor', appointment: at(-30), quote: '80' },
      { name: 'Paid Off', phone: '5550003', part: 'Belt', stage: 'Paid' },
    ];
    for (const job of jobs) expect((await owner.post('/api/user-info', job)).status).toBe(201);
    const invoiced = await owner.post('/api/user-info', { name: 'Invoice Me', phone: '5550004', part: 'Hose', quote: '250' });
    expect((await owner.patch(`/api/user-info/${invoiced.body.id}/stage`, { stage: 'Invoiced' })).status).toBe(200);

    await expect
      .poll(async () => (await owner.get('/api/dashboard?quickStats=true')).body, { timeout: 10_000 })
      .toMatchObject({
        customers: 4,
        // Paid is closed; the rest are open.
        openJobs: 3,
        appointmentsThisWeek: 1,
        users: 1,
        quotesThisWeek: { count: 3, total: 450 },
        revenueThisMonth: 250,
      });
    const stats = (await owner.get(`/api/${shop.subdomain}/dashboard?quickStats=true`)).body;
    // Without quickStats (the instance home) the Maven figures are left out.
    expect((await owner.get('/api/dashboard')).body).toMatchObject({
      jobsByStage: null,
      quotesThisWeek: null,
      revenueThisMonth: null,
      openJobs: 3,
    });
    expect((await owner.get('/api/dashboard?quickStats=maybe')).status).toBe(400);
    expect(stats.jobsByStage.map((row: { stage: string }) => row.stage)).toEqual([
      'Quote',
      'Parts Ordered',
      'Parts In',
      'Scheduled',
      'In Progress',
      'Completed',
      'Invoiced',
      'Paid',
      'Canceled',
    ]);
    expect(stats.jobsByStage.find((row: { stage: string }) => row.stage === 'Invoiced').count).toBe(1);
  });

  test('a figure is null where its feature is off or the user may not see it; tenants stay apart', async () => {
    await shopIn('dashoff', 'America/Chicago', { calendar: false, customers: false });
    const owner = await signInUser(server, 'dashoff', 'owner', '1234');
    expect((await owner.post('/api/admin/users', { username: 'staff', pin: '2222' })).status).toBe(201);
    const ownStats = (await owner.get('/api/dashboard')).body;
    expect(ownStats).toMatchObject({ customers: null, appointmentsThisWeek: null, users: 2, openJobs: 0 });

    const staff = await signInUser(server, 'dashoff', 'staff', '2222');
    const staffStats = (await staff.get('/api/dashboard')).body;
    expect(staffStats.users).toBeNull();
    expect(staffStats.openJobs).toBe(0);

    // Another shop's figures do not leak in, and naming another instance in the path is a 404.
    const other = await createTestInstance(server, 'dashother');
    const otherOwner = await signInUser(server, other.subdomain, 'owner', '1234');
    await otherOwner.post('/api/user-info', { name: 'Elsewhere', phone: '5550009', part: 'Tyre' });
    expect((await owner.get('/api/dashboard')).body.openJobs).toBe(0);
    expect((await owner.get('/api/dashother/dashboard')).status).toBe(404);
    expect((await owner.get('/api/maven/dashboard')).status).toBe(404);
    expect(
      (await new (owner.constructor as typeof import('../support/server.ts').ApiClient)(server.url).get('/api/dashboard')).status,
    ).toBe(401);
  });
});
