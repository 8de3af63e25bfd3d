/**
 * What the shop sends its customers: the kinds of message, the channels, their statuses,
 * the default wording of each kind and the placeholders a template may use. Browser-safe.
 */

export const MESSAGE_KINDS = [
  'service-request-received',
  'appointment-confirmation',
  'appointment-reminder',
  'estimate-sent',
  'ready-for-pickup',
  'invoice-issued',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  'service-request-received': 'Service request received',
  'appointment-confirmation': 'Appointment confirmation',
  'appointment-reminder': 'Appointment reminder',
  'estimate-sent': 'Estimate ready for approval',
  'ready-for-pickup': 'Ready for pickup',
  'invoice-issued': 'Invoice',
};

export const MESSAGE_CHANNELS = ['email', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_CHANNEL_LABELS: Record<MessageChannel, string> = { email: 'E-mail', sms: 'Text' };

/**
 * What the API tells about a message: `queued` (waiting, being sent or waiting for its next
 * try), `sent` (the provider took it), `failed` (with the provider's answer), `not-sent`
 * (deliberately not sent: no provider configured, no consent, superseded).
 */
export const MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'not-sent'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * Why a message was not delivered, as decided where the failure was classified (the provider's
 * adapter, the sender): `not-configured` (no provider for the channel on this server),
 * `no-consent` (the customer withdrew consent), `address-rejected` (the provider refused the
 * recipient's address or number), `refused` (the provider refused the message, for good),
 * `deferred` (the provider asked to try later), `unreachable` (no connection to the provider:
 * nothing was delivered), `not-prepared` (what goes with it, such as the invoice's PDF, could
 * not be made), `uncertain` (the connection broke off after the message may have gone, or the
 * sender stopped mid-attempt: never sent again on its own, lest it arrive twice).
 */
export const MESSAGE_FAILURE_CAUSES = [
  'not-configured',
  'no-consent',
  'address-rejected',
  'refused',
  'deferred',
  'unreachable',
  'not-prepared',
  'uncertain',
] as const;
export type MessageFailureCause = (typeof MESSAGE_FAILURE_CAUSES)[number];

/** How the sender may give up before a person retries: the tries a failing message gets. */
export const MESSAGE_MAX_ATTEMPTS = 5;

/** The placeholders a template may use, each with what it stands for. */
export const MESSAGE_PLACEHOLDERS = {
  'customer.name': "The customer's name",
  vehicle: 'The vehicle (make and model)',
  'job.number': 'The job number',
  appointment: "The appointment's date and time, in the shop's time zone",
  'shop.name': "The shop's name",
  'shop.phone': "The shop's phone",
  link: "The link that goes with the message (the estimate's approval page, the invoice)",
} as const;
export type MessagePlaceholder = keyof typeof MESSAGE_PLACEHOLDERS;
export type MessageValues = Record<MessagePlaceholder, string>;

export interface MessageTemplate {
  subject: string;
  emailBody: string;
  smsBody: string;
}

export const MESSAGE_TEMPLATE_LIMITS = { subject: 200, emailBody: 5000, smsBody: 640 } as const;

/**
 * A shop need not have a phone (none is asked for when it is created), so the defaults name
 * `{{shop.phone}}` only where an empty one leaves nothing behind: on a line of its own or at
 * a text's end, never inside a sentence ("Call us at  if …").
 */
export const DEFAULT_TEMPLATES: Record<MessageKind, MessageTemplate> = {
  'service-request-received': {
    subject: 'We received your service request',
    emailBody:
      'Hello {{customer.name}},\n\nThank you for your request about your {{vehicle}}. We will get back to you shortly.\n\n{{shop.name}}\n{{shop.phone}}',
    smsBody: '{{shop.name}}: we received your service request and will get back to you shortly.',
  },
  'appointment-confirmation': {
    subject: 'Your appointment on {{appointment}}',
    emailBody:
      'Hello {{customer.name}},\n\nYour appointment for your {{vehicle}} is booked for {{appointment}}.\nIf you need to change it, just let us know.\n\n{{shop.name}}\n{{shop.phone}}',
    smsBody: '{{shop.name}}: your appointment for your {{vehicle}} is on {{appointment}}. {{shop.phone}}',
  },
  'appointment-reminder': {
    subject: 'Reminder: your appointment tomorrow, {{appointment}}',
    emailBody:
      'Hello {{customer.name}},\n\nA reminder that we expect your {{vehicle}} on {{appointment}}.\n\n{{shop.name}}\n{{shop.phone}}',
    smsBody: '{{shop.name}}: reminder, your appointment is {{appointment}}. {{shop.phone}}',
  },
  'estimate-sent': {
    subject: 'Your estimate from {{shop.name}}',
    emailBody:
      'Hello {{customer.name}},\n\nThe estimate for your {{vehicle}} (job {{job.number}}) is ready. Review and approve it here:\n{{link}}\n\n{{shop.name}}\n{{shop.phone}}',
    smsBody: '{{shop.name}}: your estimate for your {{vehicle}} is ready: {{link}}',
  },
  'ready-for-pickup': {
    subject: 'Your {{vehicle}} is ready for pickup',
    emailBody: 'Hello {{customer.name}},\n\nGood news: your {{vehicle}} is ready for pickup.\n\n{{shop.name}}\n{{shop.phone}}',
    smsBody: '{{shop.name}}: your {{vehicle}} is ready for pickup. {{shop.phone}}',
  },
  'invoice-issued': {
    subject: 'Your invoice from {{shop.name}}',
    emailBody:
      'Hello {{customer.name}},\n\nThank you for your visit. Your invoice for job {{job.number}} is attached.\n{{link}}\n\n{{shop.name}}\n{{shop.phone}}',
    smsBody: '{{shop.name}}: your invoice for job {{job.number}} has been sent to your e-mail. {{link}}',
  },
};

const PLACEHOLDER = /\{\{\s*([a-z.]+)\s*\}\}/g;

const KNOWN_NAMES = Object.keys(MESSAGE_PLACEHOLDERS)
  .map((name) => name.replace('.', '\\.'))
  .join('|');

/**
 * A template's text: `{{` only ever opens one of MESSAGE_PLACEHOLDERS (`{{ name }}`, spaces
 * allowed inside; a single `{` is text). Anything else after `{{` (`{{__proto__}}`, `{{Customer.Name}}`, a
 * `{{` never closed) would be sent to the customer as written, so it is refused. The
 * document publishes this pattern and the server checks with it: one rule in both.
 */
export const TEMPLATE_TEXT_PATTERN = `^(?:[^{]|\\{[^{]|\\{\\{\\s*(?:${KNOWN_NAMES})\\s*\\}\\})*\\{?$`;

/** Where a `{{` does not open a known placeholder: that `{{` and what follows it, up to its `}}`. */
const NOT_A_PLACEHOLDER = new RegExp(`\\{\\{(?!\\s*(?:${KNOWN_NAMES})\\s*\\}\\})[^}]{0,40}(?:\\}\\})?`, 'g');

/** A template with its placeholders filled. */
export function renderTemplate(text: string, values: MessageValues): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as MessagePlaceholder] : whole));
}

/**
 * A text message as the customer gets it: the template filled, then how to opt out on a line of
 * its own (after a shop phone at the text's end, on the same line it read as part of the number).
 * The sender and the templates' preview both use it, so the preview shows what is sent.
 */
export function renderTextMessage(smsBody: string, values: MessageValues): string {
  return `${renderTemplate(smsBody, values)}\nReply STOP to opt out.`;
}

/** What in a text starts like a placeholder but is none of MESSAGE_PLACEHOLDERS, as written (`{{oops}}`). */
export function unknownPlaceholders(text: string): string[] {
  return [...new Set(text.match(NOT_A_PLACEHOLDER) ?? [])];
}

/** The placeholders a template may use, as a message lists them. */
export const PLACEHOLDER_LIST = Object.keys(MESSAGE_PLACEHOLDERS)
  .map((name) => `{{${name}}}`)
  .join(', ');

/** Sample values for the template editor's preview. */
export const SAMPLE_MESSAGE_VALUES: MessageValues = {
  'customer.name': 'Jane Doe',
  vehicle: '2019 Honda Civic',
  'job.number': '1042',
  appointment: 'Tue, Mar 14, 9:30 AM',
  'shop.name': 'Main Street Auto',
  'shop.phone': '555-010-2000',
  link: 'https://example.com/estimate/abc',
};

/** An appointment in words in the shop's zone: "Tue, Mar 14, 9:30 AM". */
export function formatAppointment(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** The hour (0–23) reminders go out the day before, unless the shop sets another. */
export const DEFAULT_REMINDER_HOUR = 10;
