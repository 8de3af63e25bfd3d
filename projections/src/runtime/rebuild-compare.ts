import type { Knex } from 'knex';
import type { GlobalPosition } from '../eventstore/port.ts';

export interface TableComparison {
  table: string;
  liveRows: number;
  rebuiltRows: number;
  identical: boolean;
}

/** An index dropped from a fresh table, to be built once the table is filled. */
export interface DeferredIndex {
  table: string;
  definition: string;
  /**
   * For a primary key or unique constraint: the statement that makes the built unique index
   * that constraint again, under its old name. It runs once every index of the table is built: it locks
   * the table, and would wait for (and hold up) builds of its other indexes.
   */
  attach?: string;
}

/**
 * Drops the schema's indexes that are neither keys, constraints nor unique, and every index
 * of the tables in `keysAfterLoad` (tables only COPY writes until they are complete): their
 * primary keys, unique constraints and unique indexes too. Answers them, the GIN indexes
 * first (the longest builds start first, so none ends a rebuild alone).
 */
export async function dropDeferredIndexes(knex: Knex, schema: string, keysAfterLoad: readonly string[]): Promise<DeferredIndex[]> {
  const result = await knex.raw<{
    rows: Array<{ name: string; table: string; definition: string; key: string | null; kind: 'p' | 'u' | null }>;
  }>(
    `SELECT c.relname AS name, t.relname AS table, pg_get_indexdef(i.indexrelid) AS definition,
            k.conname AS key, k.contype AS kind
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_am am ON am.oid = c.relam
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid AND k.contype IN ('p', 'u')
      WHERE n.nspname = ?
        AND (NOT i.indisunique AND NOT i.indisprimary
               AND NOT EXISTS (SELECT 1 FROM pg_constraint o WHERE o.conindid = i.indexrelid)
             OR t.relname = ANY(?::text[])
               AND NOT EXISTS (SELECT 1 FROM pg_constraint o WHERE o.conindid = i.indexrelid AND o.contype NOT IN ('p', 'u')))
      ORDER BY am.amname = 'gin' DESC, c.relname`,
    [schema, [...keysAfterLoad]],
  );
  const keys = result.rows.filter((row) => row.key !== null);
  const indexes = result.rows.filter((row) => row.key === null);
  // One statement for all of them: each round trip counts on a busy database.
  const drops = [
    ...keys.map(({ table, key }) => `ALTER TABLE ${quoted(schema)}.${quoted(table)} DROP CONSTRAINT ${quoted(key!)}`),
    ...(indexes.length > 0 ? [`DROP INDEX ${indexes.map(({ name }) => `${quoted(schema)}.${quoted(name)}`).join(', ')}`] : []),
  ];
  if (drops.length > 0) await knex.raw(drops.join('; '));
  return result.rows.map(({ name, table, definition, key, kind }) => ({
    table,
    definition,
    ...(key !== null
      ? {
          attach: `ALTER TABLE ${quoted(schema)}.${quoted(table)} ADD CONSTRAINT ${quoted(key)} ${kind === 'p' ? 'PRIMARY KEY' : 'UNIQUE'} USING INDEX ${quoted(name)}`,
        }
      : {}),
  }));
}

export async function countEventsUpTo(knex: Knex, upTo: GlobalPosition): Promise<number> {
  const result = await knex.raw<{ rows: { count: string }[] }>(
    `SELECT count(*) FROM events WHERE (tx_id, seq) <= (?::text::xid8, ?::bigint)`,
    [upTo.commit < 0n ? '0' : upTo.commit.toString(), upTo.prepare.toString()],
  );
  return Number(result.rows[0]?.count ?? 0);
}

interface Digest {
  rows: string;
  digest: string | null;
}

/**
 * Each row's 64-bit hash, summed (on bigint, which PostgreSQL adds in 128 bits) and XORed:
 * neither depends on the order of the rows. Two hashes of each row summed as numeric took
 * about a third more of PostgreSQL's CPU (activity: 0.57 against 0.43 s for 60,000 rows).
 */
const hashedDigest = (table: string) => `count(*) AS rows,
  coalesce(sum(h), 0)::text || ':' || coalesce(bit_xor(h), 0)::text AS digest
  FROM (SELECT hash_record_extended(t, 0) AS h FROM ${table} t) hashed`;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The read-model tables of a schema (its migration bookkeeping left out), by name. */
export async function tablesOf(knex: Knex, schema: string): Promise<string[]> {
  return (await knex('information_schema.tables')
    .where({ table_schema: schema, table_type: 'BASE TABLE' })
    .whereNot('table_name', 'like', 'knex_migrations%')
    .orderBy('table_name')
    .pluck('table_name')) as string[];
}

/**
 * Row-by-row comparison through an order-independent digest of each table's rows: the count,
 * the sum and the XOR of each row's 64-bit hash, so no table is sorted (sorting every row's text
 * took about half of a large rebuild).
 */
export async function compareSchemas(trx: Knex.Transaction, live: string, rebuilt: string): Promise<TableComparison[]> {
  const tables = await tablesOf(trx, rebuilt);
  const digests = async (schema: string): Promise<Map<string, Digest>> => {
    // Every table's digest in one statement (one round trip, not three per table); a table
    // with a column type that has no hash function fails it, and then each table goes alone.
    try {
      const union = (tables as string[])
        .map((table) => `SELECT ${literal(table)} AS name, ${hashedDigest(`${quoted(schema)}.${quoted(table)}`)}`)
        .join(' UNION ALL ');
      const result = await trx.transaction((savepoint) => savepoint.raw<{ rows: Array<Digest & { name: string }> }>(union));
      return new Map(result.rows.map((row) => [row.name, row]));
    } catch {
      const each = new Map<string, Digest>();
      for (const table of tables as string[]) each.set(table, await digest(schema, table));
      return each;
    }
  };
  const digest = async (schema: string, table: string): Promise<Digest> => {
    // Each row's 64-bit hash from its columns' own hash functions (no text, no md5: a
    // third of the time), summed and XORed. A table with a column type
    // that has no hash function falls back to the md5 of each row's text.
    try {
      const result = await trx.transaction((savepoint) =>
        savepoint.raw<{ rows: Digest[] }>(`SELECT ${hashedDigest(`${quoted(schema)}.${quoted(table)}`)}`),
      );
      return result.rows[0]!;
    } catch {
      const result = await trx.raw<{ rows: Digest[] }>(
        `SELECT count(*) AS rows,
                coalesce(sum(('x' || substr(h, 1, 16))::bit(64)::bigint::numeric), 0)::text || ':' ||
                coalesce(sum(('x' || substr(h, 17, 16))::bit(64)::bigint::numeric), 0)::text AS digest
           FROM (SELECT md5(t::text) AS h FROM ??.?? t) hashed`,
        [schema, table],
      );
      return result.rows[0]!;
    }
  };
  const liveDigests = await digests(live);
  const rebuiltDigests = await digests(rebuilt);
  const comparisons: TableComparison[] = [];
  for (const table of tables as string[]) {
    const a = liveDigests.get(table)!;
    const b = rebuiltDigests.get(table)!;
    comparisons.push({
      table,
      liveRows: Number(a.rows),
      rebuiltRows: Number(b.rows),
      identical: a.digest === b.digest && a.rows === b.rows,
    });
  }
  return comparisons;
}
