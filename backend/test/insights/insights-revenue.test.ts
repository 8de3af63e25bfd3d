import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signInSuperAdmin, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/**
 * Insights' revenue from the repair orders: invoiced (the invoices issued in the week) and
 * collected (payments less refunds, by when the money changed hands); a job invoiced without
 * lines counts its quote. The clock is moved by hand; the shop is in New York (UTC−5).
 */

let clock = new Date('2026-01-05T14:00:00Z');
let server: TestServer;
let admin: ApiClient;
const jobs = '/api/revshop/pipeline';
const ids: Record<string, string> = {};
const numbers: Record<string, string> = {};
const ny = (local: string) => new Date(`${local}:00-05:00`);

async function at(local: string, action: () => Promise<{ status: number; text: string; body: any }>, expected: number) {
  clock = ny(local);
  const res = await action();
  expect(res.status, res.text).toBe(expected);
  return res;
}

async function create(key: string, local: string, fields: Record<string, unknown>) {
  const res = await at(local, () => admin.post(jobs, { name: `Customer ${key}`, ...fields }), 201);
  ids[key] = res.body.id;
  numbers[key] = res.body.jobNumber;
}
const line = (key: string, local: string, unitPrice: string) =>
  at(local, () => admin.post(`${jobs}/${ids[key]}/lines`, { kind: 'part', description: `Part ${key}`, unitPrice }), 201);
const invoice = (key: string, local: string) => at(local, () => admin.post(`${jobs}/${ids[key]}/invoice`, {}), 201);
const pay = (key: string, local: string, amount: string, extra: Record<string, unknown> = {}) =>
  at(local, () => admin.post(`${jobs}/${ids[key]}/payments`, { amount, method: 'cash', ...extra }), 201);
const ref = (key: string) => ({ id: ids[key], jobNumber: numbers[key], name: `Customer ${key}` });

beforeAll(async () => {
  server = await startTestServer({}, { now: () => clock });
  const superAdmin = await signInSuperAdmin(server);
  const created = await superAdmin.post('/api/crm-instances', {
    name: 'REVSHOP',
    displayName: 'Revenue Auto',
    subdomain: 'revshop',
    timeZone: 'America/New_York',
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  expect(created.status, created.text).toBe(201);
  admin = await signInUser(server, 'revshop', 'owner', '1234');

  // G: invoiced $200 in the first week, paid $50 then, $150 the week after (on Sunday evening in New York).
  await create('G', '2026-01-05T09:00', {});
  await line('G', '2026-01-05T10:00', '200');
  await invoice('G', '2026-01-06T10:00');
  await pay('G', '2026-01-07T10:00', '50');
  await pay('G', '2026-01-11T23:30', '150');
  // H: no lines, its quote of $300; moved to Invoiced in the second week.
  await create('H', '2026-01-06T09:00', { quote: 300 });
  await at('2026-01-14T09:00', () => admin.patch(`${jobs}/${ids.H}/stage`, { stage: 'Invoiced' }), 200);
  // K: invoiced and paid in the second week, $20 refunded, then a revision that took $10 off.
  await create('K', '2026-01-12T09:00', {});
  await line('K', '2026-01-12T10:00', '80');
  await invoice('K', '2026-01-13T10:00');
  await pay('K', '2026-01-13T11:00', '80');
  await pay('K', '2026-01-14T11:00', '-20', { reason: 'Goodwill' });
  const k = (await admin.get(`${jobs}/${ids.K}`)).body;
  await at('2026-01-15T09:00', () => admin.put(`${jobs}/${ids.K}/lines/${k.lines[0].id}`, { unitPrice: '70' }), 200);
  await invoice('K', '2026-01-15T10:00');
  // L: invoiced and paid, then deleted: in no figure.
  await create('L', '2026-01-12T09:00', {});
  await line('L', '2026-01-12T10:00', '999');
  await invoice('L', '2026-01-12T11:00');
  await pay('L', '2026-01-12T12:00', '999');
  await at('2026-01-12T13:00', () => admin.delete(`${jobs}/${ids.L}`), 204);
  clock = ny('2026-01-20T13:00');
});
afterAll(async () => {
  await server?.stop();
});

describe("insights' revenue from invoices and payments", () => {
  test('invoiced and collected per week in the shop weeks; a job without lines counts its quote; deleted jobs are left out', async () => {
    const res = await admin.get('/api/revshop/insights?from=2026-01-05&to=2026-01-18');
    expect(res.status, res.text).toBe(200);
    const weeks = res.body.weeks.map((w: Record<string, unknown>) => ({
      weekStart: w.weekStart,
      revenue: w.revenue,
      collected: w.collected,
      invoicedJobs: w.invoicedJobs,
    }));
    expect(weeks).toEqual([
      { weekStart: '2026-01-05', revenue: 200, collected: 200, invoicedJobs: [ref('G')] },
      // K: 80 then a revision of −10; H: its quote. Collected: K's 80 less the 20 refunded.
      { weekStart: '2026-01-12', revenue: 370, collected: 60, invoicedJobs: expect.arrayContaining([ref('K'), ref('H')]) },
    ]);
    expect(res.body.weeks[1].invoicedJobs).toHaveLength(2);
  });
});
