/**
 * The takings CSV of a shop whose day is not UTC's: a Chicago shop's invoice and payment ten
 * minutes before its midnight are already the next day in UTC. The expected lines are
 * written out, not computed, so the test cannot agree with a wrong formatter.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signInSuperAdmin, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

// 05:50 UTC on 4 March 2025 is 23:50 on 3 March in Chicago (CST, UTC-6).
let tick = Date.parse('2025-03-04T05:50:00.000Z');
const now = () => new Date((tick += 1000));

let server: TestServer;
let owner: ApiClient;
const P = '/api/chitakings/pipeline';

beforeAll(async () => {
  server = await startTestServer({}, { now });
  const superAdmin = await signInSuperAdmin(server);
  const created = await superAdmin.post('/api/crm-instances', {
    name: 'CHITAKINGS',
    displayName: 'Chicago Takings',
    subdomain: 'chitakings',
    timeZone: 'America/Chicago',
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  expect(created.status, created.text).toBe(201);
  owner = await signInUser(server, 'chitakings', 'owner', '1234');
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('takings CSV in the shop time zone', () => {
  test('an invoice and a payment just before the shop midnight are that day, at their local time', async () => {
    expect((await owner.put('/api/chitakings/settings', { partsTaxRate: '8.25', laborTaxRate: '0' })).status).toBe(200);
    const job = await owner.post(P, { name: 'Nell Night', makeModel: '2012 Ford Focus' });
    expect(job.status, job.text).toBe(201);
    const line = await owner.post(`${P}/${job.body.id}/lines`, {
      kind: 'part',
      description: 'Battery',
      quantity: '1',
      unitPrice: '100',
      taxable: true,
    });
    expect(line.status, line.text).toBe(201);
    const invoiced = await owner.post(`${P}/${job.body.id}/invoice`, {});
    expect(invoiced.status, invoiced.text).toBe(201);
    const paid = await owner.post(`${P}/${job.body.id}/payments`, { amount: '108.25', method: 'card', reference: 'VISA 4242' });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.stage).toBe('Paid');
    const jobNumber = String(paid.body.jobNumber);

    const csv = await owner.get('/api/chitakings/reports/takings.csv?from=2025-03-03&to=2025-03-03');
    expect(csv.status, csv.text).toBe(200);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('Takings,2025-03-03 to 2025-03-03,America/Chicago');
    expect(lines).toContain('card,1,108.25');
    expect(lines).toContain('net,,108.25');
    expect(lines).toContain('parts,100.00');
    expect(lines).toContain('tax,8.25');
    // Issued at 05:50 UTC on the 4th: 23:50 on the 3rd on the shop's clock.
    expect(lines).toContain(`1001,1,${jobNumber},Nell Night,2025-03-03 23:50,108.25`);
    expect(csv.text).not.toContain('2025-03-04');

    // The next day in Chicago (the UTC day of both) has neither.
    const next = await owner.get('/api/chitakings/reports/takings.csv?from=2025-03-04&to=2025-03-04');
    expect(next.status, next.text).toBe(200);
    expect(next.text.split('\r\n')).toContain('net,,0.00');
    expect(next.text).not.toContain('Nell Night');
  }, 60_000);
});

describe('takings CSV cells', () => {
  test('a customer name a spreadsheet would run as a formula is written as text, amounts stay numbers', async () => {
    const name = '-2+3+cmd|" /C calc"!A0';
    const job = await owner.post(P, { name });
    expect(job.status, job.text).toBe(201);
    const line = await owner.post(`${P}/${job.body.id}/lines`, { kind: 'part', unitPrice: '10', taxable: false });
    expect(line.status, line.text).toBe(201);
    const invoiced = await owner.post(`${P}/${job.body.id}/invoice`, {});
    expect(invoiced.status, invoiced.text).toBe(201);
    const paid = await owner.post(`${P}/${job.body.id}/payments`, { amount: '10', method: 'cash' });
    expect(paid.status, paid.text).toBe(201);
    const refund = await owner.post(`${P}/${job.body.id}/payments`, { amount: '-4.50', method: 'cash', reason: 'Overcharged' });
    expect(refund.status, refund.text).toBe(201);

    const csv = await owner.get('/api/chitakings/reports/takings.csv?from=2025-03-01&to=2025-03-10');
    expect(csv.status, csv.text).toBe(200);
    const row = csv.text.split('\r\n').find((l) => l.includes('cmd|'));
    expect(row).toContain(`,"'-2+3+cmd|"" /C calc""!A0",`);
    expect(csv.text.split('\r\n')).toContain('refunds,1,-4.50');
  }, 60_000);
});
