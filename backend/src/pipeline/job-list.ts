import type { Knex } from 'knex';
import { CANCELED_STAGE, stageOrder, type JobListQuery, type JobSort, type JobView } from '@crm/projections/pipeline';
import { type CursorKey, type CursorValue, decodeCursor, encodeCursor, phoneSearchDigits } from '@crm/projections/shared';
import { JOB_MONEY_STATE, jobMoneyColumn, withListedTotals } from '@crm/projections/repair-orders/list-totals';
import { likeContaining } from '../infra/sql.ts';
import { tenantRows } from '../infra/tenant-db.ts';
import { invalidField } from '../shared/errors.ts';
import { isoTimeSql } from '../shared/json-sql.ts';
import { jobListViewJsonSql } from './job-queries.ts';

/** The pipeline list: filters, sorts and keyset pages over the jobs read model. */

interface SortKey {
  /** SQL expression over `jobs`. */
  sql: string;
  dir: 'asc' | 'desc';
  /** Its value in a row selected with `sort_key_N` aliases. */
  kind: 'number' | 'text' | 'time';
}

const SORT_KEYS: Record<JobSort, SortKey[]> = {
  stage: [
    { sql: 'stage_order', dir: 'asc', kind: 'number' },
    { sql: 'created_at', dir: 'desc', kind: 'time' },
    { sql: 'id', dir: 'desc', kind: 'text' },
  ],
  newest: [
    { sql: 'created_at', dir: 'desc', kind: 'time' },
    { sql: 'id', dir: 'desc', kind: 'text' },
  ],
  oldest: [
    { sql: 'created_at', dir: 'asc', kind: 'time' },
    { sql: 'id', dir: 'asc', kind: 'text' },
  ],
  'name-asc': [
    { sql: 'lower(name)', dir: 'asc', kind: 'text' },
    { sql: 'id', dir: 'asc', kind: 'text' },
  ],
  'name-desc': [
    { sql: 'lower(name)', dir: 'desc', kind: 'text' },
    { sql: 'id', dir: 'desc', kind: 'text' },
  ],
};

const INVALID_CURSOR = 'The cursor is not valid for this list; start again without it';

/** A job list's cursor: its sort, then the last row's values of that sort's keys. */
function jobCursor(sort: JobSort, values: CursorValue[]): string {
  return encodeCursor([sort, ...values]);
}

function decodeJobCursor(sort: JobSort, cursor: string): CursorValue[] {
  const kinds = SORT_KEYS[sort].map((key): CursorKey => (key.sql === 'id' ? 'uuid' : key.kind === 'number' ? 'integer' : key.kind));
  const values = decodeCursor(cursor, ['text', ...kinds]);
  if (!values || values[0] !== sort) throw invalidField('cursor', INVALID_CURSOR);
  return values.slice(1);
}

/** `(k1, k2, …) after (v1, v2, …)` for keys of mixed directions, as an OR chain. */
function afterCursor(keys: SortKey[], values: CursorValue[]): { sql: string; bindings: CursorValue[] } {
  const clauses: string[] = [];
  const bindings: CursorValue[] = [];
  keys.forEach((key, i) => {
    const parts: string[] = [];
    for (let j = 0; j < i; j++) {
      parts.push(`${keys[j]!.sql} = ?`);
      bindings.push(values[j]!);
    }
    parts.push(`${key.sql} ${key.dir === 'asc' ? '>' : '<'} ?`);
    bindings.push(values[i]!);
    clauses.push(`(${parts.join(' AND ')})`);
  });
  return { sql: `(${clauses.join(' OR ')})`, bindings };
}

/** The stage filter of a list (stage, or the Canceled toggle), on `stage_order`. */
function whereStage(builder: Knex.QueryBuilder, query: JobListQuery): Knex.QueryBuilder {
  if (query.stage) builder.where('stage_order', stageOrder(query.stage));
  else if (query.canceled === 'hide') builder.whereNot('stage_order', stageOrder(CANCELED_STAGE));
  else if (query.canceled === 'only') builder.where('stage_order', stageOrder(CANCELED_STAGE));
  return builder;
}

/**
 * Lists and search read `jobs_of_instance` (migration 0010): the tenant rule without the
 * row-level-security barrier, so LIKE can use the trigram index and a page can stop early
 * on its order's btree.
 */
export function filtered(db: Knex, instanceId: string, query: JobListQuery): Knex.QueryBuilder {
  const builder = whereStage(db.withSchema('rm').from('jobs_of_instance').where('instance_id', instanceId), query);
  if (query.customerId) builder.where('customer_id', query.customerId);
  if (query.q) {
    const needle = query.q.toLowerCase();
    // '(555) 123-45' finds 5551234567: a phone-like search looks for its digits too.
    const digits = phoneSearchDigits(query.q);
    builder.where((w) => {
      w.where('search', 'like', likeContaining(needle));
      if (digits && digits !== needle) w.orWhere('search', 'like', likeContaining(digits));
    });
  }
  return builder;
}

/**
 * The page's rows as `j` (the page's order and its one row more), each as its list view's JSON
 * (`view`), its repair-order state (`money_state`, null without one), its place in the order
 * (`n`) and its sort keys as a cursor holds them (`keys`).
 */
function pageViewsSql(keys: SortKey[], page: string): string {
  const order = keys.map((key) => `${key.sql} ${key.dir}`).join(', ');
  const cursorKeys = keys.map((key) => (key.kind === 'time' ? isoTimeSql(key.sql) : key.sql)).join(', ');
  return `SELECT row_number() OVER (ORDER BY ${order}) AS n, ${jobListViewJsonSql('j')} AS view, ${jobMoneyColumn('j')},
      json_build_array(${cursorKeys}) AS keys
    FROM (${page}) j`;
}

/** What the pipeline list's statement answers: the page's views as one JSON array's text, the money of those that have some, where it ends, and the total. */
export interface JobListRow {
  total: string;
  more: boolean;
  items: string;
  /** [index in items, repair-order state] of each job on the page that has a repair order; null for none. */
  money: Array<[number, unknown]> | null;
  /** The last shown row's sort keys (a cursor's values); null on an empty page. */
  last_keys: CursorValue[] | null;
}

/**
 * One statement for a page of the pipeline list with the count of all matches (kept by the
 * projection without a search or a customer): PostgreSQL builds the page's views as JSON text.
 * Fixed text per filter and sort, not built by knex: the list is a hot read. The bench's bare
 * route runs this same statement.
 */
export function jobListStatement(instanceId: string, query: JobListQuery): { text: string; values: unknown[] } {
  const keys = SORT_KEYS[query.sort];
  const after = query.cursor ? decodeJobCursor(query.sort, query.cursor) : null;
  const values: unknown[] = [instanceId];
  const param = (value: unknown) => `$${values.push(value)}`;
  let stage = '';
  if (query.stage) stage = ` AND stage_order = ${param(stageOrder(query.stage))}`;
  else if (query.canceled === 'hide') stage = ` AND stage_order <> ${param(stageOrder(CANCELED_STAGE))}`;
  else if (query.canceled === 'only') stage = ` AND stage_order = ${param(stageOrder(CANCELED_STAGE))}`;
  let matching = `rm.jobs_of_instance WHERE instance_id = $1${stage}`;
  if (query.customerId) matching += ` AND customer_id = ${param(query.customerId)}`;
  if (query.q) {
    const needle = query.q.toLowerCase();
    // '(555) 123-45' finds 5551234567: a phone-like search looks for its digits too.
    const digits = phoneSearchDigits(query.q);
    const orDigits = digits && digits !== needle ? ` OR search LIKE ${param(likeContaining(digits))}` : '';
    matching += ` AND (search LIKE ${param(likeContaining(needle))}${orDigits})`;
  }
  // The total: without a search or a customer, from the counts the projection keeps; otherwise
  // the matches are counted.
  const count =
    query.q || query.customerId
      ? `SELECT count(*) AS total FROM ${matching}`
      : `SELECT coalesce(sum(total), 0) AS total FROM rm.job_counts WHERE instance_id = $1${stage}`;
  let cursor = '';
  if (after) {
    const { sql, bindings } = afterCursor(keys, after);
    let i = 0;
    cursor = ` AND ${sql.replace(/\?/g, () => param(bindings[i++]))}`;
  }
  const shown = param(query.limit);
  const order = keys.map((key) => `${key.sql} ${key.dir}`).join(', ');
  const page = `SELECT * FROM ${matching}${cursor} ORDER BY ${order} LIMIT ${shown} + 1`;
  const text = `SELECT t.total::text AS total, count(p.n) > ${shown} AS more,
      '[' || coalesce(string_agg(p.view, ',' ORDER BY p.n) FILTER (WHERE p.n <= ${shown}), '') || ']' AS items,
      json_agg(json_build_array(p.n - 1, p.${JOB_MONEY_STATE}) ORDER BY p.n) FILTER (WHERE p.n <= ${shown} AND p.${JOB_MONEY_STATE} IS NOT NULL) AS money,
      (array_agg(p.keys) FILTER (WHERE p.n = ${shown}))[1] AS last_keys
    FROM (${count}) t LEFT JOIN LATERAL (${pageViewsSql(keys, page)}) p ON true
    GROUP BY t.total`;
  return { text, values };
}

/**
 * The pipeline page's JSON body (the shape of JobPage) from its statement's row. The views are
 * sent as PostgreSQL wrote them; only a page with repair orders on it is parsed, to add those
 * jobs' totals (computed from the repair order's state, as every view of a job shows them).
 */
export function jobListBody(query: JobListQuery, row: JobListRow): string {
  const nextCursor = row.more && row.last_keys ? jobCursor(query.sort, row.last_keys) : null;
  let items = row.items;
  if (row.money) {
    const views = JSON.parse(items) as JobView[];
    for (const [index, state] of row.money) views[index] = withListedTotals(views[index]!, { [JOB_MONEY_STATE]: state });
    items = JSON.stringify(views);
  }
  return `{"items":${items},"nextCursor":${JSON.stringify(nextCursor)},"total":${Number(row.total)}}`;
}

/** A page of the pipeline list as JobPage's JSON text, in one round trip. */
export async function listJobsJson(knex: Knex, instanceId: string, query: JobListQuery): Promise<string> {
  const { text, values } = jobListStatement(instanceId, query);
  return jobListBody(query, (await tenantRows<JobListRow>(knex, instanceId, text, values))[0]!);
}
