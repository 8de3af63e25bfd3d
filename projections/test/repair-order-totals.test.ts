import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeTotals, divideRounded, moneyText, parseMoney, type RepairLine } from '../src/repair-orders/index.ts';

const base: RepairLine = {
  id: '',
  kind: 'part',
  description: '',
  partNumber: '',
  quantity: 1000,
  unitCost: null,
  unitPrice: 0,
  hours: 0,
  rate: 0,
  shopRate: false,
  technician: '',
  amount: null,
  percent: null,
  appliesTo: null,
  taxable: true,
};

/** Half away from zero on exact rationals (BigInt), the rule's reference. */
const roundRef = (n: bigint, d: bigint) => {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = a / d;
  const r = a % d;
  const up = r * 2n >= d ? q + 1n : q;
  return Number(neg ? -up : up);
};

describe('the rounding rule', () => {
  test('divideRounded rounds half away from zero', () => {
    expect(divideRounded(5, 10)).toBe(1);
    expect(divideRounded(-5, 10)).toBe(-1);
    expect(divideRounded(4, 10)).toBe(0);
    expect(divideRounded(-15, 10)).toBe(-2);
  });

  test('each line to the cent, then tax once per rate on its taxable subtotal (generated lines)', () => {
    const part = fc.record({
      quantity: fc.integer({ min: 1, max: 99_999 }),
      unitPrice: fc.integer({ min: 0, max: 999_999 }),
      taxable: fc.boolean(),
    });
    const labor = fc.record({
      hours: fc.integer({ min: 1, max: 9_999 }),
      rate: fc.integer({ min: 0, max: 50_000 }),
      taxable: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 6 }),
        fc.array(labor, { maxLength: 6 }),
        fc.integer({ min: 0, max: 15_000 }),
        fc.integer({ min: 0, max: 15_000 }),
        (parts, labors, partsTaxRate, laborTaxRate) => {
          const lines: RepairLine[] = [
            ...parts.map((p, i) => ({ ...base, id: `p${i}`, ...p })),
            ...labors.map((l, i) => ({ ...base, id: `l${i}`, kind: 'labor' as const, quantity: 0, ...l })),
          ];
          const totals = computeTotals(lines, { partsTaxRate, laborTaxRate });
          const partAmounts = parts.map((p) => roundRef(BigInt(p.quantity) * BigInt(p.unitPrice), 1000n));
          const laborAmounts = labors.map((l) => roundRef(BigInt(l.hours) * BigInt(l.rate), 100n));
          const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
          expect(totals.parts).toBe(sum(partAmounts));
          expect(totals.labor).toBe(sum(laborAmounts));
          const taxableParts = sum(partAmounts.filter((_, i) => parts[i]!.taxable));
          const taxableLabor = sum(laborAmounts.filter((_, i) => labors[i]!.taxable));
          const tax =
            roundRef(BigInt(taxableParts) * BigInt(partsTaxRate), 100_000n) +
            roundRef(BigInt(taxableLabor) * BigInt(laborTaxRate), 100_000n);
          expect(totals.tax).toBe(tax);
          expect(totals.total).toBe(totals.parts + totals.labor + tax);
          for (const value of Object.values(totals.lineAmounts)) expect(Number.isInteger(value)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('declined lines and discounts on them are left out; discounts never exceed what they reduce', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (price, off, pct) => {
          const lines: RepairLine[] = [
            { ...base, id: 'a', unitPrice: price },
            { ...base, id: 'b', unitPrice: price },
            { ...base, id: 'd', kind: 'discount', amount: off, appliesTo: 'a', taxable: false },
            { ...base, id: 'j', kind: 'discount', percent: pct, taxable: false },
          ];
          const all = computeTotals(lines, { partsTaxRate: 8250, laborTaxRate: 0 });
          expect(all.discounts).toBeLessThanOrEqual(all.parts);
          expect(all.total).toBeGreaterThanOrEqual(0);
          const declined = computeTotals(lines, { partsTaxRate: 8250, laborTaxRate: 0 }, new Set(['a']));
          expect(declined.parts).toBe(price);
          expect(declined.lineAmounts).not.toHaveProperty('d');
        },
      ),
      { numRuns: 300 },
    );
  });

  test('amounts as text and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999, max: 999_999_999 }), (cents) => {
        expect(parseMoney(moneyText(cents), { negative: true })).toBe(cents);
      }),
    );
    expect(parseMoney('1,250.5')).toBe(125050);
    expect(parseMoney('12.499')).toBeNull();
    expect(parseMoney('-5')).toBeNull();
  });
});
