import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MessagePage } from '@crm/projections/messages';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer } from './fakes.ts';

const PUBLIC_URL = 'https://crm.example.test';
const BASE = '/api/romsg';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let owner: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, SMTP_FROM: 'crm@example.test', PUBLIC_URL });
  await createTestInstance(server, 'romsg');
  owner = await signInUser(server, 'romsg', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const unfold = (raw: string) => raw.replace(/\r?\n[ \t]+/g, ' ');
const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address)).map((mail) => unfold(mail.raw));

/** The body of a quoted-printable text part, decoded (soft line breaks and =XX escapes). */
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The parts of a multipart message: each part's headers (lower-cased names) and its body. */
function mimeParts(raw: string): Array<{ headers: Record<string, string>; body: string }> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) throw new Error('not a multipart message');
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head = '', ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const headers: Record<string, string> = {};
      for (const line of head.split(/\r?\n/)) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      return { headers, body: rest.join('\n\n') };
    });
}

async function customerWithEmail(name: string, email: string) {
  const created = await owner.post(`${BASE}/customers`, { name, email, phone: '' });
  expect(created.status, created.text).toBe(201);
  const consent = await owner.put(`${BASE}/customers/${created.body.id}/consent`, { emailConsent: true, smsConsent: false });
  expect(consent.status, consent.text).toBe(200);
  return created.body.id as string;
}

describe('messages from the repair order', () => {
  test('a sent estimate e-mails its approval link; an issued invoice e-mails its PDF', async () => {
    const customerId = await customerWithEmail('Erin Estimate', 'erin@example.test');
    let res = await owner.post(`${BASE}/pipeline`, {
      name: 'Erin Estimate',
      customerId,
      makeModel: '2016 Honda Civic',
      stage: 'In Progress',
    });
    expect(res.status, res.text).toBe(201);
    const jobId = res.body.id as string;
    res = await owner.post(`${BASE}/pipeline/${jobId}/lines`, {
      kind: 'part',
      description: 'Brake pads',
      quantity: '1',
      unitPrice: '89.50',
    });
    expect(res.status, res.text).toBe(201);

    // The estimate: its approval link, on this server's public address.
    const sent = await owner.post(`${BASE}/pipeline/${jobId}/estimate/send`, {});
    expect(sent.status, sent.text).toBe(201);
    const token = sent.body.token as string;
    await expect.poll(() => mailsTo('erin@example.test').length, { timeout: 30_000 }).toBe(1);
    const estimateMail = mailsTo('erin@example.test')[0]!;
    expect(estimateMail).toContain('Subject: Your estimate from');
    expect(decodeQuotedPrintable(estimateMail)).toContain(`${PUBLIC_URL}/estimate/${token}`);
    // The link opens the estimate the customer is asked to approve.
    const anonymous = new ApiClient(server.url);
    const page = await anonymous.get(`/api/public/estimates/${token}`);
    expect(page.status, page.text).toBe(200);

    // The customer approves; the shop issues the invoice.
    const lineIds = (page.body.lines as Array<{ id: string }>).map((line) => line.id);
    const decided = await anonymous.post(`/api/public/estimates/${token}/decision`, {
      approvedLineIds: lineIds,
      declinedLineIds: [],
      name: 'Erin Estimate',
    });
    expect(decided.status, decided.text).toBe(200);
    const invoiced = await owner.post(`${BASE}/pipeline/${jobId}/invoice`, {});
    expect(invoiced.status, invoiced.text).toBe(201);
    const invoiceNumber = invoiced.body.invoice.invoiceNumber as number;

    await expect.poll(() => mailsTo('erin@example.test').length, { timeout: 30_000 }).toBe(2);
    const invoiceMail = mailsTo('erin@example.test')[1]!;
    expect(invoiceMail).toContain('Subject: Your invoice from');
    const pdfPart = mimeParts(invoiceMail).find((part) => part.headers['content-type']?.startsWith('application/pdf'));
    expect(pdfPart, 'the e-mail carries a PDF').toBeDefined();
    expect(pdfPart!.headers['content-disposition']).toContain(`filename=invoice-${invoiceNumber}.pdf`);
    const pdf = Buffer.from(pdfPart!.body.replace(/\s+/g, ''), 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The attachment parsed back: the invoice as issued.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'msg-pdf-')), 'invoice.pdf');
    writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain(`Invoice #${invoiceNumber}`);
    expect(text).toContain('Brake pads');
    expect(text).toContain('$89.50');
    expect(text).toContain('Erin Estimate');

    // The outbox shows both as sent, on the job, the invoice's file named.
    await expect
      .poll(
        async () => (await owner.get<MessagePage>(`${BASE}/messages?jobId=${jobId}`)).body.items.map((m) => `${m.kind}/${m.status}`).sort(),
        {
          timeout: 20_000,
        },
      )
      .toEqual(['estimate-sent/sent', 'invoice-issued/sent']);
    const invoiceMessage = (await owner.get<MessagePage>(`${BASE}/messages?jobId=${jobId}&customerId=${customerId}`)).body.items.find(
      (m) => m.kind === 'invoice-issued',
    )!;
    expect(invoiceMessage.attachments).toEqual([expect.stringMatching(/^invoice-\d+\.pdf$/)]);
  });

  test('messages name the shop and its phone as its documents do, unless a phone is set for messages', async () => {
    const settings = await owner.put(`${BASE}/settings`, { shopName: 'Ridge Auto', phone: '555-010-7777' });
    expect(settings.status, settings.text).toBe(200);
    const customerId = await customerWithEmail('Phil Phone', 'phil@example.test');
    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setUTCHours(15, 0, 0, 0);
    const job = await owner.post(`${BASE}/pipeline`, {
      name: 'Phil Phone',
      customerId,
      makeModel: '2014 Subaru Outback',
      appointment: at.toISOString(),
    });
    expect(job.status, job.text).toBe(201);
    const text = (mail: string) => decodeQuotedPrintable(mail);
    await expect.poll(() => mailsTo('phil@example.test').length, { timeout: 30_000 }).toBe(1);
    const confirmation = text(mailsTo('phil@example.test')[0]!);
    expect(confirmation).toContain('If you need to change it, just let us know.');
    expect(confirmation).toContain('555-010-7777');
    expect(confirmation).toContain('Ridge Auto');

    // A phone of its own for messages wins over the documents' one.
    const messaging = await owner.put(`${BASE}/message-templates`, { settings: { shopPhone: '555-010-9999' } });
    expect(messaging.status, messaging.text).toBe(200);
    const moved = await owner.patch(`${BASE}/pipeline/${job.body.id}/appointment`, {
      appointment: new Date(at.getTime() + 3_600_000).toISOString(),
    });
    expect(moved.status, moved.text).toBe(200);
    await expect.poll(() => mailsTo('phil@example.test').length, { timeout: 30_000 }).toBe(2);
    expect(text(mailsTo('phil@example.test')[1]!)).toContain('555-010-9999');
  });
});
