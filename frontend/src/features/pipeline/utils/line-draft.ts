import {
  computeTotals,
  formatMoney,
  LINE_KIND_FIELDS,
  lineInput,
  type LineChangesInput,
  type LineInput,
  type LineKind,
  type LineView,
  type RepairLine,
  type TaxRates,
  type Totals,
  parseScaled,
} from '@crm/projections/contract';

/**
 * A line of the job's repair order as its boxes hold it while it is typed: text, exactly as
 * entered. Saved lines carry their id; a new one has none until the server gives it one.
 * Fees and discounts are either an amount or a percentage (`basis`).
 */
export interface LineDraft {
  /** Stable React key: the line's id, or a temporary one for a line not saved yet. */
  key: string;
  id: string | null;
  kind: LineKind;
  description: string;
  partNumber: string;
  quantity: string;
  unitCost: string;
  unitPrice: string;
  hours: string;
  /** '' = the shop's labor rate. */
  rate: string;
  technician: string;
  basis: 'amount' | 'percent';
  /** The fee's or discount's amount or percentage, as `basis` says. */
  value: string;
  /** A discount's line; '' = the whole job. */
  appliesTo: string;
  taxable: boolean;
}

export const LINE_KIND_LABELS: Record<LineKind, string> = { part: 'Part', labor: 'Labor', fee: 'Fee', discount: 'Discount' };

let drafted = 0;

/** A new line of a kind, empty but for what a shop nearly always wants (one unit, taxed). */
export function emptyLineDraft(kind: LineKind): LineDraft {
  drafted += 1;
  return {
    key: `new-${drafted}`,
    id: null,
    kind,
    description: '',
    partNumber: '',
    quantity: kind === 'part' ? '1' : '',
    unitCost: '',
    unitPrice: '',
    hours: '',
    rate: '',
    technician: '',
    basis: 'amount',
    value: '',
    appliesTo: '',
    taxable: kind !== 'discount',
  };
}

/** A saved line as its boxes show it. */
export function draftFromLine(line: LineView): LineDraft {
  const percent = line.percent !== null;
  return {
    key: line.id,
    id: line.id,
    kind: line.kind,
    description: line.description,
    partNumber: line.partNumber,
    quantity: line.kind === 'part' ? line.quantity : '',
    unitCost: line.unitCost ?? '',
    unitPrice: line.kind === 'part' ? line.unitPrice : '',
    hours: line.kind === 'labor' ? line.hours : '',
    rate: line.kind === 'labor' && !line.shopRate ? line.rate : '',
    technician: line.technician,
    basis: percent ? 'percent' : 'amount',
    value: (percent ? line.percent : line.amount) ?? '',
    appliesTo: line.appliesTo ?? '',
    taxable: line.taxable,
  };
}

/** Every field a kind takes, as the API's line input (a new line's POST body, before `position`). */
export function linePayload(draft: LineDraft): LineInput {
  const all = {
    description: draft.description,
    partNumber: draft.partNumber,
    quantity: draft.quantity,
    unitCost: draft.unitCost.trim() ? draft.unitCost : null,
    unitPrice: draft.unitPrice,
    hours: draft.hours,
    rate: draft.rate.trim() ? draft.rate : null,
    technician: draft.technician,
    amount: draft.basis === 'amount' ? draft.value : null,
    percent: draft.basis === 'percent' ? draft.value : null,
    appliesTo: draft.appliesTo || null,
    taxable: draft.taxable,
  };
  const payload: Record<string, unknown> = { kind: draft.kind };
  for (const field of LINE_KIND_FIELDS[draft.kind]) payload[field] = all[field];
  return payload as LineInput;
}

/** What the server would refuse in a line, by field (the shared schema's words), or null. */
export function lineProblems(draft: LineDraft): Partial<Record<string, string>> | null {
  const result = lineInput.safeParse(linePayload(draft));
  if (result.success) return null;
  const problems: Partial<Record<string, string>> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'line');
    problems[field] ??= issue.message;
  }
  return problems;
}

/** The fields of a saved line that were changed, as a PUT body; null when nothing changed. */
export function lineChanges(draft: LineDraft, saved: LineView): LineChangesInput | null {
  const { kind: _kind, ...now } = linePayload(draft) as Record<string, unknown>;
  const { kind: _savedKind, ...before } = linePayload(draftFromLine(saved)) as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(now)) {
    if (!sameValue(field, value, before[field])) changed[field] = value;
  }
  // A switch between amount and percentage clears the other.
  if ('amount' in changed || 'percent' in changed) Object.assign(changed, { amount: now.amount, percent: now.percent });
  if (Object.keys(changed).length === 0) return null;
  return changed as LineChangesInput;
}

/** "12.5" and "12.50" are the same amount: numbers compare by what they say, texts as typed. */
function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && NUMERIC_DIGITS[field] !== undefined) {
    const digits = NUMERIC_DIGITS[field]!;
    const x = parseScaled(a, digits);
    const y = parseScaled(b, digits);
    if (x !== null && y !== null) return x === y;
  }
  return (a ?? null) === (b ?? null);
}

/** Decimals each number field takes (money 2, quantity 3, hours 2, percent 3). */
const NUMERIC_DIGITS: Partial<Record<string, number>> = {
  quantity: 3,
  unitCost: 2,
  unitPrice: 2,
  hours: 2,
  rate: 2,
  amount: 2,
  percent: 3,
};

const scaled = (text: string, digits: number): number => parseScaled(text, digits) ?? 0;

/**
 * The line as the totals take it: integers, what is not (yet) a number counting as 0, a labor
 * line without its own rate at the shop's labor rate (cents per hour).
 */
export function repairLineFromDraft(draft: LineDraft, shopLaborRate: number): RepairLine {
  const percent = draft.kind === 'fee' || draft.kind === 'discount' ? draft.basis === 'percent' : false;
  return {
    id: draft.id ?? draft.key,
    kind: draft.kind,
    description: draft.description,
    partNumber: draft.partNumber,
    quantity: draft.kind === 'part' ? (draft.quantity.trim() ? scaled(draft.quantity, 3) : 1000) : 0,
    unitCost: draft.unitCost.trim() ? scaled(draft.unitCost, 2) : null,
    unitPrice: draft.kind === 'part' ? scaled(draft.unitPrice, 2) : 0,
    hours: draft.kind === 'labor' ? scaled(draft.hours, 2) : 0,
    rate: draft.kind === 'labor' ? (draft.rate.trim() ? scaled(draft.rate, 2) : shopLaborRate) : 0,
    shopRate: !draft.rate.trim(),
    technician: draft.technician,
    amount: (draft.kind === 'fee' || draft.kind === 'discount') && !percent ? scaled(draft.value, 2) : null,
    percent: percent ? scaled(draft.value, 3) : null,
    appliesTo: draft.kind === 'discount' && draft.appliesTo ? draft.appliesTo : null,
    taxable: draft.kind !== 'discount' && draft.taxable,
  };
}

/** The shop's rates as the totals take them (thousandths of a percent, cents per hour). */
export interface ShopRates extends TaxRates {
  laborRate: number;
}

export function shopRates(settings: { laborRate: string; partsTaxRate: string; laborTaxRate: string }): ShopRates {
  return {
    laborRate: scaled(settings.laborRate, 2),
    partsTaxRate: scaled(settings.partsTaxRate, 3),
    laborTaxRate: scaled(settings.laborTaxRate, 3),
  };
}

/**
 * The job's totals for the lines as typed, by the one rounding rule every document uses
 * (the shared computeTotals); lines the customer declined are left out, like the server does.
 */
export function draftTotals(drafts: readonly LineDraft[], declined: ReadonlySet<string>, rates: ShopRates): Totals {
  return computeTotals(
    drafts.map((draft) => repairLineFromDraft(draft, rates.laborRate)),
    rates,
    declined,
  );
}

/**
 * What a labor line left without its own rate will be billed at (the shop's rate, in dollars),
 * and whether the shop has set none: a rate of 0 bills the hours at $0.00, which the API
 * accepts, so the form says so instead. Null: not such a line, or the rates are not known yet.
 */
export function shopRateNote(draft: LineDraft, rates: ShopRates | null): { rate: string; unset: boolean } | null {
  if (draft.kind !== 'labor' || draft.rate.trim() || !rates) return null;
  return { rate: formatMoney(rates.laborRate), unset: rates.laborRate === 0 };
}
