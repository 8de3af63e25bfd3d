import nodemailer from 'nodemailer';
import type { MessageChannel, MessageFailureCause } from '@crm/projections/messages';
import type { Config } from '../config.ts';

/** One message as a provider gets it. */
export interface OutgoingMessage {
  channel: MessageChannel;
  /** The attempt's idempotency key: the e-mail's Message-ID, the text's log name. */
  idempotencyKey: string;
  from: string;
  to: string;
  subject: string;
  body: string;
  attachments: Array<{ filename: string; content: Buffer; contentType: string }>;
  /** The unsubscribe link (e-mail's List-Unsubscribe header). */
  unsubscribeUrl: string | null;
}

export interface SendReceipt {
  providerMessageId: string;
  providerResponse: string;
}

/**
 * Why a provider did not take a message. `outcome`: `rejected` (the provider answered no:
 * nothing was delivered; `retryable` says whether trying later may help), `unreachable`
 * (no connection was made: nothing was delivered, try later), `uncertain` (the connection
 * broke after the message may have gone: never retried on its own, lest it arrive twice).
 * `failureCause` is the kind of failure staff are told about (the message's text is the operator's).
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    message: string,
    readonly outcome: 'rejected' | 'unreachable' | 'uncertain',
    readonly retryable: boolean,
    readonly failureCause: Exclude<MessageFailureCause, 'not-configured' | 'no-consent'> = causeOf(outcome, retryable),
  ) {
    super(message);
  }
}

function causeOf(outcome: TransportError['outcome'], retryable: boolean): TransportError['failureCause'] {
  if (outcome === 'rejected') return retryable ? 'deferred' : 'refused';
  return outcome;
}

/** The provider port: one adapter per channel. */
export interface MessageTransport {
  channel: MessageChannel;
  send(message: OutgoingMessage): Promise<SendReceipt>;
  close?(): void;
}

// ---- e-mail over SMTP ------------------------------------------------------------------------

/** Errors nodemailer raises before a connection carries anything: nothing was delivered. */
const SMTP_UNREACHABLE = new Set(['ECONNECTION', 'EDNS', 'ETLS', 'EAUTH', 'ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH']);

export function smtpTransport(smtpUrl: string): MessageTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    channel: 'email',
    async send(message) {
      try {
        const info = await transporter.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.body,
          // The attempt's key as the Message-ID: a receiving system that sees the same one twice knows it.
          messageId: `<${message.idempotencyKey}@crm.messages>`,
          // One-click unsubscribe (RFC 8058): the mail provider POSTs `List-Unsubscribe=One-Click`
          // to the link itself, without a session; the link's token is what authorizes it.
          headers: message.unsubscribeUrl
            ? { 'List-Unsubscribe': `<${message.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
            : {},
          attachments: message.attachments,
        });
        return { providerMessageId: info.messageId, providerResponse: info.response };
      } catch (error) {
        throw classifySmtpError(error);
      }
    },
    close: () => transporter.close(),
  };
}

export function classifySmtpError(error: unknown): TransportError {
  const e = error as { code?: string; responseCode?: number; response?: string; command?: string; message?: string };
  const text = e.response ?? e.message ?? String(error);
  // The server answered with a code: a refusal, delivered nowhere (4xx: try again later, 5xx: never).
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) {
    const retryable = e.responseCode < 500;
    // A permanent refusal of the envelope's recipient: the address itself is what was refused.
    const addressRefused = !retryable && (e.command === 'RCPT TO' || e.code === 'EENVELOPE');
    return new TransportError(`SMTP ${e.responseCode}: ${text}`, 'rejected', retryable, addressRefused ? 'address-rejected' : undefined);
  }
  if ((e.code && SMTP_UNREACHABLE.has(e.code)) || e.command === 'CONN') {
    return new TransportError(`SMTP server unreachable: ${text}`, 'unreachable', true);
  }
  return new TransportError(`SMTP connection broke off, delivery uncertain: ${text}`, 'uncertain', false);
}

// ---- text messages through Twilio's REST API ----------------------------------------------------

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  fromNumber: string;
  apiUrl: string;
}

/**
 * Twilio's error codes that refuse the recipient's number itself: not a valid phone number
 * (21211), not a number texts reach (21614), a region it cannot text (21408, 21612).
 */
const TWILIO_NUMBER_REFUSED = new Set([21211, 21408, 21612, 21614]);

/** Connection failures that happen before a request leaves: nothing was sent. */
const FETCH_UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', 'ENETUNREACH']);

/**
 * Twilio's Messages resource (POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form
 * encoded To, From, Body; HTTP basic auth with the account SID and auth token). It answers
 * 201 with the message's `sid`, or an error object `{ code, message, more_info, status }`.
 */
export function twilioTransport(settings: TwilioSettings, fetchImpl: typeof fetch = fetch): MessageTransport {
  const url = `${settings.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    channel: 'sms',
    async send(message) {
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ To: message.to, From: settings.fromNumber, Body: message.body }).toString(),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code && FETCH_UNREACHABLE.has(code)) throw new TransportError(`Twilio unreachable: ${code}`, 'unreachable', true);
        throw new TransportError(`Twilio request broke off, delivery uncertain: ${(error as Error).message}`, 'uncertain', false);
      }
      const text = await response.text().catch(() => '');
      let body: { sid?: unknown; status?: unknown; code?: unknown; message?: unknown } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        // not JSON: the text itself is the answer
      }
      if (response.ok && typeof body.sid === 'string') {
        return {
          providerMessageId: body.sid,
          providerResponse: `${response.status} ${typeof body.status === 'string' ? body.status : ''}`.trim(),
        };
      }
      const detail =
        typeof body.message === 'string' ? `${body.message}${body.code ? ` (code ${String(body.code)})` : ''}` : text.slice(0, 500);
      // Too many requests and server trouble pass; anything else the API refused stays refused.
      const retryable = response.status === 429 || response.status >= 500;
      const numberRefused = !retryable && typeof body.code === 'number' && TWILIO_NUMBER_REFUSED.has(body.code);
      throw new TransportError(
        `Twilio ${response.status}: ${detail}`,
        'rejected',
        retryable,
        numberRefused ? 'address-rejected' : undefined,
      );
    },
  };
}

/** The adapters this server is configured with; a channel without one records its messages as not sent. */
export function transportsFromConfig(config: Config): Partial<Record<MessageChannel, MessageTransport>> {
  const transports: Partial<Record<MessageChannel, MessageTransport>> = {};
  if (config.SMTP_URL) transports.email = smtpTransport(config.SMTP_URL);
  if (config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.TWILIO_FROM_NUMBER) {
    transports.sms = twilioTransport({
      accountSid: config.TWILIO_ACCOUNT_SID,
      authToken: config.TWILIO_AUTH_TOKEN,
      fromNumber: config.TWILIO_FROM_NUMBER,
      apiUrl: config.TWILIO_API_URL,
    });
  }
  return transports;
}

/** For whoever runs the server (the log): which settings would make a channel with no provider send. */
export const NOT_CONFIGURED_SETTINGS: Record<MessageChannel, string> = {
  email: 'no SMTP server is configured (SMTP_URL)',
  sms: 'no text-message provider is configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER)',
};
