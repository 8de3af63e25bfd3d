import knexFactory, { type Knex } from 'knex';
import { afterAll, describe, expect, test } from 'vitest';
import { toNativeStatement } from '../src/runtime/native-sql.ts';
import { carry, recordsetInsert, type ProjectionContext } from '../src/runtime/projection.ts';

// No connection: only knex's compiling is compared.
const knex = knexFactory({ client: 'pg' });

afterAll(async () => {
  await knex.destroy();
});

function byKnex(sql: string, bindings: readonly Knex.RawBinding[]): { sql: string; values: readonly unknown[] } {
  const native = knex
    .raw(sql, bindings as Knex.RawBinding[])
    .toSQL()
    .toNative();
  return { sql: native.sql, values: native.bindings };
}

describe('toNativeStatement', () => {
  const cases: Array<[string, string, Knex.RawBinding[]]> = [
    [
      'a recordset insert',
      'INSERT INTO ??.?? AS target ("id") SELECT "id" FROM jsonb_to_recordset(?::jsonb) AS input("id" uuid) ON CONFLICT (id) DO NOTHING',
      ['rm', 'jobs', '[{"id":"00000000-0000-0000-0000-000000000001"}]'],
    ],
    ['another schema, same text', 'INSERT INTO ??.?? AS target SELECT ?::jsonb', ['rm_rebuild_7', 'job_history', '[]']],
    ['values and an array', 'DELETE FROM ??.job_counts WHERE instance_id = any(?::uuid[]) AND total <= ?', ['rm', ['a', 'b'], 0]],
    ['null, numbers, dates', 'SELECT ?, ?, ?, ?', [null, 1.5, new Date(0), true]],
    ['no placeholders', 'SELECT 1', []],
    ['three question marks in a row', 'SELECT ???', ['rm', 1]],
    ['an escaped question mark', "SELECT '{}'::jsonb \\? ?", ['key']],
    ['a dotted identifier', 'SELECT * FROM ??', ['rm.jobs']],
    ['an identifier with a quote', 'SELECT * FROM ??', ['we"ird']],
    ['an aliased identifier', 'SELECT ?? FROM t', ['name as n']],
    ['a raw value', 'SELECT ?', [knex.raw('now()')]],
  ];

  test.each(cases)('gives what knex gives: %s', (_name, sql, bindings) => {
    expect(toNativeStatement(knex, sql, bindings)).toEqual(byKnex(sql, bindings));
    // Again, from what it remembered of the text.
    expect(toNativeStatement(knex, sql, bindings)).toEqual(byKnex(sql, bindings));
  });

  test('the same text with other identifiers gets its own text', () => {
    const sql = 'SELECT * FROM ??.jobs WHERE id = ?';
    expect(toNativeStatement(knex, sql, ['rm', 1]).sql).toBe('SELECT * FROM "rm".jobs WHERE id = $1');
    expect(toNativeStatement(knex, sql, ['rm_other', 2])).toEqual({ sql: 'SELECT * FROM "rm_other".jobs WHERE id = $1', values: [2] });
  });

  test('refuses what knex refuses: an undefined value, a wrong count', () => {
    expect(() => toNativeStatement(knex, 'SELECT ?', [undefined as unknown as Knex.RawBinding])).toThrow(/Undefined binding/);
    expect(() => toNativeStatement(knex, 'SELECT ?, ?', [1])).toThrow(/Expected 1 bindings, saw 2/);
  });
});

describe('recordset statements made once per columns and tail', () => {
  const ctx = { schema: 'rm' } as ProjectionContext;
  const columns = { id: 'uuid', total: 'integer' };
  const expected = (tail: string) =>
    `INSERT INTO ??.?? AS target ("id", "total") SELECT "id", "total" FROM jsonb_to_recordset(?::jsonb) AS input("id" uuid, "total" integer) ${tail}`;

  test('each call gets the text and its own rows, whatever tails came before', () => {
    const rows = [{ id: '00000000-0000-0000-0000-000000000001', total: 2 }];
    for (let round = 0; round < 2; round++) {
      // More tails than one columns object keeps: the one asked for is still the right text.
      for (let i = 0; i < 40; i++) {
        const tail = `ON CONFLICT (id) DO NOTHING /* ${i} */`;
        expect(recordsetInsert(ctx, 'jobs', columns, rows, tail)).toEqual({
          sql: expected(tail),
          bindings: ['rm', 'jobs', JSON.stringify(rows)],
        });
      }
    }
    expect(recordsetInsert(ctx, 'jobs', columns, [], '').bindings).toEqual(['rm', 'jobs', '[]']);
  });

  test('a carried statement is the WITH of both parts, with the bindings of both, for any pair', () => {
    const first = recordsetInsert(ctx, 'job_history', columns, [{ id: 'a', total: 1 }], 'ON CONFLICT (id) DO NOTHING');
    for (let i = 0; i < 100; i++) {
      const second = { sql: `SELECT ${i} FROM ??.jobs WHERE id = ?`, bindings: ['rm', String(i)], prepared: true };
      expect(carry(first, second)).toEqual({
        sql: `WITH carried AS (${first.sql}) ${second.sql}`,
        bindings: [...first.bindings, 'rm', String(i)],
        prepared: true,
      });
    }
    expect(carry(first, { sql: 'SELECT 1', bindings: [] })).toEqual({
      sql: `WITH carried AS (${first.sql}) SELECT 1`,
      bindings: first.bindings,
    });
  });
});
