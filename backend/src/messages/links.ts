import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MessageChannel } from '@crm/projections/messages';
import type { Config } from '../config.ts';

/** Where customers reach this server: PUBLIC_URL, or the local address `npm start` prints. */
export function publicBaseUrl(config: Config): string {
  return config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
}

export const UNSUBSCRIBE_PATH = '/api/public/messages/unsubscribe';
export const SMS_INBOUND_PATH = '/api/public/messages/sms-inbound';

interface UnsubscribeClaim {
  instanceId: string;
  customerId: string;
  channel: MessageChannel;
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', `unsubscribe:${secret}`).update(payload).digest('base64url');
}

/**
 * The unsubscribe link's token: the customer and channel, signed with the server's secret
 * (no expiry: an old e-mail's link keeps working, and all it can do is withdraw consent).
 */
export function unsubscribeToken(secret: string, claim: UnsubscribeClaim): string {
  const payload = Buffer.from(`${claim.instanceId}.${claim.customerId}.${claim.channel}`).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

export function readUnsubscribeToken(secret: string, token: string): UnsubscribeClaim | null {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0 || token.length > 400) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const [instanceId, customerId, channel] = Buffer.from(payload, 'base64url').toString().split('.');
  if (!instanceId || !customerId || (channel !== 'email' && channel !== 'sms')) return null;
  return { instanceId, customerId, channel };
}

export function unsubscribeUrl(config: Config, claim: UnsubscribeClaim): string {
  return `${publicBaseUrl(config)}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(unsubscribeToken(config.sessionSecret, claim))}`;
}

/**
 * Twilio's request signature (X-Twilio-Signature): base64 HMAC-SHA1, keyed by the auth
 * token, of the full URL Twilio called followed by each POST parameter's name and value,
 * sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + params[key], url);
  return createHmac('sha1', authToken).update(data).digest('base64');
}

export function validTwilioSignature(authToken: string, url: string, params: Record<string, string>, given: string): boolean {
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A stored phone (digits) as E.164 for the provider: ten digits are a North American number. */
export function e164(digits: string): string | null {
  const only = digits.replace(/\D/g, '');
  if (only.length === 10) return `+1${only}`;
  if (only.length === 11 && only.startsWith('1')) return `+${only}`;
  if (only.length >= 8 && only.length <= 15) return `+${only}`;
  return null;
}
