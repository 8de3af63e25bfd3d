import { parseQuote } from './schemas.ts';

/** Display formatters of the pipeline's values (the screens, the search text, the audit log). Browser-safe. */

/** A quote as the API and CSV carry it: dollars, with two decimals when there are cents. */
export function quoteText(dollars: number): string {
  const cents = Math.round(dollars * 100);
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/**
 * '$' and the amount with thousands separators, cents shown when there are any
 * (`$1,250`, `$89.95`); empty counts as 0 (spec §2).
 */
export function formatQuote(value: string | number | null | undefined): string {
  const parsed = typeof value === 'number' ? { dollars: Math.abs(value) } : value ? parseQuote(value) : { dollars: 0 };
  // Text that is no amount shows what its leading number says, like the spec's parseInt.
  const leading = Number.parseFloat(String(value ?? ''));
  const dollars = 'dollars' in parsed ? parsed.dollars : Number.isFinite(leading) && leading >= 0 ? leading : 0;
  const sign = typeof value === 'number' && value < 0 ? '-' : '';
  const [whole, cents] = quoteText(dollars).split('.');
  return `${sign}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${cents ? `.${cents}` : ''}`;
}
