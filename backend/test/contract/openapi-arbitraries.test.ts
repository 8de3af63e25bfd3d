import fc from 'fast-check';
import { expect, test } from 'vitest';
import { SchemaArbitraries, satisfies, type JsonSchema } from '../support/openapi-arbitraries.ts';

/**
 * The generator behind the requests made from the API document: its values satisfy the
 * schema, and it bounds only what the schema bounds. A bound of its own on a pattern's values
 * made it throw away nearly every value of a pattern whose matches are long, so one request
 * of the generated suite took up to a minute to draw.
 */

// The API document's VIN: 17 characters with any whitespace and dashes around them.
const VIN: JsonSchema = { type: 'string', pattern: '^[\\s-]*(?:[A-HJ-NPR-Za-hj-npr-z0-9][\\s-]*){17}$' };
const schemas = new SchemaArbitraries({});

test('a pattern without maxLength gives values of every length the pattern matches', async () => {
  const arbitrary = schemas.of(VIN);
  const values: string[] = [];
  for (let seed = 0; seed < 200; seed++) {
    values.push(fc.sample(arbitrary, { numRuns: 1, seed })[0] as string);
    // Drawing takes microseconds; a generator that throws most values away runs into the
    // test's timeout here instead of holding the thread for minutes.
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (const value of values) expect(satisfies(value, VIN), JSON.stringify(value)).toBe(true);
  // Most of the pattern's matches are longer than the 40 characters free text is drawn to.
  expect(values.filter((value) => value.length > 40).length).toBeGreaterThan(100);
});

test('a maxLength the schema states is kept, for a pattern and for free text', () => {
  const bounded: JsonSchema = { ...VIN, maxLength: 30 };
  for (const value of fc.sample(schemas.of(bounded), { numRuns: 20, seed: 11 }) as string[]) {
    expect(value.length).toBeLessThanOrEqual(30);
    expect(satisfies(value, bounded)).toBe(true);
  }
  const text: JsonSchema = { type: 'string', minLength: 2, maxLength: 5 };
  for (const value of fc.sample(schemas.of(text), { numRuns: 100, seed: 3 }) as string[]) {
    expect(value.length).toBeGreaterThanOrEqual(2);
    expect(value.length).toBeLessThanOrEqual(5);
  }
});

test('free text without a bound is drawn short', () => {
  const values = fc.sample(schemas.of({ type: 'string' }), { numRuns: 200, seed: 5 }) as string[];
  expect(Math.max(...values.map((value) => value.length))).toBeLessThanOrEqual(40);
});
