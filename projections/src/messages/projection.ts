import { assertNever } from '../shared/never.ts';
import { DEFAULT_TEMPLATES } from './kinds.ts';
import { defineProjection } from '../runtime/projection.ts';

const SETTING_COLUMNS = { fromAddress: 'from_address', shopPhone: 'shop_phone', reminderHour: 'reminder_hour' } as const;
const TEMPLATE_COLUMNS = { subject: 'subject', emailBody: 'email_body', smsBody: 'sms_body' } as const;

/**
 * rm.messages (the outbox), rm.message_templates, rm.messaging_settings and
 * rm.customer_consent. A message's changes apply only over an older revision of its
 * stream, so a replayed event never moves a row backwards. Times are when the event store
 * recorded the events.
 */
export const messagesProjection = defineProjection({
  name: 'messages',
  eventTypes: [
    'MessageQueued',
    'MessageSendAttempted',
    'MessageSent',
    'MessageFailed',
    'MessageNotSent',
    'MessageCanceled',
    'MessageRetryRequested',
    'MessageTemplateChanged',
    'MessagingSettingsChanged',
    'CustomerConsentChanged',
  ],
  async apply(event, ctx) {
    const { table } = ctx;
    const at = event.recordedAt;
    const message = (id: string) => table('messages').where('id', id).andWhere('revision', '<', event.revision);
    const touched = { updated_at: at, revision: event.revision };
    switch (event.type) {
      case 'MessageQueued': {
        const d = event.data;
        const row = {
          id: d.messageId,
          instance_id: d.instanceId,
          kind: d.kind,
          channel: d.channel,
          to_address: d.to,
          subject: d.subject,
          body: d.body,
          attachments: JSON.stringify(d.attachments),
          state: 'queued',
          error: null,
          cause: null,
          retryable: false,
          attempts: 0,
          job_id: d.jobId,
          customer_id: d.customerId,
          service_request_id: d.serviceRequestId,
          created_at: at,
          send_after: d.sendAfter,
          last_attempt_at: null,
          next_attempt_at: null,
          sent_at: null,
          provider_message_id: null,
          ...touched,
        };
        // Queued again after a cancellation: the row starts over (still one row per message).
        await table('messages').insert(row).onConflict('id').merge().where('messages.revision', '<', event.revision);
        return;
      }
      case 'MessageSendAttempted':
        await message(event.data.messageId).update({
          state: 'sending',
          attempts: event.data.attempt,
          last_attempt_at: at,
          next_attempt_at: null,
          ...touched,
        });
        return;
      case 'MessageSent':
        await message(event.data.messageId).update({
          state: 'sent',
          error: null,
          cause: null,
          retryable: false,
          sent_at: at,
          provider_message_id: event.data.providerMessageId,
          ...touched,
        });
        return;
      case 'MessageFailed':
        await message(event.data.messageId).update({
          state: 'failed',
          error: event.data.error,
          cause: event.data.cause ?? null,
          retryable: event.data.retryable,
          next_attempt_at: event.data.nextAttemptAt,
          ...touched,
        });
        return;
      case 'MessageNotSent':
        await message(event.data.messageId).update({
          state: 'not-sent',
          error: event.data.reason,
          cause: event.data.cause ?? null,
          retryable: false,
          ...touched,
        });
        return;
      case 'MessageCanceled':
        await message(event.data.messageId).update({
          state: 'canceled',
          error: event.data.reason,
          cause: null,
          retryable: false,
          ...touched,
        });
        return;
      case 'MessageRetryRequested':
        await message(event.data.messageId).update({
          state: 'queued',
          error: null,
          cause: null,
          retryable: false,
          attempts: 0,
          send_after: at,
          next_attempt_at: null,
          ...touched,
        });
        return;
      case 'MessageTemplateChanged': {
        const d = event.data;
        const current = (await table('message_templates').where({ instance_id: d.instanceId, kind: d.kind }).first()) as
          Record<string, string> | undefined;
        // A kind's first change: the fields it did not change keep the built-in wording.
        const base = DEFAULT_TEMPLATES[d.kind];
        const row: Record<string, unknown> = {
          instance_id: d.instanceId,
          kind: d.kind,
          subject: current?.subject ?? base.subject,
          email_body: current?.email_body ?? base.emailBody,
          sms_body: current?.sms_body ?? base.smsBody,
          updated_at: at,
          updated_by: event.metadata.actor.displayName,
        };
        for (const change of d.changes) row[TEMPLATE_COLUMNS[change.field]] = change.newValue;
        await table('message_templates').insert(row).onConflict(['instance_id', 'kind']).merge();
        return;
      }
      case 'MessagingSettingsChanged': {
        const d = event.data;
        const row: Record<string, unknown> = { instance_id: d.instanceId };
        for (const change of d.changes) row[SETTING_COLUMNS[change.field]] = change.newValue;
        await table('messaging_settings')
          .insert(row)
          .onConflict('instance_id')
          .merge(Object.keys(row).filter((key) => key !== 'instance_id'));
        return;
      }
      case 'CustomerConsentChanged': {
        const d = event.data;
        const changed = JSON.stringify({ at: at.toISOString(), by: event.metadata.actor.displayName, source: d.source });
        const values =
          d.channel === 'email' ? { email_consent: d.newValue, email_changed: changed } : { sms_consent: d.newValue, sms_changed: changed };
        await table('customer_consent')
          .insert({ customer_id: d.customerId, instance_id: d.instanceId, ...values, revision: event.revision })
          .onConflict('customer_id')
          .merge([...Object.keys(values), 'revision'])
          .where('customer_consent.revision', '<', event.revision);
        return;
      }
      default:
        return assertNever(event, 'event');
    }
  },
});
