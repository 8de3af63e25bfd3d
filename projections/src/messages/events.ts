import { z } from 'zod';
import { MESSAGE_CHANNELS, MESSAGE_FAILURE_CAUSES, MESSAGE_KINDS } from './kinds.ts';

export const MESSAGING_SETTING_FIELDS = ['fromAddress', 'shopPhone', 'reminderHour'] as const;
export const MESSAGE_TEMPLATE_FIELDS = ['subject', 'emailBody', 'smsBody'] as const;
/** Who withdrew or gave consent: staff on the customer form, a STOP/START text, the e-mail's unsubscribe link. */
export const CONSENT_SOURCES = ['staff', 'sms-reply', 'unsubscribe-link'] as const;

const messageId = z.string();
const attachment = z.object({ kind: z.literal('invoice-pdf'), invoiceId: z.string(), filename: z.string() });

/**
 * Customer messages (stream `message-{id}`), each shop's templates and messaging settings
 * (stream `messaging-{instanceId}`) and each customer's consent per channel (stream
 * `customerconsent-{customerId}`). Who and when live in the metadata.
 */
export const messageEventSchemas = {
  /**
   * A message to send: rendered when queued (what the outbox shows is what goes out), sent
   * from `sendAfter` on. Queued again after a cancellation when what it was for comes back
   * (an appointment moved back).
   */
  MessageQueued: z.object({
    messageId,
    instanceId: z.string(),
    kind: z.enum(MESSAGE_KINDS),
    channel: z.enum(MESSAGE_CHANNELS),
    to: z.string(),
    subject: z.string(),
    body: z.string(),
    attachments: z.array(attachment).default([]),
    jobId: z.string().nullable(),
    customerId: z.string().nullable(),
    serviceRequestId: z.string().nullable(),
    /** The event that caused it. */
    triggerEventId: z.string(),
    sendAfter: z.string(),
  }),
  /**
   * Recorded before the provider is called: the durable claim of one attempt. An attempt
   * with no outcome after it was interrupted (a crash) and is never repeated on its own.
   */
  MessageSendAttempted: z.object({ messageId, attempt: z.number().int().positive(), idempotencyKey: z.string() }),
  MessageSent: z.object({
    messageId,
    attempt: z.number().int().positive(),
    providerMessageId: z.string(),
    providerResponse: z.string(),
  }),
  /**
   * `retryable`: the sender tries again at `nextAttemptAt`; otherwise it waits for a person's
   * retry. `error`: the provider's answer or the server's account, for whoever runs the server;
   * `cause`: what kind of failure it was, which is what staff are told (absent in events
   * recorded before causes were).
   */
  MessageFailed: z.object({
    messageId,
    attempt: z.number().int().positive(),
    error: z.string(),
    retryable: z.boolean(),
    nextAttemptAt: z.string().nullable(),
    cause: z.enum(MESSAGE_FAILURE_CAUSES).optional(),
  }),
  /**
   * Deliberately not sent (no provider configured, no consent): the rendered message stays to
   * read. `reason` in words, `cause` as a kind (absent in events recorded before causes were).
   */
  MessageNotSent: z.object({ messageId, reason: z.string(), cause: z.enum(MESSAGE_FAILURE_CAUSES).optional() }),
  /** No longer due (the appointment moved or was canceled) before it was sent. */
  MessageCanceled: z.object({ messageId, reason: z.string() }),
  /** A person asked for another try of a failed or unsent message. */
  MessageRetryRequested: z.object({ messageId }),
  MessageTemplateChanged: z.object({
    instanceId: z.string(),
    kind: z.enum(MESSAGE_KINDS),
    changes: z.array(z.object({ field: z.enum(MESSAGE_TEMPLATE_FIELDS), oldValue: z.string(), newValue: z.string() })).min(1),
  }),
  MessagingSettingsChanged: z.object({
    instanceId: z.string(),
    changes: z
      .array(
        z.object({
          field: z.enum(MESSAGING_SETTING_FIELDS),
          oldValue: z.union([z.string(), z.number()]),
          newValue: z.union([z.string(), z.number()]),
        }),
      )
      .min(1),
  }),
  CustomerConsentChanged: z.object({
    customerId: z.string(),
    instanceId: z.string(),
    channel: z.enum(MESSAGE_CHANNELS),
    oldValue: z.boolean(),
    newValue: z.boolean(),
    source: z.enum(CONSENT_SOURCES),
  }),
};
