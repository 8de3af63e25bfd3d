import { JOB_LIMITS, JOB_MESSAGES } from './fields.ts';

/**
 * Quotes as text and back, and the pipeline's display formatters (the screens, the search
 * text, the audit log). Browser-safe.
 */

/**
 * Dollars and cents, as typed: `1250`, `1,250.50`, `$89.95` (thousands commas and a leading
 * `$` are read, never dropped character by character: what is refused is refused whole, so
 * a quote never changes from what the user meant). A non-negative number is accepted too.
 */
const QUOTE_TEXT = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** The quote in dollars with at most two decimals, or a message saying why not. */
export function parseQuote(value: string | number): { dollars: number } | { message: string } {
  let cents: number;
  if (typeof value === 'number') {
    cents = Math.round(value * 100);
    if (!Number.isFinite(value) || value < 0 || Math.abs(value * 100 - cents) > 1e-6) return { message: JOB_MESSAGES.quoteFormat };
  } else {
    const match = QUOTE_TEXT.exec(value.trim());
    if (!match) return { message: JOB_MESSAGES.quoteFormat };
    cents = Number(match[1]!.replaceAll(',', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  }
  if (cents > JOB_LIMITS.quoteMax * 100) return { message: JOB_MESSAGES.quoteTooLarge };
  return { dollars: cents / 100 };
}

/** A quote as the API and CSV carry it: dollars, with two decimals when there are cents. */
export function quoteText(dollars: number): string {
  const cents = Math.round(dollars * 100);
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/**
 * '$' and the amount with thousands separators, cents shown when there are any
 * (`$1,250`, `$89.95`); empty counts as 0.
 */
export function formatQuote(value: string | number | null | undefined): string {
  const parsed = typeof value === 'number' ? { dollars: Math.abs(value) } : value ? parseQuote(value) : { dollars: 0 };
  // Text that is no amount shows what its leading number says (as parseFloat reads it), as older clients showed it.
  const leading = Number.parseFloat(String(value ?? ''));
  const dollars = 'dollars' in parsed ? parsed.dollars : Number.isFinite(leading) && leading >= 0 ? leading : 0;
  const sign = typeof value === 'number' && value < 0 ? '-' : '';
  const [whole, cents] = quoteText(dollars).split('.');
  return `${sign}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${cents ? `.${cents}` : ''}`;
}
