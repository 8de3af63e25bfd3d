import { z } from 'zod';

/**
 * Phones, one definition for customers and jobs alike: stored as digits only, shown
 * XXX-XXX-XXXX (a 7-digit local number XXX-XXXX), masked to the last 4 digits in lists. Browser-safe: zod only.
 */

export const PHONE_MAX_DIGITS = 10;

export const PHONE_MESSAGES = {
  tooLong: 'Phone number must be at most 10 digits',
  notDigits: 'Phone number must contain only digits',
} as const;

/** Digits only: what is stored and searched. */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** Digit counts that have a grouping: a number with its area code, and a local one without. */
const GROUPED_LENGTHS = [10, 7];

/** XXX-XXX-XXXX for 10 digits, XXX-XXXX for a 7-digit local number; otherwise the digits as they are. */
export function formatPhone(value: string): string {
  const digits = phoneDigits(value);
  if (digits.length === 10) return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
  return digits.length === 7 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : digits;
}

/** Lists show the last 4 digits only: '•••-•••-1234'. Empty stays empty. */
export function maskPhone(value: string): string {
  const digits = phoneDigits(value);
  return digits ? `•••-•••-${digits.slice(-4)}` : '';
}

/** What a typed phone may hold besides digits: the usual separators. */
const PHONE_CHARACTERS = /^[\d\s().+-]*$/;

/**
 * A phone as lists, cards and logs show it: grouped as formatPhone groups it (ten digits 3-3-4,
 * seven 3-4), otherwise as it came (a masked '•••-•••-1234' stays masked).
 */
export function displayPhone(value: string): string {
  return PHONE_CHARACTERS.test(value) && GROUPED_LENGTHS.includes(phoneDigits(value).length) ? formatPhone(value) : value;
}

/** The entry dialog's phone box: digits only, grouped 3-3-4 with dashes as they are typed, at most 10. */
export function formatPhoneAsTyped(value: string): string {
  const digits = phoneDigits(value).slice(0, 10);
  if (digits.length <= 3) return digits;
  if (digits.length <= 6) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

export type PhoneResult = { ok: true; digits: string } | { ok: false; message: string };

export function normalizePhone(value: string): PhoneResult {
  if (!PHONE_CHARACTERS.test(value)) return { ok: false, message: PHONE_MESSAGES.notDigits };
  const digits = phoneDigits(value);
  if (digits.length > PHONE_MAX_DIGITS) return { ok: false, message: PHONE_MESSAGES.tooLong };
  return { ok: true, digits };
}

/** Does a search text look like (part of) a phone number? Then its digits are searched too. */
export function phoneSearchDigits(query: string): string {
  return PHONE_CHARACTERS.test(query) ? phoneDigits(query) : '';
}

/** A typed phone (or null for none), kept as its digits: customers' and jobs' alike. */
export const phoneInput = (typeError: string) =>
  z
    .string({ error: typeError })
    .nullable()
    .transform((value, ctx) => {
      const result = normalizePhone((value ?? '').trim());
      if (!result.ok) {
        ctx.addIssue({ code: 'custom', message: result.message });
        return z.NEVER;
      }
      return result.digits;
    })
    // Up to 10 digits among the usual separators, as normalizePhone takes them.
    .meta({ type: ['string', 'null'], pattern: `^[\\s().+-]*(\\d[\\s().+-]*){0,${PHONE_MAX_DIGITS}}$` });
