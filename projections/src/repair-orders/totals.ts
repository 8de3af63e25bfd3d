import { multiplyDivideRounded, percentOf } from './money.ts';

/**
 * A job's lines and the one rounding rule of its totals. Browser-safe and pure: the
 * server's read models and documents and the job dialog (totals as you type) compute
 * with this same function.
 *
 * The rule: each line is rounded to the cent on its own (quantity × unit price, hours ×
 * rate, a percentage fee or discount of its base); then tax is computed once per rate on
 * the taxable subtotal it applies to (taxable parts and fees at the parts rate, taxable
 * labor at the labor rate); every rounding is half away from zero. Declined lines (and
 * discounts on them) are left out.
 */

export const LINE_KINDS = ['part', 'labor', 'fee', 'discount'] as const;
export type LineKind = (typeof LINE_KINDS)[number];

/** A line as recorded: integers only (see money.ts for the scales). */
export interface RepairLine {
  id: string;
  kind: LineKind;
  description: string;
  /** part */
  partNumber: string;
  /** part: thousandths (1.5 → 1500) */
  quantity: number;
  /** part: cents, what the shop paid (not on customer documents) */
  unitCost: number | null;
  /** part: cents */
  unitPrice: number;
  /** labor: hundredths of an hour */
  hours: number;
  /** labor: cents per hour (the shop's rate when the line was written, unless its own) */
  rate: number;
  /** labor: whether `rate` came from the shop's settings */
  shopRate: boolean;
  /** labor */
  technician: string;
  /** fee or discount: a fixed amount in cents (null: a percentage) */
  amount: number | null;
  /** fee or discount: thousandths of a percent (null: a fixed amount) */
  percent: number | null;
  /** discount: the line it reduces; null for the whole job */
  appliesTo: string | null;
  /** part, labor, fee: taxed (a discount reduces the taxable subtotal of what it applies to) */
  taxable: boolean;
}

export interface TaxRates {
  /** thousandths of a percent, parts and fees */
  partsTaxRate: number;
  /** thousandths of a percent, labor */
  laborTaxRate: number;
}

export interface Totals {
  parts: number;
  labor: number;
  fees: number;
  /** what discounts took off, as a positive amount */
  discounts: number;
  partsTax: number;
  laborTax: number;
  tax: number;
  total: number;
  /** each counted line's amount in cents (discounts negative); declined lines are absent */
  lineAmounts: Record<string, number>;
}

/** A part or labor line's own amount, before any percentage. */
function baseAmount(line: RepairLine): number {
  if (line.kind === 'part') return multiplyDivideRounded(line.quantity, line.unitPrice, 1000);
  if (line.kind === 'labor') return multiplyDivideRounded(line.hours, line.rate, 100);
  return 0;
}

type Pool = 'parts' | 'labor' | 'none';

function poolOf(line: RepairLine): Pool {
  if (!line.taxable) return 'none';
  return line.kind === 'labor' ? 'labor' : 'parts';
}

/** The totals of the lines not in `excluded` (declined), at the given tax rates. */
export function computeTotals(lines: readonly RepairLine[], rates: TaxRates, excluded: ReadonlySet<string> = new Set()): Totals {
  const counted = lines.filter((line) => !excluded.has(line.id) && !(line.appliesTo !== null && excluded.has(line.appliesTo)));
  const lineAmounts: Record<string, number> = {};
  const net: Record<string, number> = {};
  let parts = 0;
  let labor = 0;
  for (const line of counted) {
    if (line.kind !== 'part' && line.kind !== 'labor') continue;
    const amount = baseAmount(line);
    lineAmounts[line.id] = amount;
    net[line.id] = amount;
    if (line.kind === 'part') parts += amount;
    else labor += amount;
  }
  let fees = 0;
  for (const line of counted) {
    if (line.kind !== 'fee') continue;
    const amount = line.percent !== null ? percentOf(parts + labor, line.percent) : (line.amount ?? 0);
    lineAmounts[line.id] = amount;
    net[line.id] = amount;
    fees += amount;
  }
  // Discounts on a line first (each at most what is left of its line), then on the whole job.
  let discounts = 0;
  const byId = new Map(counted.map((line) => [line.id, line]));
  for (const line of counted) {
    if (line.kind !== 'discount' || line.appliesTo === null) continue;
    const target = byId.get(line.appliesTo);
    if (!target || target.kind === 'discount') {
      lineAmounts[line.id] = 0;
      continue;
    }
    const wanted = line.percent !== null ? percentOf(lineAmounts[target.id] ?? 0, line.percent) : (line.amount ?? 0);
    const taken = Math.min(Math.max(wanted, 0), net[target.id] ?? 0);
    net[target.id] = (net[target.id] ?? 0) - taken;
    lineAmounts[line.id] = -taken;
    discounts += taken;
  }
  const pools: Record<Pool, number> = { parts: 0, labor: 0, none: 0 };
  for (const line of counted) if (line.kind !== 'discount') pools[poolOf(line)] += net[line.id] ?? 0;
  const subtotal = pools.parts + pools.labor + pools.none;
  let jobDiscount = 0;
  for (const line of counted) {
    if (line.kind !== 'discount' || line.appliesTo !== null) continue;
    const wanted = line.percent !== null ? percentOf(subtotal, line.percent) : (line.amount ?? 0);
    const taken = Math.min(Math.max(wanted, 0), subtotal - jobDiscount);
    lineAmounts[line.id] = -taken;
    jobDiscount += taken;
  }
  discounts += jobDiscount;
  // A whole-job discount comes off each taxable subtotal in proportion to it (rounded half
  // away from zero, never more than the discount in all).
  let partsBase = pools.parts;
  let laborBase = pools.labor;
  if (jobDiscount > 0 && subtotal > 0) {
    const partsShare = multiplyDivideRounded(jobDiscount, pools.parts, subtotal);
    const laborShare = Math.min(multiplyDivideRounded(jobDiscount, pools.labor, subtotal), jobDiscount - partsShare);
    partsBase -= partsShare;
    laborBase -= laborShare;
  }
  const partsTax = percentOf(Math.max(partsBase, 0), rates.partsTaxRate);
  const laborTax = percentOf(Math.max(laborBase, 0), rates.laborTaxRate);
  const tax = partsTax + laborTax;
  return { parts, labor, fees, discounts, partsTax, laborTax, tax, total: parts + labor + fees - discounts + tax, lineAmounts };
}
