import type { Knex } from 'knex';
import type { GlobalPosition } from '../eventstore/port.ts';

export interface TableComparison {
  table: string;
  liveRows: number;
  rebuiltRows: number;
  identical: boolean;
}

/** Drops the schema's indexes that are neither keys, constraints nor unique; answers their definitions. */
export async function dropSecondaryIndexes(knex: Knex, schema: string): Promise<string[]> {
  const result = await knex.raw<{ rows: Array<{ name: string; definition: string }> }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ? AND NOT i.indisunique AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [schema],
  );
  // One statement for all of them: each round trip counts on a busy database.
  if (result.rows.length > 0) {
    const names = result.rows.map(({ name }) => `${quoted(schema)}.${quoted(name)}`).join(', ');
    await knex.raw(`DROP INDEX ${names}`);
  }
  return result.rows.map((row) => row.definition);
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

/** A row's hash summed two ways (count, and two seeds), so the order of the rows does not matter. */
const HASHED_DIGEST = `count(*) AS rows,
  coalesce(sum(hash_record_extended(t, 0)::numeric), 0)::text || ':' ||
  coalesce(sum(hash_record_extended(t, 1)::numeric), 0)::text AS digest`;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Row-by-row comparison through an order-independent digest of each table's rows: the count
 * and two sums of each row's 64-bit hash, so no table is sorted (sorting every row's text
 * took about half of a large rebuild).
 */
export async function compareSchemas(trx: Knex.Transaction, live: string, rebuilt: string): Promise<TableComparison[]> {
  const tables = await trx('information_schema.tables')
    .where({ table_schema: rebuilt, table_type: 'BASE TABLE' })
    .whereNot('table_name', 'like', 'knex_migrations%')
    .orderBy('table_name')
    .pluck('table_name');
  const digests = async (schema: string): Promise<Map<string, Digest>> => {
    // Every table's digest in one statement (one round trip, not three per table); a table
    // with a column type that has no hash function fails it, and then each table goes alone.
    try {
      const union = (tables as string[])
        .map((table) => `SELECT ${literal(table)} AS name, ${HASHED_DIGEST} FROM ${quoted(schema)}.${quoted(table)} t`)
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
    // third of the time), summed two ways with different seeds. A table with a column type
    // that has no hash function falls back to the md5 of each row's text.
    try {
      const result = await trx.transaction((savepoint) =>
        savepoint.raw<{ rows: Digest[] }>(`SELECT ${HASHED_DIGEST} FROM ??.?? t`, [schema, table]),
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
