import { z } from 'zod';
import { jobTotalsSchema } from '../pipeline/index.ts';
import { MONEY_MAX_CENTS, parseScaled } from './money.ts';

/**
 * What the repair orders' schemas are built from: amounts in dollars, decimals and
 * percentages (each with the plain forms the API document states), line ids, and an
 * invoice's totals.
 */

const amountMessage = (label: string) => `${label} must be an amount in dollars like 12.49 (at most 2 decimals)`;

/**
 * What the API document says an amount is (the server also takes "$1,250" and numbers with
 * cents; the document states the plain forms every client can send): whole dollars as a JSON
 * number, or text with at most two decimals, within the bound; '' or null clears it. A
 * `nonZero` amount is required and leaves zero out of every form.
 */
export function moneyDocument(options: MoneyOptions) {
  const maxDollars = Math.floor((options.max ?? MONEY_MAX_CENTS) / 100);
  // Text stops one digit short of the bound, so every string the pattern allows is within it.
  const digits = String(maxDollars).length - 1;
  const sign = options.negative ? '-?' : '';
  if (options.nonZero) {
    return {
      anyOf: [
        { type: 'integer', minimum: 1, maximum: maxDollars },
        ...(options.negative ? [{ type: 'integer', minimum: -maxDollars, maximum: -1 }] : []),
        { type: 'string', pattern: `^${sign}([1-9]\\d{0,${digits - 1}}(\\.\\d{1,2})?|0\\.(0[1-9]|[1-9]\\d?))$` },
      ],
    };
  }
  return {
    anyOf: [
      { type: 'integer', minimum: options.negative ? -maxDollars : 0, maximum: maxDollars },
      { type: 'string', pattern: `^${sign}\\d{1,${digits}}(\\.\\d{1,2})?$` },
      { const: '' },
      { type: 'null' },
    ],
  };
}

export interface MoneyOptions {
  negative?: boolean;
  max?: number;
  /** for the document only: the schema that uses it refuses zero and an absent amount itself */
  nonZero?: boolean;
}

/** Dollars and cents ("12.49", "$1,250", 89.95) → cents; null or '' → null. */
export const moneyInput = (label: string, options: MoneyOptions = {}) =>
  z
    .union([z.string(), z.number(), z.null()], { error: amountMessage(label) })
    .transform((value, ctx): number | null => {
      if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
      const cents = parseScaled(value, 2, { negative: options.negative });
      const max = options.max ?? MONEY_MAX_CENTS;
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: amountMessage(label) });
        return z.NEVER;
      }
      if (Math.abs(cents) > max) {
        ctx.addIssue({ code: 'custom', message: `${label} must be at most ${(max / 100).toLocaleString('en-US')} dollars` });
        return z.NEVER;
      }
      return cents;
    })
    .meta(moneyDocument(options));

/**
 * The document's plain forms of a decimal: a whole number as JSON, or text with at most
 * `digits` decimals; `positive` leaves out zero in both forms (the text's pattern without a
 * look-ahead, which not every JSON Schema tool reads: a whole part from 1, or "0." and
 * decimals of which one is not 0).
 */
export function decimalDocument(digits: number, max: number, { positive = false } = {}) {
  const whole = String(max).length - 1;
  const decimals = `(\\.\\d{1,${digits}})?`;
  const fractions = Array.from({ length: digits }, (_, zeros) => `0{${zeros}}[1-9]\\d{0,${digits - 1 - zeros}}`);
  const pattern = positive ? `^([1-9]\\d{0,${whole - 1}}${decimals}|0\\.(${fractions.join('|')}))$` : `^\\d{1,${whole}}${decimals}$`;
  return {
    anyOf: [{ type: 'integer', minimum: positive ? 1 : 0, maximum: max }, { type: 'string', pattern }, { const: '' }, { type: 'null' }],
  };
}

/** A decimal with at most `digits` decimals from 0 to `max` → integer scaled by 10^digits; null or '' → null. */
export const decimalInput = (label: string, digits: number, max: number, unit = '') =>
  z
    .union([z.string(), z.number(), z.null()], { error: `${label} must be a number` })
    .transform((value, ctx): number | null => {
      if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
      const scaled = parseScaled(value, digits);
      if (scaled === null || scaled > max * 10 ** digits) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a number from 0 to ${max}${unit} with at most ${digits} decimals` });
        return z.NEVER;
      }
      return scaled;
    })
    .meta(decimalDocument(digits, max));

/** A decimal as decimalInput takes it, more than 0 (a part's quantity: a line of none is no line). */
export const positiveDecimalInput = (label: string, digits: number, max: number) =>
  decimalInput(label, digits, max)
    .refine((value) => value === null || value > 0, `${label} must be more than 0`)
    .meta(decimalDocument(digits, max, { positive: true }));

/** A percentage like "8.25" (at most 3 decimals, 0 to 100) → thousandths of a percent. */
export const percentInput = (label: string) => decimalInput(label, 3, 100, ' %');

export const lineId = z.uuid({ error: 'must be a line id' }).transform((value) => value.toLowerCase());

/** An invoice's totals: the job's, without what was paid and what is still due. */
export const invoiceTotalsSchema = jobTotalsSchema.omit({ paid: true, balance: true });
