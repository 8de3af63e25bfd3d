import { describe, expect, test } from 'vitest';
import { decodeCursor, encodeCursor } from '../src/shared/index.ts';

describe('keyset cursor (one codec for every list)', () => {
  test('gives back the values it was made of, when they fit the keys', () => {
    const values = ['newest', '2025-01-31T14:00:00.000Z', '5b0c2a52-8f0e-4c7a-9d7e-0a4c1f0e9b11', 12, 'Ünïcödé'];
    const cursor = encodeCursor(values);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, ['text', 'time', 'uuid', 'integer', 'text'])).toEqual(values);
  });

  test('reads cursors written as base64url JSON before (Buffer)', () => {
    const old = Buffer.from(JSON.stringify(['2025-01-31T14:00:00.000Z', '5b0c2a52-8f0e-4c7a-9d7e-0a4c1f0e9b11'])).toString('base64url');
    expect(decodeCursor(old, ['time', 'uuid'])).toEqual(['2025-01-31T14:00:00.000Z', '5b0c2a52-8f0e-4c7a-9d7e-0a4c1f0e9b11']);
  });

  test.each([
    ['garbage', ['text']],
    ['', ['text']],
    [encodeCursor(['a', 'b']), ['text']],
    [encodeCursor(['not a date', 'x']), ['time', 'uuid']],
    [encodeCursor(['12', 3]), ['digits', 'digits']],
    [encodeCursor([1.5]), ['integer']],
    [Buffer.from('{"s":"stage"}').toString('base64url'), ['text']],
  ] as const)('refuses %s', (cursor, keys) => {
    expect(decodeCursor(cursor, keys)).toBeNull();
  });
});
