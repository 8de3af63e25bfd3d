import type { LineView } from './api.ts';
import { parseScaled, scaledShortText } from './money.ts';
import { computeTotals, type RepairLine, type TaxRates } from './totals.ts';

/**
 * What a customer's choice on an estimate comes to, for the estimate page (which has only
 * what the API shows) and the server alike. Pure.
 */

/** Tax rates as the API shows them: percent, shortest form ("8.25"). */
export interface TaxRatesView {
  partsTaxRate: string;
  laborTaxRate: string;
}

export const taxRatesView = (rates: TaxRates): TaxRatesView => ({
  partsTaxRate: scaledShortText(rates.partsTaxRate, 3),
  laborTaxRate: scaledShortText(rates.laborTaxRate, 3),
});

/** A line as the API shows it, back in the integers the totals take (what the shop paid is not needed). */
export function repairLineOfView(line: Omit<LineView, 'unitCost'>): RepairLine {
  const scaled = (text: string, digits: number) => parseScaled(text, digits) ?? 0;
  return {
    id: line.id,
    kind: line.kind,
    description: line.description,
    partNumber: line.partNumber,
    quantity: scaled(line.quantity, 3),
    unitCost: null,
    unitPrice: scaled(line.unitPrice, 2),
    hours: scaled(line.hours, 2),
    rate: scaled(line.rate, 2),
    shopRate: line.shopRate,
    technician: line.technician,
    amount: line.amount === null ? null : scaled(line.amount, 2),
    percent: line.percent === null ? null : scaled(line.percent, 3),
    appliesTo: line.appliesTo,
    taxable: line.taxable,
  };
}

/**
 * What the lines a customer approves come to, in cents, tax included: the estimate's lines by
 * the one rounding rule without the others, so a percentage fee or a whole-job discount
 * follows the lines left in and a discount on a line left out goes with it. It is the
 * approved total the estimate PDF prints, and the job's total once the decision is recorded;
 * adding up the lines' amounts as sent is not.
 */
export function approvedTotalOf(lines: readonly Omit<LineView, 'unitCost'>[], rates: TaxRatesView, approved: ReadonlySet<string>): number {
  const excluded = new Set(lines.filter((line) => !approved.has(line.id)).map((line) => line.id));
  const taxRates = { partsTaxRate: parseScaled(rates.partsTaxRate, 3) ?? 0, laborTaxRate: parseScaled(rates.laborTaxRate, 3) ?? 0 };
  return computeTotals(lines.map(repairLineOfView), taxRates, excluded).total;
}
