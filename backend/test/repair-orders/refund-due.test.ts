import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { balanceWords } from '@crm/projections/contract';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/**
 * A job whose lines were lowered below what the customer already paid owes them the
 * difference: every screen and the invoice PDF say "Refund due $30.00", never "-$30.00".
 */

describe('balanceWords', () => {
  test('owed by the customer, owed to the customer, and settled', () => {
    expect(balanceWords(5000)).toEqual({ label: 'Balance due', amount: '$50.00', text: 'Balance due $50.00' });
    expect(balanceWords(-5000)).toEqual({ label: 'Refund due', amount: '$50.00', text: 'Refund due $50.00' });
    expect(balanceWords(-123456).text).toBe('Refund due $1,234.56');
    expect(balanceWords(0).text).toBe('Balance due $0.00');
  });
});

let server: TestServer;
let admin: ApiClient;
const P = '/api/refundshop/pipeline';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'refundshop');
  admin = await signInUser(server, 'refundshop', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

describe('a deposit larger than the lines now come to', () => {
  test('the invoice PDF reads "Refund due" with the amount owed back', async () => {
    const created = await admin.post(P, { name: 'Rita Refund', phone: '5550104477', makeModel: '2015 Honda Fit' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const added = await admin.post(`${P}/${id}/lines`, { kind: 'part', description: 'Alternator', unitPrice: '150' });
    expect(added.status, added.text).toBe(201);
    expect((await admin.post(`${P}/${id}/invoice`, {})).status).toBe(201);
    const paid = await admin.post(`${P}/${id}/payments`, { amount: '50', method: 'cash' });
    expect(paid.status, paid.text).toBe(201);
    // The customer's own part after all: the line comes down to $20, below the $50 deposit.
    const line = added.body.lines[0];
    expect((await admin.put(`${P}/${id}/lines/${line.id}`, { unitPrice: '20' })).status).toBe(200);
    const reissued = await admin.post(`${P}/${id}/invoice`, {});
    expect(reissued.status, reissued.text).toBe(201);
    expect(reissued.body.totals.balance).toBe('-30.00');

    const pdf = await fetch(`${server.url}${P}/${id}/invoice.pdf`, { headers: { cookie: admin.cookieHeader() } });
    expect(pdf.status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'refund-pdf-'));
    try {
      const file = path.join(dir, 'invoice.pdf');
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toMatch(/Refund due\s+\$30\.00/);
      // The customer's phone as the screens show it.
      expect(text).toContain('Rita Refund · 555-010-4477');
      expect(text).not.toContain('-$30.00');
      expect(text).not.toContain('Balance due');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
