import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { approvedTotalOf, formatMoney, parseMoney, type PublicEstimate } from '@crm/projections/contract';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The customer's estimate page shows what the lines they approve come to while they choose.
 * With a percentage fee and a whole-job discount, declining a line changes both, so that
 * figure is the rounding rule's over the lines left in, and it must be what the estimate PDF
 * prints as the approved total and what the job's total becomes once the decision is in.
 * (The page added up the lines' amounts as sent: $38.17 before tax here, for a job that
 * then came to $35.71.)
 */

let server: TestServer;
let admin: ApiClient;
const P = '/api/approvedshop/pipeline';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'approvedshop');
  admin = await signInUser(server, 'approvedshop', 'owner', '1234');
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("the estimate page's approved total", () => {
  test('follows the rounding rule over the approved lines, and equals the PDF and the job after the decision', async () => {
    expect(
      (await admin.put('/api/approvedshop/settings', { laborRate: '97.77', partsTaxRate: '8.875', laborTaxRate: '6.125' })).status,
    ).toBe(200);
    const created = await admin.post(P, { name: 'Dana Decides' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const add = async (line: Record<string, unknown>) => {
      const res = await admin.post(`${P}/${id}/lines`, line);
      expect(res.status, res.text).toBe(201);
      return res.body.lines.at(-1).id as string;
    };
    const pads = await add({ kind: 'part', description: 'Brake pads', quantity: '1.333', unitPrice: '0.07' });
    await add({ kind: 'labor', description: 'Work', hours: '0.33' });
    const diag = await add({ kind: 'labor', description: 'Diag', hours: '1.17', rate: '99.99' });
    await add({ kind: 'fee', description: 'Shop supplies', percent: '7.5' });
    await add({ kind: 'discount', description: 'Line off', amount: '0.03', appliesTo: pads });
    await add({ kind: 'discount', description: 'Job off', percent: '3.333' });
    const sent = await admin.post(`${P}/${id}/estimate/send`, {});
    expect(sent.status, sent.text).toBe(201);

    const anonymous = new ApiClient(server.url);
    const page = await anonymous.get<PublicEstimate>(`/api/public/estimates/${sent.body.token}`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.taxRates).toEqual({ partsTaxRate: '8.875', laborTaxRate: '6.125' });
    const everything = new Set(page.body.lines.map((line) => line.id));
    expect(formatMoney(approvedTotalOf(page.body.lines, page.body.taxRates, everything))).toBe('$164.97');
    expect(page.body.totals.total).toBe('164.97');

    // The customer declines the diagnosis: the fee and the job discount shrink with it.
    const approved = new Set([...everything].filter((line) => line !== diag));
    const shown = approvedTotalOf(page.body.lines, page.body.taxRates, approved);
    expect(formatMoney(shown)).toBe('$35.71');
    const decided = await anonymous.post(`/api/public/estimates/${sent.body.token}/decision`, {
      approvedLineIds: [...approved],
      declinedLineIds: [diag],
      name: 'Dana Decides',
    });
    expect(decided.status, decided.text).toBe(200);
    const job = await admin.get(`${P}/${id}`);
    expect(parseMoney(job.body.totals.total)).toBe(shown);

    const pdf = await fetch(`${server.url}${P}/${id}/estimate.pdf`, { headers: { cookie: admin.cookieHeader() } });
    expect(pdf.status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'approved-pdf-'));
    try {
      const file = path.join(dir, 'estimate.pdf');
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toMatch(/Approved total\s+\$35\.71/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
