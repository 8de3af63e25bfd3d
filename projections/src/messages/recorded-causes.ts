import type { Upcaster } from '../upcasters.ts';
import type { MessageFailureCause } from './kinds.ts';

/**
 * The kind of failure of a message failure recorded before failures carried one, from the
 * text the server wrote then (each prefix below is one it wrote). Null: none of those, shown
 * as recorded. Only the upcasters below and the migration that filled the outbox's old rows
 * read it (the migration a copy of its own): everything else reads `cause`.
 */
export function causeOfRecordedText(state: 'failed' | 'not-sent', text: string): MessageFailureCause | null {
  if (state === 'not-sent') {
    if (
      text.startsWith('Not sent: no SMTP server is configured') ||
      text.startsWith('Not sent: no text-message provider is configured') ||
      text.startsWith('E-mail is not set up for this shop') ||
      text.startsWith('Text messages are not set up for this shop')
    )
      return 'not-configured';
    if (text.startsWith('Not sent: the customer withdrew consent')) return 'no-consent';
    return null;
  }
  const refusal = /^(?:SMTP|Twilio) (\d{3})\b/.exec(text);
  if (refusal) {
    const status = Number(refusal[1]);
    const later = text.startsWith('SMTP') ? status < 500 : status === 429 || status >= 500;
    return later ? 'deferred' : 'refused';
  }
  if (text.startsWith('SMTP server unreachable') || text.startsWith('Twilio unreachable')) return 'unreachable';
  if (text.startsWith('Could not prepare the message')) return 'not-prepared';
  // The rest it wrote ("connection broke off", "request broke off", "Interrupted while sending", "Could not send").
  return 'uncertain';
}

/** Version 1 events without `cause` (recorded before failures carried one) get it from their text. */
function withCause(state: 'failed' | 'not-sent', textField: 'error' | 'reason'): Upcaster {
  return {
    from: 1,
    up(data) {
      const text = data[textField];
      if (data.cause !== undefined || typeof text !== 'string') return data;
      const cause = causeOfRecordedText(state, text);
      return cause ? { ...data, cause } : data;
    },
  };
}

export const messageFailureUpcasters = {
  MessageFailed: [withCause('failed', 'error')],
  MessageNotSent: [withCause('not-sent', 'reason')],
} as const;
