import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { signInSuperAdmin, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/**
 * Insights on a seeded history with known answers. The commands' clock is moved by hand, so
 * every event happens at a chosen moment; the shop is in New York (UTC−5 in January), so a
 * job completed late on a Sunday evening there (early Monday UTC) counts in the week before.
 */

let clock = new Date('2025-12-01T14:00:00Z');
let server: TestServer;
let admin: ApiClient;
let writer: ApiClient;
let manager: ApiClient;
let stranger: ApiClient;
const jobs = '/api/insightshop/pipeline';
const insights = '/api/insightshop/insights';
const ids: Record<string, string> = {};
const numbers: Record<string, string> = {};

/** New York local time in January/December (EST, UTC−5) as an instant. */
const ny = (local: string) => new Date(`${local}:00-05:00`);

async function at(local: string, action: () => Promise<{ status: number; text: string }>, expected = 200) {
  clock = ny(local);
  const res = await action();
  expect(res.status, res.text).toBe(expected);
  return res;
}

async function create(key: string, local: string, fields: Record<string, unknown>) {
  const res = await at(local, () => admin.post(jobs, { name: `Customer ${key}`, part: `Part ${key}`, ...fields }), 201);
  ids[key] = (res as unknown as { body: { id: string; jobNumber: string } }).body.id;
  numbers[key] = (res as unknown as { body: { id: string; jobNumber: string } }).body.jobNumber;
}

const move = (key: string, local: string, stage: string) => at(local, () => admin.patch(`${jobs}/${ids[key]}/stage`, { stage }));

beforeAll(async () => {
  server = await startTestServer({}, { now: () => clock });
  const superAdmin = await signInSuperAdmin(server);
  const created = await superAdmin.post('/api/crm-instances', {
    name: 'INSIGHTSHOP',
    displayName: 'Insight Auto',
    subdomain: 'insightshop',
    timeZone: 'America/New_York',
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  expect(created.status, created.text).toBe(201);
  const other = await superAdmin.post('/api/crm-instances', {
    name: 'OTHERSHOP',
    displayName: 'Other Auto',
    subdomain: 'othershop',
    adminUsername: 'owner',
    adminPin: '1234',
  });
  expect(other.status, other.text).toBe(201);
  admin = await signInUser(server, 'insightshop', 'owner', '1234');
  stranger = await signInUser(server, 'othershop', 'owner', '1234');
  expect((await admin.post('/api/admin/users', { username: 'writer', displayName: 'Wendy', pin: '2222' })).status).toBe(201);
  const managerUser = await admin.post('/api/admin/users', { username: 'manager', displayName: 'Max', pin: '3333' });
  expect(managerUser.status).toBe(201);
  expect((await admin.patch(`/api/admin/users/${managerUser.body.id}/permissions`, { canManageUsers: true })).status).toBe(200);
  writer = await signInUser(server, 'insightshop', 'writer', '2222');
  manager = await signInUser(server, 'insightshop', 'manager', '3333');

  // D: quoted long before the period and never moved on.
  await create('D', '2025-12-01T09:00', {});
  // A: the whole way to Paid.
  await create('A', '2026-01-05T09:00', { tech: 'Sam', quote: 500 });
  await move('A', '2026-01-05T11:00', 'Scheduled');
  await move('A', '2026-01-07T10:00', 'Completed');
  await move('A', '2026-01-08T10:00', 'Invoiced');
  await move('A', '2026-01-12T10:00', 'Paid');
  // B: completed and invoiced in the second week.
  await create('B', '2026-01-06T09:00', { tech: 'Kim', quote: 300 });
  await move('B', '2026-01-06T13:00', 'Scheduled');
  await move('B', '2026-01-13T09:00', 'Completed');
  await move('B', '2026-01-14T09:00', 'Invoiced');
  // C: still a quote.
  await create('C', '2026-01-06T12:00', {});
  // E: completed late on Sunday evening in New York (Monday in UTC).
  await create('E', '2026-01-10T09:00', { tech: 'Sam', quote: 120 });
  await move('E', '2026-01-10T15:00', 'Scheduled');
  await move('E', '2026-01-11T23:30', 'Completed');
  // F: quoted and completed in the period, then deleted: in no figure.
  await create('F', '2026-01-07T09:00', { tech: 'Kim', quote: 999 });
  await move('F', '2026-01-07T10:00', 'Completed');
  clock = ny('2026-01-08T09:00');
  expect((await admin.delete(`${jobs}/${ids.F}`)).status).toBe(204);

  clock = ny('2026-01-20T13:00');
});
afterAll(async () => {
  await server?.stop();
});

const PERIOD = '?from=2026-01-05&to=2026-01-18';
const ref = (key: string) => ({ id: ids[key], jobNumber: numbers[key], name: `Customer ${key}` });

async function figures(client: ApiClient = admin, query = PERIOD) {
  const res = await client.get(`${insights}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('insights on a seeded history', () => {
  test('time in each stage: median and p90 of the stays that ended in the period', async () => {
    const body = await figures();
    expect(body.period).toEqual({ from: '2026-01-05', to: '2026-01-18', timeZone: 'America/New_York' });
    const byStage = Object.fromEntries(body.stageTimes.map((s: { stage: string }) => [s.stage, s]));
    expect(Object.keys(byStage)).toEqual(['Quote', 'Scheduled', 'Completed', 'Invoiced']);
    // Quote: 2 h (A), 4 h (B), 6 h (E).
    expect(byStage.Quote).toMatchObject({ count: 3, medianHours: 4, p90Hours: 5.6 });
    // Scheduled: 47 h (A), 164 h (B), 32.5 h (E).
    expect(byStage.Scheduled).toMatchObject({ count: 3, medianHours: 47, p90Hours: 140.6 });
    expect(byStage.Completed).toMatchObject({ count: 2, medianHours: 24, p90Hours: 24 });
    expect(byStage.Invoiced).toMatchObject({ count: 1, medianHours: 96, p90Hours: 96 });
    expect(byStage.Quote.jobs).toEqual([ref('A'), ref('B'), ref('E')]);
  });

  test('quote → paid conversion of the jobs quoted in the period', async () => {
    const { conversion } = await figures();
    expect(conversion).toEqual({
      quoted: 4,
      paid: 1,
      rate: 0.25,
      quotedJobs: [ref('A'), ref('B'), ref('C'), ref('E')],
      paidJobs: [ref('A')],
    });
  });

  test("completed jobs and invoiced revenue per week, in the shop's weeks", async () => {
    const { weeks } = await figures();
    expect(weeks).toEqual([
      { weekStart: '2026-01-05', completed: 2, revenue: 500, collected: 0, completedJobs: [ref('A'), ref('E')], invoicedJobs: [ref('A')] },
      { weekStart: '2026-01-12', completed: 1, revenue: 300, collected: 0, completedJobs: [ref('B')], invoicedJobs: [ref('B')] },
    ]);
  });

  test('busiest technicians and open quotes older than N days', async () => {
    const body = await figures();
    expect(body.technicians).toEqual([
      { tech: 'Sam', completed: 2, jobs: [ref('A'), ref('E')] },
      { tech: 'Kim', completed: 1, jobs: [ref('B')] },
    ]);
    expect(body.staleQuotes.days).toBe(14);
    expect(body.staleQuotes.jobs.map((j: { id: string; ageDays: number }) => [j.id, j.ageDays])).toEqual([
      [ids.D, 50],
      [ids.C, 14],
    ]);
    const older = await figures(admin, `${PERIOD}&staleDays=30`);
    expect(older.staleQuotes.jobs.map((j: { id: string }) => j.id)).toEqual([ids.D]);
  });

  test('a period without dates is the twelve weeks up to today in the shop', async () => {
    const body = await figures(admin, '');
    expect(body.period).toEqual({ from: '2025-10-29', to: '2026-01-20', timeZone: 'America/New_York' });
    expect(body.weeks).toHaveLength(13);
  });

  test('a rebuild from the events gives the same tables and the same figures', async () => {
    const before = await figures();
    const { knex, store } = server.runtime.deps;
    const report = await rebuildReadModels({ knex, store, projections });
    expect(report.tables.map((t) => t.table)).toEqual(expect.arrayContaining(['insight_jobs', 'insight_stage_intervals']));
    expect(report.tables.filter((t) => !t.identical)).toEqual([]);
    expect(await figures()).toEqual(before);
  });
});

describe('who sees insights', () => {
  test('admins and managers do; other users get 403; another instance sees only its own', async () => {
    expect((await figures(manager)).conversion.quoted).toBe(4);
    const refused = await writer.get(`${insights}${PERIOD}`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('You do not have permission to do this');
    expect((await stranger.get(`${insights}${PERIOD}`)).status).toBe(404);
    const theirs = await stranger.get(`/api/othershop/insights${PERIOD}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.conversion.quoted).toBe(0);
    expect(theirs.body.stageTimes).toEqual([]);
    expect((await new (admin.constructor as typeof ApiClient)(server.url).get(`${insights}${PERIOD}`)).status).toBe(401);
  });

  test('an instance with its pipeline off has no insights (404)', async () => {
    const superAdmin = await signInSuperAdmin(server);
    const created = await superAdmin.post('/api/crm-instances', {
      name: 'NOPIPE',
      displayName: 'No Pipeline Auto',
      subdomain: 'nopipe',
      features: { pipeline: false },
      adminUsername: 'owner',
      adminPin: '1234',
    });
    expect(created.status, created.text).toBe(201);
    const owner = await signInUser(server, 'nopipe', 'owner', '1234');
    const res = await owner.get('/api/nopipe/insights');
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('This feature is not enabled for this CRM');
  });

  test('bad periods are a 400 with a clear message', async () => {
    const cases: Array<[string, string]> = [
      ['?from=2026-13-01', 'from must be a real date'],
      ['?from=yesterday', 'from must be a date like 2025-03-01'],
      ['?from=2026-02-01&to=2026-01-01', 'from must be on or before to'],
      ['?from=2024-01-01&to=2026-01-01', 'The period may span at most 366 days'],
      ['?staleDays=0', 'staleDays must be a whole number of days from 1 to 365'],
    ];
    for (const [query, message] of cases) {
      const res = await admin.get(`${insights}${query}`);
      expect(res.status, query).toBe(400);
      expect(res.text, query).toContain(message);
    }
  });
});

describe('restore and revert in the figures', () => {
  // Runs last: it changes the seeded history.
  test('a restored job is back in every figure; a reverted stage move is a stay like any other', async () => {
    clock = ny('2026-01-20T13:00');
    const restored = await admin.post(`/api/insightshop/deleted-records/job/${ids.F}/restore`);
    expect(restored.status, restored.text).toBe(200);
    const body = await figures();
    expect(body.conversion).toMatchObject({ quoted: 5, paid: 1, rate: 0.2 });
    expect(body.weeks[0]).toMatchObject({ weekStart: '2026-01-05', completed: 3 });
    expect(body.technicians).toEqual([
      { tech: 'Kim', completed: 2, jobs: [ref('F'), ref('B')] },
      { tech: 'Sam', completed: 2, jobs: [ref('A'), ref('E')] },
    ]);

    // C's move to Scheduled, reverted an hour later: a one-hour Scheduled stay, and C quoted again.
    await move('C', '2026-01-16T09:00', 'Scheduled');
    const change = (await admin.get(`${jobs}/${ids.C}/history`)).body.find((row: { action: string }) => row.action === 'stage-changed');
    await at('2026-01-16T10:00', () => admin.post(`${jobs}/${ids.C}/history/${change.id}/revert`));
    clock = ny('2026-01-20T13:00');
    const after = await figures();
    const scheduled = after.stageTimes.find((s: { stage: string }) => s.stage === 'Scheduled');
    expect(scheduled).toMatchObject({ count: 4 });
    expect(scheduled.jobs.map((j: { id: string }) => j.id)).toContain(ids.C);
    expect(after.staleQuotes.jobs.map((j: { id: string }) => j.id)).toEqual([ids.D]);
  });
});
