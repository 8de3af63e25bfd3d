/**
 * Money, quantities and percentages as exact integers, and back to the decimal strings the
 * API carries. Amounts are integer cents; a quantity is in thousandths, hours in
 * hundredths and a percentage in thousandths of a percent (8.875 % is 8875), so no floating
 * point ever touches an amount. Browser-safe.
 */

/** The largest amount a single field takes, in cents ($9,999,999.99). */
export const MONEY_MAX_CENTS = 999_999_999;

/** A decimal text with at most `digits` decimals, as an integer scaled by 10^digits. */
export function parseScaled(value: string | number, digits: number, options: { negative?: boolean } = {}): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim().replace(/^\$/, '');
  const pattern = new RegExp(`^(-)?\\$?(\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.(\\d{0,${digits}}))?$`);
  const match = pattern.exec(text);
  if (!match) return null;
  if (match[1] && !options.negative) return null;
  const whole = Number(match[2]!.replaceAll(',', ''));
  const fraction = Number((match[3] ?? '').padEnd(digits, '0') || '0');
  const scaled = whole * 10 ** digits + fraction;
  if (!Number.isSafeInteger(scaled)) return null;
  return match[1] && scaled !== 0 ? -scaled : scaled;
}

/** An integer scaled by 10^digits as text with exactly `digits` decimals ("12.50", "-3.000"). */
export function scaledText(value: number, digits: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (digits === 0) return `${sign}${abs}`;
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, '0')}`;
}

/** An integer scaled by 10^digits as the shortest text ("1.5", "2", "8.25"). */
export function scaledShortText(value: number, digits: number): string {
  const text = scaledText(value, digits);
  return digits === 0 ? text : text.replace(/\.?0+$/, '');
}

/** Cents as the API's decimal string: always two decimals, "-" for negatives ("12.49", "-5.00"). */
export function moneyText(cents: number): string {
  return scaledText(cents, 2);
}

/** "$1,250.50" for the documents and the screens (negative: "-$5.00"). */
export function formatMoney(cents: number): string {
  const text = moneyText(Math.abs(cents));
  const [whole, fraction] = text.split('.');
  return `${cents < 0 ? '-' : ''}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/**
 * A job's balance in the words every screen and document uses: what the customer still owes
 * ("Balance due $50.00"), or, once they paid more than the job now comes to (its lines
 * lowered after a deposit), what the shop owes them back ("Refund due $50.00"), never a
 * negative amount due.
 */
export function balanceWords(cents: number): { label: 'Balance due' | 'Refund due'; amount: string; text: string } {
  const label = cents < 0 ? 'Refund due' : 'Balance due';
  const amount = formatMoney(Math.abs(cents));
  return { label, amount, text: `${label} ${amount}` };
}

/** Cents from "12.49", "$1,250", "-5" (negatives only with `negative`); null when it is no amount. */
export function parseMoney(value: string | number, options: { negative?: boolean } = {}): number | null {
  return parseScaled(value, 2, options);
}

/**
 * numerator / denominator rounded half away from zero, exactly (BigInt: products of
 * amounts and rates may pass 2^53 in between).
 */
export function divideRounded(numerator: number | bigint, denominator: number): number {
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  if (d === 0n) throw new RangeError('division by zero');
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const quotient = (an * 2n + ad) / (ad * 2n);
  return Number(negative ? -quotient : quotient);
}

/** a × b / d rounded half away from zero, the product taken exactly. */
export function multiplyDivideRounded(a: number, b: number, d: number): number {
  return divideRounded(BigInt(a) * BigInt(b), d);
}

/** cents × percent (thousandths of a percent), rounded half away from zero to the cent. */
export function percentOf(cents: number, percentThousandths: number): number {
  return multiplyDivideRounded(cents, percentThousandths, 100_000);
}
