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
  for (const { name } of result.rows) await knex.raw('DROP INDEX ??.??', [schema, name]);
  return result.rows.map((row) => row.definition);
}

export async function countEventsUpTo(knex: Knex, upTo: GlobalPosition): Promise<number> {
  const result = await knex.raw<{ rows: { count: string }[] }>(
    `SELECT count(*) FROM events WHERE (tx_id, seq) <= (?::text::xid8, ?::bigint)`,
    [upTo.commit < 0n ? '0' : upTo.commit.toString(), upTo.prepare.toString()],
  );
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Row-by-row comparison through an order-independent digest of each table's rows: the
 * count and the sums of two 64-bit halves of each row's md5, so no table is sorted (sorting
 * every row's text took about half of a large rebuild).
 */
export async function compareSchemas(trx: Knex.Transaction, live: string, rebuilt: string): Promise<TableComparison[]> {
  const tables = await trx('information_schema.tables')
    .where({ table_schema: rebuilt, table_type: 'BASE TABLE' })
    .whereNot('table_name', 'like', 'knex_migrations%')
    .orderBy('table_name')
    .pluck('table_name');
  const digest = async (schema: string, table: string) => {
    // Each row's 64-bit hash from its columns' own hash functions (no text, no md5: a
    // third of the time), summed two ways with different seeds. A table with a column type
    // that has no hash function falls back to the md5 of each row's text.
    try {
      const result = await trx.transaction((savepoint) =>
        savepoint.raw<{ rows: { rows: string; digest: string | null }[] }>(
          `SELECT count(*) AS rows,
                  coalesce(sum(hash_record_extended(t, 0)::numeric), 0)::text || ':' ||
                  coalesce(sum(hash_record_extended(t, 1)::numeric), 0)::text AS digest
             FROM ??.?? t`,
          [schema, table],
        ),
      );
      return result.rows[0]!;
    } catch {
      const result = await trx.raw<{ rows: { rows: string; digest: string | null }[] }>(
        `SELECT count(*) AS rows,
                coalesce(sum(('x' || substr(h, 1, 16))::bit(64)::bigint::numeric), 0)::text || ':' ||
                coalesce(sum(('x' || substr(h, 17, 16))::bit(64)::bigint::numeric), 0)::text AS digest
           FROM (SELECT md5(t::text) AS h FROM ??.?? t) hashed`,
        [schema, table],
      );
      return result.rows[0]!;
    }
  };
  const comparisons: TableComparison[] = [];
  for (const table of tables as string[]) {
    const a = await digest(live, table);
    const b = await digest(rebuilt, table);
    comparisons.push({
      table,
      liveRows: Number(a.rows),
      rebuiltRows: Number(b.rows),
      identical: a.digest === b.digest && a.rows === b.rows,
    });
  }
  return comparisons;
}
