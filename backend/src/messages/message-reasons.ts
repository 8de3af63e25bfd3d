import type { MessageChannel, MessageFailureCause } from '@crm/projections/messages';

/**
 * Why a message was not delivered, in the words of the shop's staff, who read it in the
 * outbox: what happened and what they can do. It follows from the kind of failure (decided
 * where the failure was classified: the provider's adapter or the sender) and whether the
 * sender still tries again; the provider's own answer and the server's settings are for
 * whoever runs the server, not for staff.
 */

const WORDS: Record<MessageChannel, { things: string; provider: string; message: string; address: string; consent: string }> = {
  email: { things: 'E-mail is', provider: 'the e-mail provider', message: 'e-mail', address: 'e-mail address', consent: 'e-mails' },
  sms: {
    things: 'Text messages are',
    provider: 'the text-message provider',
    message: 'text message',
    address: 'phone number',
    consent: 'text messages',
  },
};

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface UndeliveredMessage {
  channel: MessageChannel;
  cause: MessageFailureCause;
  to: string;
  /** Whether the sender tries it again on its own (a failure it has not given up on). */
  retrying: boolean;
}

export function reasonForStaff({ channel, cause, to, retrying }: UndeliveredMessage): string {
  const w = WORDS[channel];
  switch (cause) {
    case 'not-configured':
      return `${w.things} not set up for this shop — ask your administrator`;
    case 'no-consent':
      return `Not sent: the customer does not agree to ${w.consent} — retry once their consent is recorded`;
    case 'address-rejected':
      return `${capitalized(w.provider)} refused the ${w.address} ${to}: it may be mistyped or no longer in use — check it with the customer`;
    case 'refused':
      return `${capitalized(w.provider)} refused this ${w.message} — retry, or ask your administrator if it happens again`;
    case 'deferred':
      return retrying
        ? `${capitalized(w.provider)} asked to try later — it will be tried again on its own`
        : `${capitalized(w.provider)} kept turning it away after repeated tries — retry later, or ask your administrator`;
    case 'unreachable':
      return retrying
        ? `Could not reach ${w.provider} — it will be tried again on its own`
        : `Could not reach ${w.provider} after repeated tries — retry later, or ask your administrator`;
    case 'not-prepared':
      return retrying
        ? `Could not prepare the ${w.message} or its attachment — it will be tried again on its own`
        : `Could not prepare the ${w.message} or its attachment after repeated tries — ask your administrator`;
    case 'uncertain':
      return `The connection broke off while sending: it may have arrived, so it is not sent again on its own — ask the customer, and retry if it did not`;
    default: {
      const unexpected: never = cause;
      return unexpected;
    }
  }
}

/** The channel's "not set up" notice for the messages screen, null when every channel can send. */
export function notSetUpNotice(delivery: Record<MessageChannel, boolean>): string | null {
  const missing = (['email', 'sms'] as const).filter((channel) => !delivery[channel]);
  if (missing.length === 0) return null;
  const what = missing.length === 2 ? 'E-mail and text messages are' : WORDS[missing[0]!].things;
  return `${what} not set up for this shop — ask your administrator. Until then those messages are kept here as not sent, as they would have gone.`;
}
