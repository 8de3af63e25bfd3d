import { z } from 'zod';
import { FILLED_TEXT_PATTERN, isBlankText } from '../shared/blank-text.ts';
import { emailDocument, isEmailAddress } from '../shared/email.ts';
import { queryParam, recordListParams, recordPageSchema } from '../shared/list-query.ts';
import { isUuidInput } from '../shared/schemas.ts';
import {
  MESSAGE_CHANNELS,
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
  MESSAGE_TEMPLATE_LIMITS,
  PLACEHOLDER_LIST,
  TEMPLATE_TEXT_PATTERN,
  unknownPlaceholders,
} from './kinds.ts';

/**
 * The messages' API contract: the outbox list, a retry, the shop's templates and settings,
 * a customer's consent. Browser-safe: zod only.
 */

export const MESSAGE_PAGE_SIZE = 50;
export const MESSAGE_PAGE_SIZE_MAX = 200;

export const MESSAGE_MESSAGES = {
  notFound: 'Message not found',
  notRetryable: 'Only a failed or unsent message can be retried',
  customerNotFound: 'Customer not found',
  fromAddressInvalid: 'From address must be an e-mail address such as shop@example.com',
} as const;

const uuidParam = (name: string) =>
  queryParam(name)
    .refine(isUuidInput, `${name} must be an id`)
    .transform((value) => value.toLowerCase())
    .meta({ type: 'string', format: 'uuid' })
    .optional();

const listParams = recordListParams({ searchMax: 200, pageSize: MESSAGE_PAGE_SIZE, pageSizeMax: MESSAGE_PAGE_SIZE_MAX });

/** The outbox's query string: by status, by job, by customer; newest first in keyset pages. */
export const messageListQuery = z.strictObject({
  status: queryParam('status')
    .refine(
      (value): value is (typeof MESSAGE_STATUSES)[number] => (MESSAGE_STATUSES as readonly string[]).includes(value),
      `status must be one of: ${MESSAGE_STATUSES.join(', ')}`,
    )
    .meta({ type: 'string', enum: [...MESSAGE_STATUSES] })
    .optional(),
  jobId: uuidParam('jobId'),
  customerId: uuidParam('customerId'),
  limit: listParams.limit,
  cursor: listParams.cursor,
});
export type MessageListQuery = z.output<typeof messageListQuery>;

export const messageViewSchema = z.object({
  id: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  channel: z.enum(MESSAGE_CHANNELS),
  /** The e-mail address or phone number it goes to. */
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  /** File names of what goes with it (the invoice's PDF). */
  attachments: z.array(z.string()),
  status: z.enum(MESSAGE_STATUSES),
  /**
   * Why it failed or was not sent, in words staff act on (what happened, what to do, whether it
   * is tried again); null for a message queued or sent.
   */
  reason: z.string().nullable(),
  /**
   * The provider's own answer or the server's account of the failure, for whoever runs the
   * server: given to the shop's admins only (null for other users, and when nothing failed).
   */
  detail: z.string().nullable(),
  /** Whether the sender tries it again on its own (at nextAttemptAt). */
  retrying: z.boolean(),
  attempts: z.number().int().nonnegative(),
  jobId: z.string().nullable(),
  customerId: z.string().nullable(),
  serviceRequestId: z.string().nullable(),
  queuedAt: z.string(),
  /** Not sent before this (a reminder waits for the day before the appointment). */
  sendAfter: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** The provider's id of the sent message. */
  providerMessageId: z.string().nullable(),
  updatedAt: z.string(),
});
export type MessageView = z.infer<typeof messageViewSchema>;

export const messagePageSchema = recordPageSchema(messageViewSchema);
export type MessagePage = z.infer<typeof messagePageSchema>;

// ---- templates and settings --------------------------------------------------------------

// A control character is what makes a second line (or a tab) in a header.
// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;
/** One line (no control character) with a non-space character, as the document states it. */
const ONE_LINE_FILLED_PATTERN = '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$';

const templateText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      const unknown = unknownPlaceholders(value);
      if (unknown.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `${label} uses unknown placeholders: ${unknown.join(', ')}. The placeholders are ${PLACEHOLDER_LIST}`,
        });
    });

export const messageTemplateInput = z.strictObject({
  kind: z.enum(MESSAGE_KINDS, { error: `kind must be one of: ${MESSAGE_KINDS.join(', ')}` }),
  // One line: a mail library folds a line break in a Subject header into a space, so a
  // subject saved with one would not be the subject sent.
  subject: templateText('Subject', MESSAGE_TEMPLATE_LIMITS.subject)
    .pipe(
      z
        .string()
        .trim()
        .min(1, 'Subject must not be empty')
        .refine((value) => !isBlankText(value), 'Subject must not be empty')
        .regex(ONE_LINE, 'Subject must be one line, without line breaks or tabs'),
    )
    .meta({
      type: 'string',
      pattern: undefined,
      allOf: [{ pattern: ONE_LINE_FILLED_PATTERN }, { pattern: FILLED_TEXT_PATTERN }, { pattern: TEMPLATE_TEXT_PATTERN }],
      maxLength: MESSAGE_TEMPLATE_LIMITS.subject,
    }),
  emailBody: templateText('E-mail text', MESSAGE_TEMPLATE_LIMITS.emailBody)
    .pipe(
      z
        .string()
        .trim()
        .min(1, 'E-mail text must not be empty')
        .refine((value) => !isBlankText(value), 'E-mail text must not be empty'),
    )
    .meta({
      type: 'string',
      pattern: undefined,
      allOf: [{ pattern: FILLED_TEXT_PATTERN }, { pattern: TEMPLATE_TEXT_PATTERN }],
      maxLength: MESSAGE_TEMPLATE_LIMITS.emailBody,
    }),
  smsBody: templateText('Text message', MESSAGE_TEMPLATE_LIMITS.smsBody)
    .pipe(
      z
        .string()
        .trim()
        .min(1, 'Text message must not be empty')
        .refine((value) => !isBlankText(value), 'Text message must not be empty'),
    )
    .meta({
      type: 'string',
      pattern: undefined,
      allOf: [{ pattern: FILLED_TEXT_PATTERN }, { pattern: TEMPLATE_TEXT_PATTERN }],
      maxLength: MESSAGE_TEMPLATE_LIMITS.smsBody,
    }),
});
export type MessageTemplateInput = z.output<typeof messageTemplateInput>;

export const messagingSettingsInput = z.strictObject({
  /** '' uses the server's default sender. */
  fromAddress: z
    .string({ error: 'From address must be text' })
    .trim()
    .max(254, 'From address must be at most 254 characters')
    // One plain address (see isEmailAddress): a list or a display name would send from another address than the one saved.
    .refine((value) => value === '' || isEmailAddress(value), MESSAGE_MESSAGES.fromAddressInvalid)
    // Text: an e-mail address, or '' for the server's default sender (not null).
    .meta({ type: undefined, maxLength: undefined, anyOf: [emailDocument(254), { const: '' }] })
    .optional(),
  shopPhone: z.string({ error: 'Shop phone must be text' }).trim().max(40, 'Shop phone must be at most 40 characters').optional(),
  reminderHour: z
    .number({ error: 'Reminder hour must be a whole number from 0 to 23' })
    .int('Reminder hour must be a whole number from 0 to 23')
    .min(0, 'Reminder hour must be a whole number from 0 to 23')
    .max(23, 'Reminder hour must be a whole number from 0 to 23')
    .optional(),
});
export type MessagingSettingsInput = z.output<typeof messagingSettingsInput>;

/** PUT /message-templates: the settings and templates sent; what is left out stays. */
export const messageTemplatesInput = z.strictObject({
  settings: messagingSettingsInput.optional(),
  templates: z
    .array(messageTemplateInput, { error: 'templates must be a list of templates, each with its kind' })
    .max(MESSAGE_KINDS.length, `templates must list at most ${MESSAGE_KINDS.length} templates, one per kind`)
    // Two versions of one kind: one would be saved and the other silently dropped.
    .superRefine((templates, ctx) => {
      templates.forEach((template, index) => {
        if (templates.findIndex((other) => other.kind === template.kind) !== index)
          ctx.addIssue({ code: 'custom', path: [index, 'kind'], message: `kind ${template.kind} is given more than once` });
      });
    })
    // JSON Schema has no "unique by a property"; the document states it as an extension.
    .meta({ 'x-unique-by': 'kind', description: 'Each kind at most once.' })
    .optional(),
});
export type MessageTemplatesInput = z.output<typeof messageTemplatesInput>;

export const messagingSettingsSchema = z.object({
  fromAddress: z.string(),
  shopPhone: z.string(),
  reminderHour: z.number().int().min(0).max(23),
});
export type MessagingSettings = z.infer<typeof messagingSettingsSchema>;

export const messageTemplateViewSchema = z.object({
  kind: z.enum(MESSAGE_KINDS),
  subject: z.string(),
  emailBody: z.string(),
  smsBody: z.string(),
  /** The built-in wording (the shop has not changed it). */
  isDefault: z.boolean(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type MessageTemplateView = z.infer<typeof messageTemplateViewSchema>;

export const messageTemplatesSchema = z.object({
  settings: messagingSettingsSchema,
  templates: z.array(messageTemplateViewSchema),
  /** Which channels can really send on this server (SMTP_URL, Twilio configured); the others are recorded as not sent. */
  delivery: z.object({ email: z.boolean(), sms: z.boolean() }),
  /** What staff are told while a channel cannot send (what it means and whom to ask); null when all can. */
  deliveryNotice: z.string().nullable(),
  /** The shop's name and time zone as the placeholders use them. */
  shopName: z.string(),
  timeZone: z.string(),
});
export type MessageTemplates = z.infer<typeof messageTemplatesSchema>;

// ---- consent -----------------------------------------------------------------------------

export const customerConsentInput = z.strictObject({
  emailConsent: z.boolean({ error: 'emailConsent must be true or false' }).optional(),
  smsConsent: z.boolean({ error: 'smsConsent must be true or false' }).optional(),
});
export type CustomerConsentInput = z.output<typeof customerConsentInput>;

const consentChange = z.object({ at: z.string(), by: z.string(), source: z.string() }).nullable();

export const customerConsentSchema = z.object({
  customerId: z.string(),
  emailConsent: z.boolean(),
  smsConsent: z.boolean(),
  /** Who changed each last, when and how (null: never recorded). */
  emailConsentChanged: consentChange,
  smsConsentChanged: consentChange,
});
export type CustomerConsent = z.infer<typeof customerConsentSchema>;
