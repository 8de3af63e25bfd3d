import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MessagePage, MessageTemplates, MessageView } from '@crm/projections/messages';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestInstance, type TestServer } from '../support/server.ts';
import { startFakeTwilio, startSmtpServer } from './fakes.ts';

const TWILIO = { accountSid: `AC${'0123456789abcdef'.repeat(2)}`, authToken: 'twilio-auth-token-for-tests', from: '+15550100000' };
const PUBLIC_URL = 'https://crm.example.test';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let shop: TestInstance;
let owner: ApiClient;
let otherOwner: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio(TWILIO);
  server = await startTestServer({
    SMTP_URL: smtp.url,
    SMTP_FROM: 'crm@example.test',
    TWILIO_ACCOUNT_SID: TWILIO.accountSid,
    TWILIO_AUTH_TOKEN: TWILIO.authToken,
    TWILIO_FROM_NUMBER: TWILIO.from,
    TWILIO_API_URL: twilio.url,
    PUBLIC_URL,
    MESSAGE_RETRY_BASE_MS: '100',
  });
  shop = await createTestInstance(server, 'msgshop');
  await createTestInstance(server, 'msgother', { username: 'owner', pin: '4321' });
  owner = await signInUser(server, 'msgshop', 'owner', '1234');
  otherOwner = await signInUser(server, 'msgother', 'owner', '4321');
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await twilio?.stop();
});

const BASE = '/api/msgshop';

async function messages(client: ApiClient, query: string): Promise<MessageView[]> {
  const res = await client.get<MessagePage>(`${BASE}/messages?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

async function customerWithConsent(name: string, email: string, phone: string, consent = { emailConsent: true, smsConsent: true }) {
  const created = await owner.post(`${BASE}/customers`, { name, email, phone });
  expect(created.status, created.text).toBe(201);
  const res = await owner.put(`${BASE}/customers/${created.body.id}/consent`, consent);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ ...consent, customerId: created.body.id });
  return created.body.id as string;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
/** Headers unfolded (a long header continues on indented lines). */
const unfold = (raw: string) => raw.replace(/\r?\n[ \t]+/g, ' ');
const mailsTo = (address: string) =>
  smtp.mails.filter((mail) => mail.to.includes(address)).map((mail) => ({ ...mail, raw: unfold(mail.raw) }));
const textsTo = (phone: string) => twilio.requests.filter((r) => r.params.To === phone);

describe('messages from what happens', () => {
  test("a service request's e-mail arrives over SMTP", async () => {
    const res = await owner.post(`${BASE}/service-requests`, {
      customerName: 'Rita Request',
      contactEmail: 'rita@example.test',
      vehicleType: '2012 Ford Focus',
    });
    expect(res.status, res.text).toBe(201);
    await expect.poll(() => mailsTo('rita@example.test').length, { timeout: 20_000 }).toBe(1);
    const mail = mailsTo('rita@example.test')[0]!;
    expect(mail.from).toBe('crm@example.test');
    expect(mail.raw).toContain('Subject: We received your service request');
    expect(mail.raw).toContain('2012 Ford Focus');
    // The outcome is recorded just after the server took the mail: the list shows it soon.
    await expect
      .poll(async () => (await messages(owner, 'status=sent')).find((m) => m.to === 'rita@example.test'))
      .toMatchObject({ kind: 'service-request-received', channel: 'email', status: 'sent', reason: null, detail: null });
  });

  test('an appointment is confirmed by e-mail and text, a reminder waits for the day before; completion says ready for pickup', async () => {
    const customerId = await customerWithConsent('Carl Consent', 'carl@example.test', '555-201-3344');
    const job = await owner.post(`${BASE}/pipeline`, {
      name: 'Carl Consent',
      customerId,
      makeModel: '2018 Mazda 3',
      stage: 'Scheduled',
      appointment: inDays(3),
    });
    expect(job.status, job.text).toBe(201);
    await expect.poll(() => mailsTo('carl@example.test').length, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => textsTo('+15552013344').length, { timeout: 20_000 }).toBe(1);
    const mail = mailsTo('carl@example.test')[0]!;
    expect(mail.raw).toMatch(/Subject: Your appointment on/);
    expect(mail.raw).toContain('2018 Mazda 3');
    // Each attempt's own Message-ID, and the unsubscribe link in a header and the text.
    expect(mail.raw).toMatch(/Message-ID: <[0-9a-f-]{36}\.1@crm\.messages>/i);
    expect(mail.raw).toContain(`List-Unsubscribe: <${PUBLIC_URL}/api/public/messages/unsubscribe?token=`);
    const text = textsTo('+15552013344')[0]!;
    expect(text.params).toMatchObject({ From: TWILIO.from });
    expect(text.params.Body).toContain('Reply STOP to opt out.');

    await expect
      .poll(async () => (await messages(owner, `jobId=${job.body.id}`)).map((m) => `${m.kind}/${m.channel}/${m.status}`).sort(), {
        timeout: 20_000,
      })
      .toEqual([
        'appointment-confirmation/email/sent',
        'appointment-confirmation/sms/sent',
        'appointment-reminder/email/queued',
        'appointment-reminder/sms/queued',
      ]);
    const reminder = (await messages(owner, `jobId=${job.body.id}`)).find((m) => m.kind === 'appointment-reminder')!;
    // The day before, at the shop's reminder hour (10:00 unless set) in its zone.
    expect(new Date(reminder.sendAfter).getTime()).toBeLessThan(new Date(job.body.appointment).getTime());
    expect(new Date(reminder.sendAfter).getTime()).toBeGreaterThan(Date.now());
    expect(reminder.customerId).toBe(customerId);

    // Moving the appointment: a new confirmation, the old reminder not sent.
    const moved = await owner.patch(`${BASE}/pipeline/${job.body.id}/appointment`, { appointment: inDays(4) });
    expect(moved.status, moved.text).toBe(200);
    await expect.poll(() => mailsTo('carl@example.test').length, { timeout: 20_000 }).toBe(2);
    await expect
      .poll(
        async () =>
          (await messages(owner, `jobId=${job.body.id}`))
            .filter((m) => m.kind === 'appointment-reminder')
            .map((m) => m.status)
            .sort(),
        {
          timeout: 20_000,
        },
      )
      .toEqual(['not-sent', 'not-sent', 'queued', 'queued']);

    // Done before the appointment: its reminder is not sent either.
    const done = await owner.patch(`${BASE}/pipeline/${job.body.id}/stage`, { stage: 'Completed' });
    expect(done.status, done.text).toBe(200);
    await expect
      .poll(
        async () => (await messages(owner, `jobId=${job.body.id}`)).filter((m) => m.kind === 'appointment-reminder').map((m) => m.status),
        { timeout: 20_000 },
      )
      .toEqual(['not-sent', 'not-sent', 'not-sent', 'not-sent']);
    await expect.poll(() => mailsTo('carl@example.test').some((m) => /ready for pickup/.test(m.raw)), { timeout: 20_000 }).toBe(true);
    await expect
      .poll(() => textsTo('+15552013344').some((r) => /ready for pickup/.test(r.params.Body ?? '')), { timeout: 20_000 })
      .toBe(true);
    // The customer's tab shows the same messages.
    expect((await messages(owner, `customerId=${customerId}`)).length).toBeGreaterThanOrEqual(6);
  });

  test('a reminder canceled by the work being done is due again when the job is taken back, canceled and reopened alike', async () => {
    const customerId = await customerWithConsent('Rita Return', 'rita@example.test', '555-201-7788');
    const job = await owner.post(`${BASE}/pipeline`, { name: 'Rita Return', customerId, stage: 'Scheduled', appointment: inDays(3) });
    expect(job.status, job.text).toBe(201);
    const reminders = async () =>
      (await messages(owner, `jobId=${job.body.id}`))
        .filter((m) => m.kind === 'appointment-reminder')
        .map((m) => `${m.status}@${m.sendAfter}`)
        .sort();
    await expect.poll(reminders, { timeout: 20_000 }).toHaveLength(2);
    const due = await reminders();
    expect(due.every((r) => r.startsWith('queued@'))).toBe(true);

    expect((await owner.patch(`${BASE}/pipeline/${job.body.id}/stage`, { stage: 'Completed' })).status).toBe(200);
    await expect.poll(async () => (await reminders()).filter((r) => r.startsWith('queued@')), { timeout: 20_000 }).toEqual([]);
    // Taken back before the appointment: the same reminders, at the same time, wait again.
    expect((await owner.patch(`${BASE}/pipeline/${job.body.id}/stage`, { stage: 'In Progress' })).status).toBe(200);
    await expect.poll(reminders, { timeout: 20_000 }).toEqual(due);

    expect((await owner.post(`${BASE}/pipeline/${job.body.id}/cancel`, {})).status).toBe(200);
    await expect.poll(async () => (await reminders()).filter((r) => r.startsWith('queued@')), { timeout: 20_000 }).toEqual([]);
    expect((await owner.post(`${BASE}/pipeline/${job.body.id}/reopen`, {})).status).toBe(200);
    await expect.poll(reminders, { timeout: 20_000 }).toEqual(due);
  }, 120_000);

  test('a customer without consent gets nothing; one with e-mail consent only gets no texts', async () => {
    const none = await owner.post(`${BASE}/customers`, { name: 'Nora None', email: 'nora@example.test', phone: '555-201-0001' });
    const emailOnly = await customerWithConsent('Erin Email', 'erin@example.test', '555-201-0002', {
      emailConsent: true,
      smsConsent: false,
    });
    for (const customerId of [none.body.id as string, emailOnly]) {
      const job = await owner.post(`${BASE}/pipeline`, { name: 'x', customerId, stage: 'Scheduled', appointment: inDays(2) });
      expect(job.status, job.text).toBe(201);
    }
    await expect.poll(() => mailsTo('erin@example.test').length, { timeout: 20_000 }).toBe(1);
    expect(mailsTo('nora@example.test')).toEqual([]);
    expect(textsTo('+15552010001')).toEqual([]);
    expect(textsTo('+15552010002')).toEqual([]);
    expect(await messages(owner, `customerId=${none.body.id}`)).toEqual([]);
  });
});

describe('failures and retries', () => {
  test("an SMTP server refusing the recipient: staff read that the address was refused, admins also the server's answer; not retried; a person's retry sends it", async () => {
    smtp.rejected.add('bounce@example.test');
    const res = await owner.post(`${BASE}/service-requests`, { customerName: 'Bo Bounce', contactEmail: 'bounce@example.test' });
    expect(res.status).toBe(201);
    let failed: MessageView | undefined;
    await expect
      .poll(async () => (failed = (await messages(owner, 'status=failed')).find((m) => m.to === 'bounce@example.test')), {
        timeout: 20_000,
      })
      .toBeDefined();
    expect(failed!.reason).toBe(
      'The e-mail provider refused the e-mail address bounce@example.test: it may be mistyped or no longer in use — check it with the customer',
    );
    expect(failed!.detail).toMatch(/^SMTP 550: .*No such mailbox here/);
    expect(failed!.retrying).toBe(false);
    // A user who is not an admin reads the same reason, and not the server's answer.
    expect((await owner.post(`${BASE}/admin/users`, { username: 'reader', pin: '2468', displayName: 'Reader' })).status).toBe(201);
    const reader = await signInUser(server, 'msgshop', 'reader', '2468');
    const seenByReader = (await messages(reader, 'status=failed')).find((m) => m.id === failed!.id);
    expect(seenByReader).toMatchObject({ reason: failed!.reason, detail: null });

    expect((await owner.post(`${BASE}/messages/${failed!.id}/retry`)).status).toBe(200);
    // Still refused: failed again, with the answer.
    await expect
      .poll(async () => (await messages(owner, 'status=failed')).find((m) => m.id === failed!.id)?.attempts, { timeout: 20_000 })
      .toBe(2);
    smtp.rejected.delete('bounce@example.test');
    const retried = await owner.post(`${BASE}/messages/${failed!.id}/retry`);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.status).toBe('queued');
    await expect.poll(() => mailsTo('bounce@example.test').length, { timeout: 20_000 }).toBe(1);
    // A sent message is not retried.
    await expect.poll(async () => (await owner.post(`${BASE}/messages/${failed!.id}/retry`)).status, { timeout: 20_000 }).toBe(409);
  });

  test("Twilio's 503 is retried with backoff until it goes through", async () => {
    const customerId = await customerWithConsent('Tia Text', '', '555-201-7777', { emailConsent: false, smsConsent: true });
    twilio.failNext(503, 503);
    const job = await owner.post(`${BASE}/pipeline`, { name: 'Tia Text', customerId, stage: 'Scheduled', appointment: inDays(5) });
    expect(job.status).toBe(201);
    await expect.poll(() => textsTo('+15552017777').length, { timeout: 30_000 }).toBe(3);
    const confirmation = (await messages(owner, `jobId=${job.body.id}`)).find((m) => m.kind === 'appointment-confirmation')!;
    await expect
      .poll(async () => (await messages(owner, `jobId=${job.body.id}`)).find((m) => m.id === confirmation.id)?.status)
      .toBe('sent');
    const sent = (await messages(owner, `jobId=${job.body.id}`)).find((m) => m.id === confirmation.id)!;
    expect(sent).toMatchObject({ attempts: 3, providerMessageId: expect.stringMatching(/^SM/) });
  });
});

describe('templates and settings', () => {
  test('defaults are listed; an admin changes a template and the from address, and the next message uses them', async () => {
    const initial = await owner.get<MessageTemplates>(`${BASE}/message-templates`);
    expect(initial.status).toBe(200);
    expect(initial.body.delivery).toEqual({ email: true, sms: true });
    expect(initial.body.templates.find((t) => t.kind === 'service-request-received')).toMatchObject({ isDefault: true });

    const bad = await owner.put(`${BASE}/message-templates`, {
      templates: [{ kind: 'ready-for-pickup', subject: 'Hi {{nope}}', emailBody: 'x', smsBody: 'y' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('nope');
    // Only the documented placeholders: a name that is not one (an object's own key included) is named.
    for (const subject of ['{{__proto__}}', 'Hi {{constructor}}', '{{Customer.Name}}']) {
      const refused = await owner.put(`${BASE}/message-templates`, {
        templates: [{ kind: 'ready-for-pickup', subject, emailBody: 'x', smsBody: 'y' }],
      });
      expect(refused.status, subject).toBe(400);
      expect(refused.body.detail).toContain(subject.slice(subject.indexOf('{{')));
      expect(refused.body.detail).toContain('The placeholders are {{customer.name}}');
      expect(refused.body.errors).toContainEqual({ field: 'templates.0.subject', message: refused.body.detail });
    }
    expect((await owner.put(`${BASE}/message-templates`, { settings: { reminderHour: 24 } })).status).toBe(400);
    expect((await owner.put(`${BASE}/message-templates`, { settings: { fromAddress: 'not an address' } })).status).toBe(400);
    // A list or a quoted name is not one address: the mail library would send from another one than saved.
    for (const fromAddress of ['a,b@x.test', 'a;b@x.test', '"desk"@x.test', 'desk@x.test (Desk)']) {
      const refused = await owner.put(`${BASE}/message-templates`, { settings: { fromAddress } });
      expect(refused.status, fromAddress).toBe(400);
      expect(refused.body.errors[0].field).toBe('settings.fromAddress');
    }
    // One kind twice: one version would be saved and the other dropped without a word.
    const twice = await owner.put(`${BASE}/message-templates`, {
      templates: [
        { kind: 'ready-for-pickup', subject: 'First', emailBody: 'x', smsBody: 'y' },
        { kind: 'ready-for-pickup', subject: 'Second', emailBody: 'x', smsBody: 'y' },
      ],
    });
    expect(twice.status, twice.text).toBe(400);
    expect(twice.body.errors[0].field).toBe('templates.1.kind');
    expect(
      (await owner.get<MessageTemplates>(`${BASE}/message-templates`)).body.templates.find((t) => t.kind === 'ready-for-pickup'),
    ).toMatchObject({ isDefault: true });
    expect((await owner.put(`${BASE}/message-templates`, { surprise: true })).status).toBe(400);

    const res = await owner.put(`${BASE}/message-templates`, {
      settings: { fromAddress: 'desk@msgshop.test', shopPhone: '555-010-9999', reminderHour: 8 },
      templates: [
        {
          kind: 'service-request-received',
          subject: 'Thanks {{customer.name}} from {{shop.name}}',
          emailBody: 'Call {{shop.phone}}',
          smsBody: 'ok',
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.settings).toEqual({ fromAddress: 'desk@msgshop.test', shopPhone: '555-010-9999', reminderHour: 8 });
    expect(res.body.templates.find((t: { kind: string }) => t.kind === 'service-request-received')).toMatchObject({
      isDefault: false,
      updatedBy: 'Owner',
    });
    // Read back.
    expect((await owner.get(`${BASE}/message-templates`)).body.settings.reminderHour).toBe(8);

    await owner.post(`${BASE}/service-requests`, { customerName: 'Tom Template', contactEmail: 'tom@example.test' });
    await expect.poll(() => mailsTo('tom@example.test').length, { timeout: 20_000 }).toBe(1);
    const mail = mailsTo('tom@example.test')[0]!;
    expect(mail.from).toBe('desk@msgshop.test');
    expect(mail.raw).toContain('Subject: Thanks Tom Template from msgshop Auto');
    expect(mail.raw).toContain('Call 555-010-9999');
  });

  test('only admins change templates', async () => {
    const users = await owner.post(`${BASE}/admin/users`, { username: 'clerk', displayName: 'Clerk', pin: '5678', role: 'user' });
    expect([200, 201]).toContain(users.status);
    const clerk = await signInUser(server, 'msgshop', 'clerk', '5678');
    expect((await clerk.get(`${BASE}/message-templates`)).status).toBe(200);
    expect((await clerk.put(`${BASE}/message-templates`, { settings: { reminderHour: 9 } })).status).toBe(403);
  });
});

describe('consent withdrawn by the customer', () => {
  test("the e-mail's unsubscribe link withdraws e-mail consent", async () => {
    const customerId = await customerWithConsent('Uma Unsub', 'uma@example.test', '555-201-8888');
    await owner.post(`${BASE}/service-requests`, { customerName: 'x', contactEmail: 'noise@example.test' });
    const job = await owner.post(`${BASE}/pipeline`, { name: 'Uma Unsub', customerId, stage: 'Scheduled', appointment: inDays(3) });
    expect(job.status).toBe(201);
    await expect.poll(() => mailsTo('uma@example.test').length, { timeout: 20_000 }).toBe(1);
    const link = /List-Unsubscribe: <([^>]+)>/.exec(mailsTo('uma@example.test')[0]!.raw)![1]!;
    const path = link.slice(PUBLIC_URL.length);
    const pageRes = await fetch(server.url + path);
    expect(pageRes.status).toBe(200);
    expect(await pageRes.text()).toContain('Unsubscribe');
    // A plain form post, as the page's button sends it (no session, no custom header).
    const done = await fetch(server.url + path, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('no more e-mails from msgshop Auto');
    const consent = await owner.get(`${BASE}/customers/${customerId}/consent`);
    expect(consent.body).toMatchObject({
      emailConsent: false,
      smsConsent: true,
      emailConsentChanged: { by: 'Unsubscribe link', source: 'unsubscribe-link' },
    });
    expect((await fetch(server.url + path.replace(/token=[^&]+/, 'token=forged.token'), { method: 'POST' })).status).toBe(404);
  });

  test('one-click unsubscribe: the e-mail names the POST, and a POST to its link without a session records the opt-out', async () => {
    const customerId = await customerWithConsent('Olive Oneclick', 'olive@example.test', '555-201-7777');
    const job = await owner.post(`${BASE}/pipeline`, { name: 'Olive Oneclick', customerId, stage: 'Scheduled', appointment: inDays(3) });
    expect(job.status, job.text).toBe(201);
    await expect.poll(() => mailsTo('olive@example.test').length, { timeout: 20_000 }).toBe(1);
    // What arrived at the SMTP server: the link and, beside it, that one POST to it unsubscribes (RFC 8058).
    const raw = mailsTo('olive@example.test')[0]!.raw;
    const link = /^List-Unsubscribe: <([^>]+)>\r?$/m.exec(raw)?.[1];
    expect(link, raw).toMatch(new RegExp(`^${PUBLIC_URL}/api/public/messages/unsubscribe\\?token=`));
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

    // The mail provider's POST: a form body, no cookie, no cross-site header, no Origin.
    const oneClick = await fetch(server.url + link!.slice(PUBLIC_URL.length), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status, await oneClick.clone().text()).toBe(200);
    const consent = await owner.get(`${BASE}/customers/${customerId}/consent`);
    expect(consent.body).toMatchObject({
      emailConsent: false,
      smsConsent: true,
      emailConsentChanged: { by: 'Unsubscribe link', source: 'unsubscribe-link' },
    });
    expect((await owner.get(`${BASE}/customers/${customerId}`)).body).toMatchObject({ emailConsent: false, smsConsent: true });

    // The opt-out holds: the moved appointment's confirmation goes out by text only.
    const moved = await owner.patch(`${BASE}/pipeline/${job.body.id}/appointment`, { appointment: inDays(4) });
    expect(moved.status, moved.text).toBe(200);
    // A job's message goes out on every consented channel at once: once the move's text is
    // queued, an e-mail would be too.
    const confirmations = async (channel: 'email' | 'sms') =>
      (await messages(owner, `jobId=${job.body.id}`)).filter((m) => m.channel === channel && m.kind !== 'appointment-reminder');
    await expect.poll(async () => (await confirmations('sms')).length, { timeout: 20_000 }).toBe(2);
    expect((await confirmations('email')).map((m) => m.status)).toEqual(['sent']);
    expect(mailsTo('olive@example.test')).toHaveLength(1);
  });

  test('STOP from a phone, signed by Twilio, withdraws text consent; a bad signature is refused', async () => {
    const customerId = await customerWithConsent('Sam Stop', 'sam@example.test', '555-201-9999');
    const params = { From: '+15552019999', To: TWILIO.from, Body: ' stop ', MessageSid: 'SM123' };
    const url = `${PUBLIC_URL}/api/public/messages/sms-inbound`;
    const signature = createHmac('sha1', TWILIO.authToken)
      .update(
        Object.keys(params)
          .sort()
          .reduce((text, key) => text + key + params[key as keyof typeof params], url),
      )
      .digest('base64');
    const post = (sig: string) =>
      fetch(`${server.url}/api/public/messages/sms-inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': sig },
        body: new URLSearchParams(params).toString(),
      });
    expect((await post('forged')).status).toBe(403);
    expect((await owner.get(`${BASE}/customers/${customerId}/consent`)).body.smsConsent).toBe(true);
    const ok = await post(signature);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('<Response>');
    await expect
      .poll(async () => (await owner.get(`${BASE}/customers/${customerId}/consent`)).body)
      .toMatchObject({ smsConsent: false, emailConsent: true, smsConsentChanged: { source: 'sms-reply' } });
  });
});

describe('tenants and input', () => {
  test("another shop sees none of this shop's messages and cannot retry them", async () => {
    const mine = await messages(owner, '');
    expect(mine.length).toBeGreaterThan(0);
    const theirs = await otherOwner.get('/api/msgother/messages');
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
    expect((await otherOwner.post(`/api/msgother/messages/${mine[0]!.id}/retry`)).status).toBe(404);
    expect((await otherOwner.get(`${BASE}/messages`)).status).toBe(404);
    const customer = mine.find((m) => m.customerId)!;
    expect((await otherOwner.get(`/api/msgother/customers/${customer.customerId}/consent`)).status).toBe(404);
    expect((await otherOwner.put(`/api/msgother/customers/${customer.customerId}/consent`, { smsConsent: true })).status).toBe(404);
  });

  test('bad filters and bodies are 400s naming the field', async () => {
    const status = await owner.get(`${BASE}/messages?status=lost`);
    expect(status.status).toBe(400);
    expect(status.text).toContain('status must be one of');
    expect((await owner.get(`${BASE}/messages?jobId=nope`)).status).toBe(400);
    expect((await owner.get(`${BASE}/messages?color=red`)).status).toBe(400);
    expect((await owner.post(`${BASE}/messages/not-an-id/retry`)).status).toBe(404);
    const customer = await owner.post(`${BASE}/customers`, { name: 'Vic Valid' });
    const consent = await owner.put(`${BASE}/customers/${customer.body.id}/consent`, { emailConsent: 'yes' });
    expect(consent.status).toBe(400);
    expect(consent.text).toContain('emailConsent');
    expect(shop.id).toBeTruthy();
  });
});

describe('the customer record', () => {
  test('carries the consent per channel as it is now; another shop sees neither the customer nor its consent', async () => {
    const created = await owner.post(`${BASE}/customers`, { name: 'Rhea Record', email: 'rhea@example.test', phone: '555-201-0099' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    // Nothing recorded yet: no consent on either channel.
    expect((await owner.get(`${BASE}/customers/${id}`)).body).toMatchObject({
      id,
      name: 'Rhea Record',
      emailConsent: false,
      smsConsent: false,
    });

    expect((await owner.put(`${BASE}/customers/${id}/consent`, { emailConsent: true, smsConsent: false })).status).toBe(200);
    const given = await owner.get(`${BASE}/customers/${id}`);
    expect(given.status, given.text).toBe(200);
    expect(given.body).toMatchObject({ id, emailConsent: true, smsConsent: false });

    expect((await owner.put(`${BASE}/customers/${id}/consent`, { emailConsent: false, smsConsent: true })).status).toBe(200);
    expect((await owner.get(`${BASE}/customers/${id}`)).body).toMatchObject({ emailConsent: false, smsConsent: true });

    // As it was at a moment: consent is kept as it is now, so the past record has none.
    const then = await owner.get(`${BASE}/customers/${id}?asOf=${encodeURIComponent(new Date().toISOString())}`);
    expect(then.status, then.text).toBe(200);
    expect(then.body).toMatchObject({ id, name: 'Rhea Record' });
    expect(then.body).not.toHaveProperty('emailConsent');

    // Another shop: the customer, its consent and its record are not there.
    expect((await otherOwner.get(`/api/msgother/customers/${id}`)).status).toBe(404);
    expect((await otherOwner.get(`/api/msgother/customers/${id}/consent`)).status).toBe(404);
    expect((await otherOwner.put(`/api/msgother/customers/${id}/consent`, { emailConsent: true, smsConsent: true })).status).toBe(404);
    expect((await owner.get(`${BASE}/customers/${id}`)).body).toMatchObject({ emailConsent: false, smsConsent: true });
  });
});
