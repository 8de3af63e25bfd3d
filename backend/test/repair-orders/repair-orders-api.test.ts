import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JobDetail } from '@crm/projections/repair-orders';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let tick = Date.parse('2025-03-03T15:00:00.000Z');
const now = () => new Date((tick += 1000));

let server: TestServer;
let admin: ApiClient;
let reader: ApiClient;
let outsider: ApiClient;
let anonymous: ApiClient;
const P = '/api/roshop/pipeline';

beforeAll(async () => {
  server = await startTestServer({}, { now });
  await createTestInstance(server, 'roshop');
  await createTestInstance(server, 'roother');
  admin = await signInUser(server, 'roshop', 'owner', '1234');
  const readerUser = await admin.post('/api/admin/users', { username: 'reader', displayName: 'Rita Reader', pin: '3333' });
  expect((await admin.patch(`/api/admin/users/${readerUser.body.id}/permissions`, { canWrite: false })).status).toBe(200);
  reader = await signInUser(server, 'roshop', 'reader', '3333');
  outsider = await signInUser(server, 'roother', 'owner', '1234');
  anonymous = new ApiClient(server.url);
});
afterAll(async () => {
  await server?.stop();
});

const ifMatch = (job: { revision: number }) => ({ 'if-match': `"${job.revision}"` });

async function newJob(name = 'Ann Lee'): Promise<JobDetail> {
  const created = await admin.post(P, { name, makeModel: '2015 Honda Civic', quote: '100' });
  expect(created.status).toBe(201);
  const job = await admin.get(`${P}/${created.body.id}`);
  expect(job.status).toBe(200);
  return job.body as JobDetail;
}

describe('shop settings', () => {
  test('defaults, admin saves, reader reads but cannot save, bad input is a 400 naming the field', async () => {
    const first = await admin.get('/api/roshop/settings');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ laborRate: '0.00', partsTaxRate: '0', estimateLinkDays: 14, revision: 0 });
    const saved = await admin.put(
      '/api/roshop/settings',
      { shopName: 'RO Shop', address: '1 Main St', laborRate: '120', partsTaxRate: '8.25', laborTaxRate: '5', terms: 'Pay on pickup.' },
      { 'if-match': '"0"' },
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ shopName: 'RO Shop', laborRate: '120.00', partsTaxRate: '8.25', laborTaxRate: '5', revision: 1 });
    expect((await admin.get('/api/roshop/settings')).body).toMatchObject({ shopName: 'RO Shop', revision: 1 });
    expect((await admin.put('/api/roshop/settings', { shopName: 'Stale' }, { 'if-match': '"0"' })).status).toBe(409);
    expect((await reader.get('/api/roshop/settings')).status).toBe(200);
    expect((await reader.put('/api/roshop/settings', { shopName: 'Nope' })).status).toBe(403);
    const bad = await admin.put('/api/roshop/settings', { partsTaxRate: '8.2555' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Parts tax rate');
    expect((await admin.put('/api/roshop/settings', { unknownField: 1 })).status).toBe(400);
    expect((await outsider.get('/api/roother/settings')).body.shopName).toBe('');
  });
});

describe('the whole cycle: lines, estimate, approval, invoice, payments', () => {
  test('from a new job to Paid and back', async () => {
    let job = await newJob();
    expect(job.lines).toEqual([]);
    expect(job.totals).toMatchObject({ total: '100.00', paid: '0.00', balance: '100.00' });

    // Lines, each with If-Match on the job.
    let res = await admin.post(
      `${P}/${job.id}/lines`,
      { kind: 'part', description: 'Brake pads', partNumber: 'BP-1', quantity: '2', unitPrice: '45.50' },
      ifMatch(job),
    );
    expect(res.status).toBe(201);
    job = res.body;
    res = await admin.post(`${P}/${job.id}/lines`, { kind: 'labor', description: 'Replace pads', hours: '1.5' }, ifMatch(job));
    expect(res.status).toBe(201);
    job = res.body;
    const stale = await admin.post(
      `${P}/${job.id}/lines`,
      { kind: 'fee', description: 'Shop supplies', amount: '5' },
      { 'if-match': '"1"' },
    );
    expect(stale.status).toBe(409);
    res = await admin.post(`${P}/${job.id}/lines`, { kind: 'fee', description: 'Shop supplies', amount: '5' }, ifMatch(job));
    job = res.body;
    res = await admin.post(
      `${P}/${job.id}/lines`,
      { kind: 'part', description: 'Wiper blades', quantity: '1', unitPrice: '20', taxable: true },
      ifMatch(job),
    );
    job = res.body;
    expect(job.lines.map((l) => l.kind)).toEqual(['part', 'labor', 'fee', 'part']);
    expect(job.lines[1]).toMatchObject({ rate: '120.00', shopRate: true, total: '180.00' });
    // parts 91 + 20 = 111, labor 180, fees 5; tax 8.25 % of 116 = 9.57, 5 % of 180 = 9.00
    expect(job.totals).toMatchObject({ parts: '111.00', labor: '180.00', fees: '5.00', tax: '18.57', total: '314.57' });
    expect(job.quote).toBe('314.57');

    // A reader may not write lines; bad input names the field; unknown fields are refused.
    expect((await reader.post(`${P}/${job.id}/lines`, { kind: 'fee', amount: '1' })).status).toBe(403);
    const bad = await admin.post(`${P}/${job.id}/lines`, { kind: 'part', unitPrice: '1.234' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Unit price');
    expect((await admin.post(`${P}/${job.id}/lines`, { kind: 'part', unitPrice: '1', hours: '2' })).status).toBe(400);
    expect((await admin.post(`${P}/${job.id}/lines`, { kind: 'part', unitPrice: '1', colour: 'red' })).status).toBe(400);

    // Change and reorder.
    const labor = job.lines[1]!;
    res = await admin.put(`${P}/${job.id}/lines/${labor.id}`, { hours: '2' }, ifMatch(job));
    expect(res.status).toBe(200);
    job = res.body;
    expect(job.lines[1]!.total).toBe('240.00');
    const order = [...job.lines].reverse().map((l) => l.id);
    res = await admin.post(`${P}/${job.id}/lines/reorder`, { lineIds: order }, ifMatch(job));
    expect(res.status).toBe(200);
    job = res.body;
    expect(job.lines.map((l) => l.id)).toEqual(order);
    expect((await admin.post(`${P}/${job.id}/lines/reorder`, { lineIds: order.slice(1) })).status).toBe(400);

    // History shows each line change old → new.
    const history = (await admin.get(`${P}/${job.id}/history`)).body as Array<{
      action: string;
      changes: Array<{ field: string; oldValue: unknown; newValue: unknown }>;
    }>;
    const changed = history.find((row) => row.action === 'line-changed');
    expect(changed?.changes).toContainEqual({ field: 'Replace pads (labor): hours', oldValue: '1.5', newValue: '2' });
    expect(history.some((row) => row.action === 'line-added')).toBe(true);

    // Send the estimate; the public page shows it without a session.
    const sent = await admin.post(`${P}/${job.id}/estimate/send`, {}, ifMatch(job));
    expect(sent.status).toBe(201);
    expect(sent.body.link).toBe(`/estimate/${sent.body.token}`);
    // A full address even without an Origin header (API clients send none).
    expect(sent.body.url).toBe(`${server.url}/estimate/${sent.body.token}`);
    job = sent.body.job;
    const token = sent.body.token as string;
    const page = await anonymous.get(`/api/public/estimates/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ shop: { name: 'RO Shop' }, customerName: 'Ann Lee', status: 'sent', version: 1 });
    expect(page.body.lines[0]).not.toHaveProperty('unitCost');
    // Another shop's session or a made-up token opens nothing.
    expect((await anonymous.get(`/api/public/estimates/${token.slice(0, 32)}${'A'.repeat(32)}`)).status).toBe(404);
    expect((await outsider.get(`/api/roshop/pipeline/${job.id}`)).status).toBe(404);

    // The customer declines the wiper blades.
    const wipers = job.lines.find((l) => l.description === 'Wiper blades')!;
    const others = job.lines.filter((l) => l.id !== wipers.id).map((l) => l.id);
    expect(
      (await anonymous.post(`/api/public/estimates/${token}/decision`, { approvedLineIds: others, declinedLineIds: [], name: 'Ann' }))
        .status,
    ).toBe(400);
    // A name of characters that show nothing (a zero-width space, a word joiner) is no name.
    const unnamed = await anonymous.post(`/api/public/estimates/${token}/decision`, {
      approvedLineIds: others,
      declinedLineIds: [wipers.id],
      name: '\u200B \u2060',
    });
    expect(unnamed.status, unnamed.text).toBe(400);
    expect(unnamed.text).toContain('Type your name to confirm');
    const decided = await anonymous.post(`/api/public/estimates/${token}/decision`, {
      approvedLineIds: others,
      declinedLineIds: [wipers.id],
      name: 'Ann Lee',
    });
    expect(decided.status).toBe(200);
    expect(decided.body.status).toBe('approved');
    expect(decided.body.decision).toMatchObject({ name: 'Ann Lee', declinedLineIds: [wipers.id] });
    expect(
      (
        await anonymous.post(`/api/public/estimates/${token}/decision`, {
          approvedLineIds: others,
          declinedLineIds: [wipers.id],
          name: 'Ann Lee',
        })
      ).status,
    ).toBe(409);
    job = (await admin.get(`${P}/${job.id}`)).body;
    expect(job.estimate).toMatchObject({ status: 'approved', decision: { name: 'Ann Lee' } });
    expect(job.lines.find((l) => l.id === wipers.id)!.status).toBe('declined');
    // 91 + 240 + 5; tax 8.25 % of 96 = 7.92, 5 % of 240 = 12.00
    expect(job.totals).toMatchObject({ parts: '91.00', total: '355.92' });

    // The approved estimate as a PDF says who approved it.
    const estimatePdf = await admin.request('GET', `${P}/${job.id}/estimate.pdf`);
    expect(estimatePdf.status).toBe(200);
    expect(estimatePdf.headers.get('content-type')).toBe('application/pdf');
    // Read back: the estimate as sent, then the total the customer agreed to (the wipers left out).
    const estimateBytes = await fetch(`${server.url}${P}/${job.id}/estimate.pdf`, { headers: { cookie: admin.cookieHeader() } });
    const estimateFile = path.join(mkdtempSync(path.join(tmpdir(), 'ro-estimate-')), 'estimate.pdf');
    writeFileSync(estimateFile, Buffer.from(await estimateBytes.arrayBuffer()));
    const estimateText = execFileSync('pdftotext', ['-layout', estimateFile, '-'], { encoding: 'utf8' });
    expect(estimateText).toContain('Customer decision');
    expect(estimateText).toContain('Declined: Wiper blades');
    expect(estimateText).toMatch(/Approved total\s+\$355\.92/);

    // Invoice: number, frozen lines, job moves to Invoiced; a second one with nothing changed is refused.
    res = await admin.post(`${P}/${job.id}/invoice`, {}, ifMatch(job));
    expect(res.status).toBe(201);
    job = res.body;
    expect(job.invoice).toMatchObject({ invoiceNumber: 1001, revision: 1, outdated: false, totals: { total: '355.92' } });
    expect(job.invoice!.lines.map((l) => l.id)).not.toContain(wipers.id);
    expect(job.stage).toBe('Invoiced');
    expect((await admin.post(`${P}/${job.id}/invoice`, {})).status).toBe(409);

    // Payments: over the balance refused; to zero moves it to Paid; a refund moves it back.
    expect((await admin.post(`${P}/${job.id}/payments`, { amount: '400', method: 'cash' })).status).toBe(400);
    expect((await admin.post(`${P}/${job.id}/payments`, { amount: '10', method: 'bitcoin' })).status).toBe(400);
    // Money is taken when it changes hands: a payment dated ahead would sit in a future day's takings.
    const ahead = await admin.post(`${P}/${job.id}/payments`, { amount: '10', method: 'cash', when: '2099-01-01T00:00:00Z' });
    expect(ahead.status).toBe(400);
    expect(ahead.body.errors).toEqual([{ field: 'when', message: 'when must not be in the future' }]);
    res = await admin.post(`${P}/${job.id}/payments`, { amount: '100', method: 'card', reference: 'VISA 4242' });
    expect(res.status).toBe(201);
    expect(res.body.totals).toMatchObject({ paid: '100.00', balance: '255.92' });
    res = await admin.post(`${P}/${job.id}/payments`, { amount: '255.92', method: 'cash' });
    job = res.body;
    expect(job.stage).toBe('Paid');
    expect(job.totals.balance).toBe('0.00');
    expect((await admin.post(`${P}/${job.id}/payments`, { amount: '-20', method: 'cash' })).status).toBe(400);
    res = await admin.post(`${P}/${job.id}/payments`, { amount: '-20', method: 'cash', reason: 'Goodwill' });
    expect(res.status).toBe(201);
    job = res.body;
    expect(job.stage).toBe('Invoiced');
    expect(job.totals.balance).toBe('20.00');
    expect(job.payments.map((p) => p.amount)).toEqual(['100.00', '255.92', '-20.00']);

    // The invoice PDF reads back.
    const invoicePdf = await fetch(`${server.url}${P}/${job.id}/invoice.pdf`, { headers: { cookie: admin.cookieHeader() } });
    expect(invoicePdf.status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'ro-pdf-'));
    const file = path.join(dir, 'invoice.pdf');
    writeFileSync(file, Buffer.from(await invoicePdf.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Invoice #1001');
    expect(text).toContain('RO Shop');
    expect(text).toContain('Brake pads');
    expect(text).toContain('$355.92');
    expect(text).toContain('Pay on pickup.');
    expect(text).not.toContain('Wiper blades');

    // The takings of the day.
    const report = await admin.get('/api/roshop/reports/takings?from=2025-03-01&to=2025-03-31');
    expect(report.status).toBe(200);
    expect(report.body.payments.net).toBe('335.92');
    expect(report.body.invoices.count).toBe(1);
    expect(report.body.sales).toMatchObject({ total: '355.92', tax: '19.92' });
    expect(report.body.outstanding).toMatchObject({ count: 1, amount: '20.00' });
    const csv = await admin.get('/api/roshop/reports/takings.csv?from=2025-03-01&to=2025-03-31');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text).toContain('net,,335.92');
    // "Issued at" is on the shop's clock (takings-csv.test.ts checks a shop whose day is not UTC's).
    expect(csv.text).not.toContain(report.body.invoices.items[0].issuedAt as string);
    expect((await admin.get('/api/roshop/reports/takings?from=2025-02-30')).status).toBe(400);
    expect((await reader.get('/api/roshop/reports/takings')).status).toBe(403);
  });

  test("a line that takes the job's total past what its quote holds is a 400 naming its amount, and nothing is stored", async () => {
    const job = await newJob('Max Out');
    const res = await admin.post(`${P}/${job.id}/lines`, {
      kind: 'part',
      description: 'Too much',
      unitPrice: '9999999.99',
      quantity: '99999',
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].field).toBe('unitPrice');
    const after = await admin.get(`${P}/${job.id}`);
    expect(after.body.lines).toEqual([]);
    expect(after.body.quote).toBe(job.quote);
  });

  test('a job priced by its quote alone: its estimate PDF lists the work at the quote and only the total', async () => {
    const created = await admin.post(P, { name: 'Quote Only', makeModel: '2012 Ford Focus', quote: '438', part: 'Timing belt' });
    expect(created.status, created.text).toBe(201);
    const pdf = await fetch(`${server.url}${P}/${created.body.id}/estimate.pdf`, { headers: { cookie: admin.cookieHeader() } });
    expect(pdf.status).toBe(200);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ro-quote-only-')), 'estimate.pdf');
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/Timing belt\s+Quoted price\s+\$438\.00/);
    expect(text).toMatch(/Total\s+\$438\.00/);
    // No breakdown of zeros that does not add up to the total.
    for (const label of ['Parts', 'Labor', 'Tax', 'Discounts']) expect(text).not.toMatch(new RegExp(`^\\s*${label}\\s+\\$`, 'm'));
  });

  test('a part line of no quantity is a 400 naming the quantity, when added and when changed, and nothing is stored', async () => {
    const job = await newJob('Zero Quantity');
    for (const quantity of [0, '0', '0.000', '00']) {
      const res = await admin.post(`${P}/${job.id}/lines`, { kind: 'part', description: 'Pads', unitPrice: '10', quantity });
      expect(res.status, `${JSON.stringify(quantity)}: ${res.text}`).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ field: 'quantity', message: 'Quantity must be more than 0' });
    }
    expect((await admin.get(`${P}/${job.id}`)).body.lines).toEqual([]);
    const added = await admin.post(`${P}/${job.id}/lines`, { kind: 'part', description: 'Pads', unitPrice: '10', quantity: '0.001' });
    expect(added.status, added.text).toBe(201);
    const line = added.body.lines[0];
    expect(line.quantity).toBe('0.001');
    const changed = await admin.put(`${P}/${job.id}/lines/${line.id}`, { quantity: '0' }, ifMatch(added.body));
    expect(changed.status, changed.text).toBe(400);
    expect(changed.body.errors[0].field).toBe('quantity');
    const after = await admin.get(`${P}/${job.id}`);
    expect(after.body.lines[0].quantity).toBe('0.001');
    expect(after.body.revision).toBe(added.body.revision);
  });

  test("a job number with quotes, slashes or non-Latin characters still names the estimate's PDF", async () => {
    // The job number is the shop's own free text, and it names the file in Content-Disposition:
    // a character past Latin-1 there made Node refuse the header, and the PDF was a 500.
    const numbers = ['A/B\\C "7"', 'Ωμέγα-№5', 'Ünïcode 😀', '%41%', "x'; filename=evil.exe"];
    for (const [i, jobNumber] of numbers.entries()) {
      const created = await admin.post(P, { name: `Odd Number ${i}`, jobNumber });
      expect(created.status, created.text).toBe(201);
      const pdf = await admin.request('GET', `${P}/${created.body.id}/estimate.pdf`);
      expect(pdf.status, `${JSON.stringify(jobNumber)}: ${pdf.text}`).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      const disposition = pdf.headers.get('content-disposition')!;
      expect(disposition).toMatch(/^inline; filename="estimate-(?:[^"\\/]|\\.)*\.pdf"/);
      // The exact name travels in filename* (RFC 5987) or in the quoted string, the slashes turned to dashes.
      const encoded = /filename\*=UTF-8''([^;]+)$/.exec(disposition)?.[1];
      const quoted = /filename="((?:[^"\\]|\\.)*)"/.exec(disposition)![1]!.replace(/\\(.)/g, '$1');
      const exact = encoded ? decodeURIComponent(encoded) : quoted;
      expect(exact).toBe(`estimate-${(created.body.jobNumber as string).replace(/[\\/]/g, '-')}.pdf`);
    }
  });

  test('a revoked or superseded link cannot be answered', async () => {
    let job = await newJob('Bo Diaz');
    job = (await admin.post(`${P}/${job.id}/lines`, { kind: 'labor', description: 'Diagnose', hours: '1' })).body;
    const first = await admin.post(`${P}/${job.id}/estimate/send`, {});
    const token = first.body.token as string;
    const revoked = await admin.post(`${P}/${job.id}/estimate/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.body.estimate.status).toBe('revoked');
    const lineIds = job.lines.map((l) => l.id);
    expect(
      (await anonymous.post(`/api/public/estimates/${token}/decision`, { approvedLineIds: lineIds, declinedLineIds: [], name: 'Bo' }))
        .status,
    ).toBe(410);
    const second = await admin.post(`${P}/${job.id}/estimate/send`, { expiresInDays: 1 });
    expect(second.body.version).toBe(2);
    const third = await admin.post(`${P}/${job.id}/estimate/send`, {});
    // Version 2 was superseded by version 3: gone, saying a newer one was sent; its page says so too.
    const onSuperseded = await anonymous.post(`/api/public/estimates/${second.body.token}/decision`, {
      approvedLineIds: lineIds,
      declinedLineIds: [],
      name: 'Bo',
    });
    expect(onSuperseded.status, onSuperseded.text).toBe(410);
    expect(onSuperseded.body.detail).toBe('The shop has sent a newer estimate: open the latest link.');
    expect((await anonymous.get(`/api/public/estimates/${second.body.token}`)).body.status).toBe('superseded');
    // Version 1 was revoked by the shop before the newer ones: superseded as well.
    expect((await anonymous.get(`/api/public/estimates/${token}`)).body.status).toBe('superseded');
    expect((await anonymous.get(`/api/public/estimates/${third.body.token}`)).body.status).toBe('sent');

    // Answered, then a newer version sent: answering the old one again is the 409 of an answer that stands.
    const answered = await anonymous.post(`/api/public/estimates/${third.body.token}/decision`, {
      approvedLineIds: lineIds,
      declinedLineIds: [],
      name: 'Bo',
    });
    expect(answered.status, answered.text).toBe(200);
    expect((await admin.post(`${P}/${job.id}/estimate/send`, {})).status).toBe(201);
    const again = await anonymous.post(`/api/public/estimates/${third.body.token}/decision`, {
      approvedLineIds: lineIds,
      declinedLineIds: [],
      name: 'Bo',
    });
    expect(again.status, again.text).toBe(409);
    expect((await anonymous.get(`/api/public/estimates/${third.body.token}`)).body.status).toBe('approved');
  });
});
