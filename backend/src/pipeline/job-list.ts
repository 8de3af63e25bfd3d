import type { Knex } from 'knex';
import { CANCELED_STAGE, stageOrder, type JobListQuery, type JobPage, type JobSort } from '@crm/projections/pipeline';
import { type CursorKey, type CursorValue, decodeCursor, encodeCursor, phoneSearchDigits } from '@crm/projections/shared';
import type { JobRow } from '@crm/projections/pipeline/job-rows';
import { jobMoneyColumn, withListedTotals } from '@crm/projections/repair-orders/list-totals';
import { likeContaining } from '../infra/sql.ts';
import { withTenant } from '../infra/tenant-db.ts';
import { invalidField } from '../shared/errors.ts';
import { pageWithTotal } from '../shared/list-query.ts';
import { jobViewOfRow, masked } from './job-queries.ts';

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

export async function listJobs(knex: Knex, instanceId: string, query: JobListQuery): Promise<JobPage> {
  const keys = SORT_KEYS[query.sort];
  const after = query.cursor ? decodeJobCursor(query.sort, query.cursor) : null;
  return await withTenant(knex, instanceId, async (db) => {
    // The total: without a search or a customer, from the counts the projection keeps;
    // otherwise the matches are counted.
    const count =
      query.q || query.customerId
        ? filtered(db, instanceId, query).count({ total: '*' })
        : whereStage(db.withSchema('rm').from('job_counts').where('instance_id', instanceId), query).select(
            db.raw('coalesce(sum(total), 0) AS total'),
          );
    const page = filtered(db, instanceId, query).select('*');
    keys.forEach((key, i) => {
      page.select(db.raw(`${key.sql} AS ??`, [`sort_key_${i}`]));
    });
    if (after) {
      const { sql, bindings } = afterCursor(keys, after);
      page.whereRaw(sql, bindings);
    }
    for (const key of keys) page.orderByRaw(`${key.sql} ${key.dir}`);
    page.limit(query.limit + 1);
    // One statement for all: the total, and the page beside it (a row of nulls when empty)
    // with each job's repair-order money (an itemized job's total and balance ride along, for
    // the table, the board and a customer's jobs).
    const { rows, total } = await pageWithTotal<JobRow & Record<string, unknown>>(db, count, page, jobMoneyColumn('p'));
    const more = rows.length > query.limit;
    const items = rows.slice(0, query.limit);
    const lastRow = items[items.length - 1];
    const nextCursor =
      more && lastRow
        ? jobCursor(
            query.sort,
            keys.map((key, i) => {
              const value = lastRow[`sort_key_${i}`];
              return key.kind === 'time' ? new Date(value as Date).toISOString() : (value as CursorValue);
            }),
          )
        : null;
    return {
      items: items.map((row) => withListedTotals(masked(jobViewOfRow(row)), row)),
      nextCursor,
      total,
    };
  });
}
