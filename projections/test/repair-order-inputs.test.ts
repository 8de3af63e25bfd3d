import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decimalDocument, positiveDecimalInput } from '../src/repair-orders/schema-pieces.ts';

/** The API document's pattern for a positive decimal says what the server's check says. */
describe("a part's quantity: more than 0", () => {
  const quantity = positiveDecimalInput('Quantity', 3, 99_999);
  const pattern = new RegExp((decimalDocument(3, 99_999, { positive: true }).anyOf[1] as { pattern: string }).pattern);

  test('zero in any spelling is refused by the check and by the document', () => {
    for (const zero of ['0', '00', '0.0', '0.000', 0]) {
      const parsed = quantity.safeParse(zero);
      expect(parsed.success, String(zero)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('Quantity must be more than 0');
      if (typeof zero === 'string') expect(pattern.test(zero), zero).toBe(false);
    }
    expect(quantity.parse(null)).toBeNull();
    expect(quantity.parse('')).toBeNull();
  });

  test('every text the document allows, the check takes, as the same thousandths', () => {
    fc.assert(
      fc.property(fc.stringMatching(pattern), (text) => {
        const parsed = quantity.safeParse(text);
        expect(parsed.success, text).toBe(true);
        expect(parsed.data).toBe(Math.round(Number(text) * 1000));
        expect(parsed.data).toBeGreaterThan(0);
      }),
    );
    for (const text of ['0.001', '0.010', '0.1', '1', '12.5', '9999.999']) expect(pattern.test(text), text).toBe(true);
  });
});
