import { computeTotals, type LineView } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import {
  draftFromLine,
  draftTotals,
  emptyLineDraft,
  lineChanges,
  linePayload,
  lineProblems,
  repairLineFromDraft,
  shopRateNote,
  shopRates,
  type LineDraft,
} from '../src/features/pipeline/utils/line-draft.ts';
import { periodFromParams } from '../src/features/takings/utils/takings-period.ts';
import { paymentPayload } from '../src/features/pipeline/utils/payment-form.ts';

const savedLine = (patch: Partial<LineView>): LineView => ({
  id: '5b0c1c9e-2f6a-4d7e-9a51-0f6c2b1d3e4a',
  kind: 'part',
  description: 'Brake pads',
  partNumber: 'BP-1',
  quantity: '2',
  unitCost: '20.00',
  unitPrice: '45.50',
  hours: '0',
  rate: '0.00',
  shopRate: false,
  technician: '',
  amount: null,
  percent: null,
  appliesTo: null,
  taxable: true,
  total: '91.00',
  status: 'pending',
  ...patch,
});

const draft = (kind: LineDraft['kind'], patch: Partial<LineDraft>): LineDraft => ({ ...emptyLineDraft(kind), ...patch });

const rates = shopRates({ laborRate: '120.00', partsTaxRate: '8.25', laborTaxRate: '5' });

describe('the lines editor: what a line sends', () => {
  test('a new line sends only the fields of its kind', () => {
    expect(linePayload(draft('labor', { description: 'Diagnose', hours: '1.5', technician: 'Tess' }))).toEqual({
      kind: 'labor',
      description: 'Diagnose',
      hours: '1.5',
      rate: null,
      technician: 'Tess',
      taxable: true,
    });
    expect(linePayload(draft('discount', { description: 'Loyalty', basis: 'percent', value: '10' }))).toEqual({
      kind: 'discount',
      description: 'Loyalty',
      amount: null,
      percent: '10',
      appliesTo: null,
    });
  });

  test('what the server would refuse is named by field, in the shared schema’s words', () => {
    expect(lineProblems(draft('part', { description: 'Filter' }))).toEqual({ unitPrice: 'A part line needs a unit price' });
    expect(lineProblems(draft('part', { unitPrice: '12,5' }))?.unitPrice).toMatch(/Unit price must be an amount/);
    expect(lineProblems(draft('labor', {}))).toEqual({ hours: 'A labor line needs its hours' });
    expect(lineProblems(draft('fee', { description: 'Shop supplies' }))).toEqual({
      amount: 'A fee line needs either an amount or a percent',
    });
    expect(lineProblems(draft('part', { unitPrice: '9.99' }))).toBeNull();
  });

  test('a saved line sends only what changed; 45.5 is the same price as 45.50', () => {
    const line = savedLine({});
    const same = draftFromLine(line);
    expect(lineChanges(same, line)).toBeNull();
    expect(lineChanges({ ...same, unitPrice: '45.5', quantity: '2.000' }, line)).toBeNull();
    expect(lineChanges({ ...same, quantity: '3' }, line)).toEqual({ quantity: '3' });
    expect(lineChanges({ ...same, taxable: false, description: 'Pads, front' }, line)).toEqual({
      taxable: false,
      description: 'Pads, front',
    });
  });

  test('a fee switched from an amount to a percentage clears the amount', () => {
    const fee = savedLine({ kind: 'fee', description: 'Supplies', amount: '5.00', quantity: '0', unitPrice: '0.00', unitCost: null });
    const changed = { ...draftFromLine(fee), basis: 'percent' as const, value: '3' };
    expect(lineChanges(changed, fee)).toEqual({ amount: null, percent: '3' });
  });

  test('a labor line on the shop’s rate shows an empty rate box (its own rate is kept)', () => {
    expect(draftFromLine(savedLine({ kind: 'labor', hours: '1.25', rate: '120.00', shopRate: true })).rate).toBe('');
    expect(draftFromLine(savedLine({ kind: 'labor', hours: '1.25', rate: '99.00', shopRate: false })).rate).toBe('99.00');
  });
});

describe('the lines editor: totals as typed', () => {
  test('they are the shared computeTotals of the lines as integers, half-cents rounded away from zero', () => {
    const drafts = [
      draft('part', { id: 'p', key: 'p', description: 'Pads', quantity: '3', unitPrice: '3.333' }),
      draft('part', { id: 'p2', key: 'p2', quantity: '1', unitPrice: '10.01' }),
      draft('labor', { id: 'l', key: 'l', hours: '1.5' }),
      draft('fee', { id: 'f', key: 'f', basis: 'percent', value: '2.5' }),
      draft('discount', { id: 'd', key: 'd', basis: 'amount', value: '5' }),
    ];
    const totals = draftTotals(drafts, new Set(), rates);
    expect(totals).toEqual(
      computeTotals(
        drafts.map((line) => repairLineFromDraft(line, rates.laborRate)),
        rates,
      ),
    );
    // 3.333 is no price (2 decimals at most): it counts as 0 until corrected.
    expect(totals.lineAmounts.p).toBe(0);
    expect(totals.labor).toBe(18_000);
    expect(totals.total).toBeGreaterThan(0);
  });

  test('a declined line and the discounts on it are left out', () => {
    const drafts = [
      draft('part', { id: 'a', key: 'a', unitPrice: '100' }),
      draft('part', { id: 'b', key: 'b', unitPrice: '50' }),
      draft('discount', { id: 'd', key: 'd', basis: 'percent', value: '10', appliesTo: 'b' }),
    ];
    const all = draftTotals(drafts, new Set(), rates);
    const declined = draftTotals(drafts, new Set(['b']), rates);
    expect(all.parts).toBe(15_000);
    expect(all.discounts).toBe(500);
    expect(declined.parts).toBe(10_000);
    expect(declined.discounts).toBe(0);
    expect(declined.lineAmounts.b).toBeUndefined();
    // 100.00 at 8.25 %: 8.25 tax.
    expect(declined.tax).toBe(825);
  });

  test('an unsaved line counts under its temporary key', () => {
    const fresh = draft('part', { unitPrice: '1.99' });
    expect(draftTotals([fresh], new Set(), rates).lineAmounts[fresh.key]).toBe(199);
  });
});

describe('payments and the takings period', () => {
  test('a refund is the amount typed made negative, with its reason; a payment has none', () => {
    expect(paymentPayload({ refund: true, amount: '20', method: 'cash', reference: '', reason: 'Returned part' })).toEqual({
      amount: '-20',
      method: 'cash',
      reference: '',
      reason: 'Returned part',
    });
    expect(paymentPayload({ refund: false, amount: '20.00', method: 'card', reference: 'slip 7', reason: 'ignored' })).toEqual({
      amount: '20.00',
      method: 'card',
      reference: 'slip 7',
    });
  });

  test('the report period: today in the shop’s zone by default, one day given is that day, a reversed range is put in order', () => {
    const late = new Date('2025-03-01T04:30:00Z');
    expect(periodFromParams(new URLSearchParams(''), 'America/Chicago', late)).toEqual({ from: '2025-02-28', to: '2025-02-28' });
    expect(periodFromParams(new URLSearchParams(''), 'Europe/Berlin', late)).toEqual({ from: '2025-03-01', to: '2025-03-01' });
    expect(periodFromParams(new URLSearchParams('from=2025-01-05'), 'UTC', late)).toEqual({ from: '2025-01-05', to: '2025-01-05' });
    expect(periodFromParams(new URLSearchParams('from=2025-02-05&to=2025-01-05'), 'UTC', late)).toEqual({
      from: '2025-01-05',
      to: '2025-02-05',
    });
  });
});

describe('shopRateNote', () => {
  const noRate = shopRates({ laborRate: '0', partsTaxRate: '0', laborTaxRate: '0' });
  const labor = { ...emptyLineDraft('labor'), hours: '1.5' };

  test('a labor line without its own rate at a shop with no labor rate is told it bills $0.00 an hour', () => {
    expect(shopRateNote(labor, noRate)).toEqual({ rate: '$0.00', unset: true });
  });

  test('the shop rate a labor line will use, when the shop has one', () => {
    expect(shopRateNote(labor, rates)).toEqual({ rate: '$120.00', unset: false });
  });

  test('nothing to say for a line with its own rate, a part, or while the rates are unknown', () => {
    expect(shopRateNote({ ...labor, rate: '95' }, noRate)).toBeNull();
    expect(shopRateNote(emptyLineDraft('part'), noRate)).toBeNull();
    expect(shopRateNote(labor, null)).toBeNull();
  });
});
