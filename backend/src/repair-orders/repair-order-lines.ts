import { LINE_KIND_FIELDS, misplacedLineFields, type LineChanges, type NewLine, type RepairLine } from '@crm/projections/repair-orders';
import { invalidField } from '../shared/errors.ts';
import type { ShopRates } from './repair-order-commands.ts';
import { REPAIR_ORDER_MESSAGES } from './repair-order-messages.ts';

/** A repair order's lines as its commands write them: a new line, a changed one, and the discount's target. */

/** A new line from what the form sent: defaults for what it left out, the shop's labor rate when it named none. */
export function newLine(id: string, input: NewLine, shop: ShopRates): RepairLine {
  const rate = input.kind === 'labor' ? (input.rate ?? null) : null;
  return {
    id,
    kind: input.kind,
    description: input.description ?? '',
    partNumber: input.partNumber ?? '',
    quantity: input.kind === 'part' ? (input.quantity ?? 1000) : 0,
    unitCost: input.unitCost ?? null,
    unitPrice: input.unitPrice ?? 0,
    hours: input.hours ?? 0,
    rate: input.kind === 'labor' ? (rate ?? shop.laborRate) : 0,
    shopRate: input.kind === 'labor' && rate === null,
    technician: input.technician ?? '',
    amount: input.amount ?? null,
    percent: input.percent ?? null,
    appliesTo: input.kind === 'discount' ? (input.appliesTo ?? null) : null,
    taxable: input.kind === 'discount' ? false : (input.taxable ?? true),
  };
}

/** A line after a change: only its kind's fields; a fee or discount switches between amount and percent. */
export function changedLine(line: RepairLine, changes: LineChanges, shop: ShopRates): RepairLine {
  const misplaced = misplacedLineFields(line.kind, changes);
  if (misplaced.length > 0) throw invalidField(misplaced[0]!, `${misplaced[0]} does not apply to a ${line.kind} line`);
  const next: RepairLine = { ...line };
  const fields = LINE_KIND_FIELDS[line.kind];
  const given = <K extends keyof LineChanges>(field: K) => fields.includes(field) && changes[field] !== undefined;
  if (given('description')) next.description = changes.description ?? '';
  if (given('partNumber')) next.partNumber = changes.partNumber ?? '';
  if (given('quantity')) next.quantity = changes.quantity ?? 1000;
  if (given('unitCost')) next.unitCost = changes.unitCost ?? null;
  if (given('unitPrice')) {
    if (changes.unitPrice === null) throw invalidField('unitPrice', 'A part line needs a unit price');
    next.unitPrice = changes.unitPrice!;
  }
  if (given('hours')) {
    if (changes.hours === null) throw invalidField('hours', 'A labor line needs its hours');
    next.hours = changes.hours!;
  }
  if (given('rate')) {
    next.rate = changes.rate ?? shop.laborRate;
    next.shopRate = changes.rate === null;
  }
  if (given('technician')) next.technician = changes.technician ?? '';
  if (given('taxable')) next.taxable = changes.taxable!;
  if (given('appliesTo')) next.appliesTo = changes.appliesTo ?? null;
  if (line.kind === 'fee' || line.kind === 'discount') {
    const amount = changes.amount;
    const percent = changes.percent;
    if (amount !== undefined && amount !== null && percent !== undefined && percent !== null)
      throw invalidField('amount', `A ${line.kind} line takes either an amount or a percent`);
    if (amount !== undefined && amount !== null) [next.amount, next.percent] = [amount, null];
    else if (percent !== undefined && percent !== null) [next.amount, next.percent] = [null, percent];
    else if (amount === null || percent === null) {
      // Clearing the one it has leaves it with neither.
      if ((amount === null && line.amount !== null) || (percent === null && line.percent !== null))
        throw invalidField('amount', `A ${line.kind} line needs either an amount or a percent`);
    }
  }
  return next;
}

export function assertAppliesTo(line: RepairLine, lines: readonly RepairLine[]) {
  if (line.kind !== 'discount' || line.appliesTo === null) return;
  const target = lines.find((other) => other.id === line.appliesTo);
  if (!target || target.kind === 'discount' || target.id === line.id) throw invalidField('appliesTo', REPAIR_ORDER_MESSAGES.appliesTo);
}
