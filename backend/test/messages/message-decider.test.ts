import { describe, expect, test } from 'vitest';
import {
  DEFAULT_TEMPLATES,
  renderTemplate,
  SAMPLE_MESSAGE_VALUES,
  TEMPLATE_TEXT_PATTERN,
  unknownPlaceholders,
} from '@crm/projections/messages';
import { consentDecider } from '../../src/messages/consent-decider.ts';
import { messageDecider, type MessageEvent, type QueuedMessage } from '../../src/messages/message-decider.ts';
import { messagingDecider } from '../../src/messages/messaging-decider.ts';
import { reminderTime } from '../../src/messages/outbox-reactor.ts';
import { classifySmtpError } from '../../src/messages/transports.ts';
import { e164, readUnsubscribeToken, twilioSignature, unsubscribeToken } from '../../src/messages/links.ts';
import { deciderSpec } from '../support/decider.ts';

const INSTANCE = '11111111-1111-4111-8111-111111111111';
const MESSAGE: QueuedMessage = {
  messageId: '22222222-2222-4222-8222-222222222222',
  instanceId: INSTANCE,
  kind: 'ready-for-pickup',
  channel: 'email',
  to: 'a@example.test',
  subject: 'Ready',
  body: 'Your car is ready',
  attachments: [],
  jobId: null,
  customerId: null,
  serviceRequestId: null,
  triggerEventId: 'e1',
  sendAfter: '2026-01-01T00:00:00.000Z',
};

/** Given these events, when this command: the events decided (or the error thrown). */
const given = deciderSpec(messageDecider);

const queued: MessageEvent = { type: 'MessageQueued', data: MESSAGE };
const attempt = (n: number): MessageEvent => ({
  type: 'MessageSendAttempted',
  data: { messageId: MESSAGE.messageId, attempt: n, idempotencyKey: `${MESSAGE.messageId}.${n}` },
});
const failed = (n: number, retryable: boolean): MessageEvent => ({
  type: 'MessageFailed',
  data: { messageId: MESSAGE.messageId, attempt: n, error: 'x', retryable, nextAttemptAt: retryable ? '2026-01-01T00:01:00.000Z' : null },
});

describe('message decider', () => {
  test('queuing is idempotent; a canceled message is queued afresh', () => {
    expect(given().when({ type: 'QueueMessage', message: MESSAGE })()).toEqual([queued]);
    expect(given(queued).when({ type: 'QueueMessage', message: MESSAGE })()).toEqual([]);
    expect(given(queued, attempt(1)).when({ type: 'QueueMessage', message: MESSAGE })()).toEqual([]);
    const canceled: MessageEvent = { type: 'MessageCanceled', data: { messageId: MESSAGE.messageId, reason: 'moved' } };
    expect(given(queued, canceled).when({ type: 'QueueMessage', message: MESSAGE })()).toEqual([queued]);
  });

  test('an attempt is claimed once, numbered on from every earlier one, with its own idempotency key', () => {
    expect(given(queued).when({ type: 'StartAttempt' })()).toEqual([attempt(1)]);
    expect(() => given(queued, attempt(1)).when({ type: 'StartAttempt' })()).toThrow('not waiting to be sent');
    expect(given(queued, attempt(1), failed(1, true)).when({ type: 'StartAttempt' })()).toEqual([attempt(2)]);
    expect(() => given(queued, attempt(1), failed(1, false)).when({ type: 'StartAttempt' })()).toThrow('not waiting');
    const retried: MessageEvent = { type: 'MessageRetryRequested', data: { messageId: MESSAGE.messageId } };
    expect(given(queued, attempt(1), failed(1, false), retried).when({ type: 'StartAttempt' })()).toEqual([attempt(2)]);
  });

  test('only the attempt in flight gets an outcome: one recorded as interrupted stays so', () => {
    const sent = { type: 'RecordSent', attempt: 1, providerMessageId: 'id', providerResponse: '250 OK' } as const;
    expect(given(queued, attempt(1)).when(sent)()).toEqual([
      { type: 'MessageSent', data: { messageId: MESSAGE.messageId, attempt: 1, providerMessageId: 'id', providerResponse: '250 OK' } },
    ]);
    expect(given(queued, attempt(1), failed(1, false)).when(sent)()).toEqual([]);
    expect(given(queued, attempt(1), attempt(2)).when(sent)()).toEqual([]);
  });

  test('a person retries only a failed or unsent message of their own instance', () => {
    expect(() => given(queued).when({ type: 'RequestRetry', instanceId: INSTANCE })()).toThrow('Only a failed or unsent message');
    expect(() => given(queued, attempt(1), failed(1, false)).when({ type: 'RequestRetry', instanceId: 'other' })()).toThrow(
      'Message not found',
    );
    const notSent: MessageEvent = { type: 'MessageNotSent', data: { messageId: MESSAGE.messageId, reason: 'no SMTP' } };
    expect(given(queued, notSent).when({ type: 'RequestRetry', instanceId: INSTANCE })()).toEqual([
      { type: 'MessageRetryRequested', data: { messageId: MESSAGE.messageId } },
    ]);
  });
});

describe('messaging settings, templates and consent', () => {
  test('only what changed is recorded, with old and new values', () => {
    const events = messagingDecider.decide(
      {
        type: 'ChangeMessaging',
        instanceId: INSTANCE,
        settings: { reminderHour: 10, fromAddress: 'desk@shop.test' },
        templates: [{ kind: 'ready-for-pickup', ...DEFAULT_TEMPLATES['ready-for-pickup'], smsBody: 'Come get it' }],
      },
      messagingDecider.initialState,
    );
    expect(events).toEqual([
      {
        type: 'MessagingSettingsChanged',
        data: { instanceId: INSTANCE, changes: [{ field: 'fromAddress', oldValue: '', newValue: 'desk@shop.test' }] },
      },
      {
        type: 'MessageTemplateChanged',
        data: {
          instanceId: INSTANCE,
          kind: 'ready-for-pickup',
          changes: [{ field: 'smsBody', oldValue: DEFAULT_TEMPLATES['ready-for-pickup'].smsBody, newValue: 'Come get it' }],
        },
      },
    ]);
  });

  test('consent starts withdrawn; a change records its source', () => {
    const command = {
      type: 'ChangeConsent',
      customerId: 'c1',
      instanceId: INSTANCE,
      consent: { email: true, sms: false },
      source: 'staff',
    } as const;
    expect(consentDecider.decide(command, consentDecider.initialState)).toEqual([
      {
        type: 'CustomerConsentChanged',
        data: { customerId: 'c1', instanceId: INSTANCE, channel: 'email', oldValue: false, newValue: true, source: 'staff' },
      },
    ]);
  });
});

describe('helpers', () => {
  test('templates render their placeholders and name unknown ones', () => {
    expect(renderTemplate('Hi {{customer.name}}, {{ vehicle }} at {{shop.name}} {{oops}}', SAMPLE_MESSAGE_VALUES)).toBe(
      'Hi Jane Doe, 2019 Honda Civic at Main Street Auto {{oops}}',
    );
    expect(unknownPlaceholders('{{link}} {{oops}} {{customer.nam}}')).toEqual(['{{oops}}', '{{customer.nam}}']);
  });

  test('a shop without a phone gets no gap where the phone would be in any default template', () => {
    const noPhone = { ...SAMPLE_MESSAGE_VALUES, 'shop.phone': '' };
    for (const [kind, template] of Object.entries(DEFAULT_TEMPLATES)) {
      for (const text of [template.subject, template.emailBody, template.smsBody]) {
        const rendered = renderTemplate(text, noPhone);
        // An empty phone inside a sentence leaves two spaces ("Call us at  if …") or a word with nothing after it.
        expect(rendered, kind).not.toMatch(/ {2}| \n|\b(?:at|Questions\?|call us on|call)\s*$/im);
      }
    }
  });

  test('only the documented placeholders are placeholders: any other {{ is named, and the published pattern says the same', () => {
    const pattern = new RegExp(TEMPLATE_TEXT_PATTERN, 'u');
    for (const text of [
      '{{__proto__}}',
      'Hi {{constructor}}',
      '{{Customer.Name}}',
      '{{ shop_name }}',
      'open {{ never closed',
      '{{{vehicle}}',
      '{{}}',
    ]) {
      expect(unknownPlaceholders(text), text).not.toEqual([]);
      expect(pattern.test(text), text).toBe(false);
    }
    expect(unknownPlaceholders('x {{__proto__}} y')).toEqual(['{{__proto__}}']);
    for (const text of ['Hi {{customer.name}}', '{{ vehicle }} on {{appointment}}', 'a { b } c {', 'no placeholders', '{{link}}}']) {
      expect(unknownPlaceholders(text), text).toEqual([]);
      expect(pattern.test(text), text).toBe(true);
    }
  });

  test("the reminder goes the day before at the shop's hour, in the shop's zone (across a daylight-saving change too)", () => {
    // 9:00 on Tuesday 2026-03-10 in Chicago (CDT since Sunday the 8th): reminder Monday 10:00 CDT = 15:00Z.
    expect(reminderTime('2026-03-10T14:00:00Z', 'America/Chicago', 10).toISOString()).toBe('2026-03-09T15:00:00.000Z');
    // 00:30 on the 2nd in Tokyo is still the 1st in UTC: the reminder is on the 1st, Tokyo time.
    expect(reminderTime('2026-05-01T15:30:00Z', 'Asia/Tokyo', 18).toISOString()).toBe('2026-05-01T09:00:00.000Z');
  });

  test('SMTP answers are sorted into refused (4xx retried, 5xx not), unreachable and uncertain', () => {
    expect(classifySmtpError({ responseCode: 450, response: '450 busy' })).toMatchObject({ outcome: 'rejected', retryable: true });
    expect(classifySmtpError({ responseCode: 550, response: '550 no' })).toMatchObject({ outcome: 'rejected', retryable: false });
    expect(classifySmtpError({ code: 'ECONNECTION', command: 'CONN', message: 'refused' })).toMatchObject({
      outcome: 'unreachable',
      retryable: true,
    });
    expect(classifySmtpError({ code: 'ETIMEDOUT', message: 'timeout' })).toMatchObject({ outcome: 'uncertain', retryable: false });
  });

  test("unsubscribe tokens are signed; Twilio's signature follows its documented recipe", () => {
    const token = unsubscribeToken('secret', { instanceId: INSTANCE, customerId: 'c1', channel: 'email' });
    expect(readUnsubscribeToken('secret', token)).toEqual({ instanceId: INSTANCE, customerId: 'c1', channel: 'email' });
    expect(readUnsubscribeToken('other-secret', token)).toBeNull();
    expect(readUnsubscribeToken('secret', `${token}x`)).toBeNull();
    // Twilio's documentation example (https://www.twilio.com/docs/usage/security#validating-requests).
    expect(
      twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', {
        CallSid: 'CA1234567890ABCDE',
        Caller: '+14158675310',
        Digits: '1234',
        From: '+14158675310',
        To: '+18005551212',
      }),
    ).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
    expect(e164('5552013344')).toBe('+15552013344');
    expect(e164('15552013344')).toBe('+15552013344');
    expect(e164('12')).toBeNull();
  });
});
