import type { Knex } from 'knex';
import { decodeCursor, encodeCursor } from '@crm/projections/shared';
import { invalidField } from './errors.ts';

/**
 * What the record lists read the same way (customers, service requests): search text as their
 * generated `search` columns hold it, and pages newest first, keyset on (created_at, id), with
 * the count of all matches.
 */

/** Search text as the `search` columns hold it: control characters as spaces, trimmed, lower case ('' is no search). */
export function normalizeSearch(search: string): string {
  return (
    search
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f]/g, ' ')
      .trim()
      .toLowerCase()
  );
}

/** Newest first; the id breaks ties between rows created in the same instant. */
export const NEWEST_FIRST = [
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/** Where a newest-first page ended: its last row's created_at and id. */
export interface NewestFirstCursor {
  createdAt: string;
  id: string;
}

/** The `?cursor=` of a newest-first list; anything else is a 400. */
export function decodeNewestFirstCursor(value: string): NewestFirstCursor {
  const values = decodeCursor(value, ['time', 'uuid']);
  if (!values) throw invalidField('cursor', 'Invalid cursor: pass back the nextCursor of the previous page');
  const [createdAt, id] = values as [string, string];
  return { createdAt: new Date(createdAt).toISOString(), id };
}

export interface NewestFirstPage<Row> {
  rows: Row[];
  nextCursor: string | null;
  total: number;
}

/**
 * One page of `matching()` (a fresh query each call: it is read for the page and counted),
 * newest first after `cursor`, with the count of all matches, in one statement (one round
 * trip): the count, and the page beside it. `total` replaces counting the matches where a
 * cheaper count is kept (a list without a search): a query of one row whose `total` is it.
 */
export async function newestFirstPage<Row extends { created_at: Date; id: string }>(
  db: Knex,
  matching: () => Knex.QueryBuilder,
  options: { columns: readonly string[]; limit: number; cursor: NewestFirstCursor | null; total?: () => Knex.QueryBuilder },
): Promise<NewestFirstPage<Row>> {
  const page = matching()
    .select(options.columns)
    .orderBy([...NEWEST_FIRST])
    .limit(options.limit + 1);
  if (options.cursor) page.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [options.cursor.createdAt, options.cursor.id]);
  const { rows, total } = await pageWithTotal<Row>(db, options.total ? options.total() : matching().count({ total: '*' }), page);
  return newestFirstPageOf(rows, total, options.limit);
}

/**
 * The same page as newestFirstPage, from fixed SQL text instead of a query builder (the hot
 * lists: knex built and compiled their statement again on every request). `matching` is
 * what follows FROM: the relation and its WHERE clause, with parameters $1…$n (`values`);
 * `total`, when given, a statement of one row whose `total` replaces counting the matches,
 * on the same parameters. `run` sends one statement and gives its rows.
 */
export async function newestFirstPageFromSql<Row extends { created_at: Date; id: string }>(
  run: (text: string, values: readonly unknown[]) => Promise<Array<Row & { page_total: string | number }>>,
  options: {
    columns: string;
    matching: string;
    values: readonly unknown[];
    total?: string;
    limit: number;
    cursor: NewestFirstCursor | null;
  },
): Promise<NewestFirstPage<Row>> {
  const values = [...options.values];
  const param = (value: unknown) => `$${values.push(value)}`;
  const count = options.total ?? `SELECT count(*) AS total FROM ${options.matching}`;
  const after = options.cursor
    ? ` AND (created_at, id) < (${param(options.cursor.createdAt)}::timestamptz, ${param(options.cursor.id)}::uuid)`
    : '';
  const page = `SELECT ${options.columns} FROM ${options.matching}${after} ORDER BY created_at DESC, id DESC LIMIT ${param(options.limit + 1)}`;
  const { rows, total } = pageAndTotalOf(await run(pageWithTotalSql(count, page, 'p.*'), values));
  return newestFirstPageOf(rows, total, options.limit);
}

function newestFirstPageOf<Row extends { created_at: Date; id: string }>(rows: Row[], total: number, limit: number): NewestFirstPage<Row> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    rows: items,
    nextCursor: rows.length > limit && last ? encodeCursor([new Date(last.created_at).toISOString(), last.id]) : null,
    total,
  };
}

/**
 * A page and the count of all matches in one statement (one round trip): `count` (a query of
 * one row whose `total` is the count), and the page beside it, a row of nulls when it is
 * empty. `extraColumns`: more columns of each row, computed from the page's row `p`. Each row
 * keeps its page_total: deleting it would turn every row into a slow dictionary object
 * before it is mapped.
 */
export async function pageWithTotal<Row extends { id: string }>(
  db: Knex,
  count: Knex.QueryBuilder,
  page: Knex.QueryBuilder,
  extraColumns?: string,
): Promise<{ rows: Row[]; total: number }> {
  const countSql = count.toSQL();
  const pageSql = page.toSQL();
  const columns = extraColumns ? `p.*, ${extraColumns}` : 'p.*';
  const joined = await db.raw<{ rows: Array<Row & { page_total: string | number }> }>(
    pageWithTotalSql(countSql.sql, pageSql.sql, columns),
    [...countSql.bindings, ...pageSql.bindings] as Knex.RawBinding[],
  );
  return pageAndTotalOf(joined.rows);
}

/** The one statement of a page and its total: the count's row, and the page's rows beside it in a lateral join. */
function pageWithTotalSql(count: string, page: string, columns: string): string {
  return `SELECT c.total AS page_total, ${columns} FROM (${count}) c LEFT JOIN LATERAL (${page}) p ON true`;
}

/** The page's rows (without the row of nulls an empty page answers) and the total beside them. */
function pageAndTotalOf<Row extends { id: string }>(joined: Array<Row & { page_total: string | number }>): { rows: Row[]; total: number } {
  return { rows: joined.filter((row) => row.id !== null), total: Number(joined[0]?.page_total ?? 0) };
}
