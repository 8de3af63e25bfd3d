import type { Knex } from 'knex';
import {
  activityChangeRowsSql,
  activityChangesSql,
  fieldChangeFromStored,
  type AuditEntry,
  type AuditFieldChange,
  type AuditFilter,
  type StoredFieldChange,
} from '@crm/projections/audit';
import type { ActorKind } from '@crm/projections/eventstore/port';
import { decodeCursor, encodeCursor } from '@crm/projections/shared';
import { likeContaining } from '../infra/sql.ts';
import { tenantRows } from '../infra/tenant-db.ts';
import { invalidField } from '../shared/errors.ts';
import { csvCell } from '../shared/csv.ts';
import { isoTimeSql } from '../shared/json-sql.ts';

interface ActivityRow {
  event_id: string;
  position_commit: string;
  position_prepare: string;
  event_type: string;
  entity_type: string;
  entity_id: string;
  actor_kind: ActorKind;
  actor_id: string;
  actor_name: string;
  summary: string;
  changes: StoredFieldChange[];
  occurred_at: Date;
}

interface Position {
  commit: string;
  prepare: string;
}

const MAX_BIGINT = 2n ** 63n - 1n;
const INVALID_CURSOR = 'The cursor is not valid; start again without it';

function decodeAuditCursor(cursor: string): Position {
  const values = decodeCursor(cursor, ['digits', 'digits']);
  // The positions are bigint: a larger number is no position of ours (and would fail the cast).
  if (!values || values.some((value) => BigInt(value) > MAX_BIGINT)) throw invalidField('cursor', INVALID_CURSOR);
  return { commit: String(values[0]), prepare: String(values[1]) };
}

function toEntry(row: ActivityRow): AuditEntry {
  return {
    id: row.event_id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    actor: { kind: row.actor_kind, id: row.actor_id, displayName: row.actor_name },
    entityType: row.entity_type,
    entityId: row.entity_id,
    eventType: row.event_type,
    summary: row.summary,
    changes: row.changes.map(fieldChangeFromStored),
  };
}

/** What of the timeline the reader may see: `onlyEntityTypes` limits it to those entities. */
export interface ActivityScope {
  onlyEntityTypes?: readonly string[];
}

const ACTIVITY_COLUMNS =
  'event_id, position_commit, position_prepare, event_type, entity_type, entity_id, actor_kind, actor_id, actor_name, summary, changes, occurred_at';

/** The same, each row's change list read from wherever it is kept (a job event's from its history row). */
const ACTIVITY_COLUMNS_WITH_CHANGES = ACTIVITY_COLUMNS.replace(' changes,', ` ${activityChangesSql('activity')} AS changes,`);

/** The WHERE clause of a timeline read, its values numbered from $1 (the instance) on. */
function activityWhere(
  instanceId: string,
  filter: Partial<AuditFilter> & ActivityScope & { excludeEntityType?: string },
  before: Position | null,
): { where: string; values: unknown[]; param: (value: unknown) => string } {
  const values: unknown[] = [instanceId];
  const param = (value: unknown) => `$${values.push(value)}`;
  let where = 'instance_id = $1';
  if (filter.entityType) where += ` AND entity_type = ${param(filter.entityType)}`;
  if (filter.excludeEntityType) where += ` AND entity_type <> ${param(filter.excludeEntityType)}`;
  if (filter.onlyEntityTypes) where += ` AND entity_type = ANY(${param(filter.onlyEntityTypes)}::text[])`;
  if (filter.userId) where += ` AND actor_id = ${param(filter.userId)}`;
  if (filter.from) where += ` AND occurred_at >= ${param(filter.from.toISOString())}`;
  if (filter.to) where += ` AND occurred_at < ${param(filter.to.toISOString())}`;
  if (filter.q) where += ` AND lower(summary) LIKE ${param(likeContaining(filter.q.toLowerCase()))}`;
  if (before) where += ` AND (position_commit, position_prepare) < (${param(before.commit)}::bigint, ${param(before.prepare)}::bigint)`;
  return { where, values, param };
}

/**
 * The instance's timeline, newest first (global position: the order things happened in).
 * Fixed SQL text with a condition per filter given, not built by knex: the audit page is a
 * hot read, and knex built and compiled its statement again on every request.
 */
async function readActivity(
  knex: Knex,
  instanceId: string,
  filter: Partial<AuditFilter> & ActivityScope & { excludeEntityType?: string },
  limit: number,
  before: Position | null,
): Promise<ActivityRow[]> {
  const { where, values, param } = activityWhere(instanceId, filter, before);
  return await tenantRows<ActivityRow>(
    knex,
    instanceId,
    `SELECT ${ACTIVITY_COLUMNS_WITH_CHANGES} FROM rm.activity WHERE ${where} ORDER BY position_commit DESC, position_prepare DESC LIMIT ${param(limit)}`,
    values,
  );
}

/**
 * One entry of the audit log as JSON text, built by PostgreSQL as toEntry builds it: the time
 * in UTC with milliseconds (truncated, as a JS Date does), each stored change as
 * { field, newValue, oldValue } (fieldChangeFromStored), a job event's from its history row.
 * A change in the compact form ([field, old, new]) is written as the object's text from its
 * three values' JSON text, and the list as text cast to json (which row_to_json embeds as
 * it is): building each as a jsonb object and aggregating those took about half of the
 * page's time in PostgreSQL (a page of job events holds some 600 changes).
 */
const ENTRY_JSON = `row_to_json(e)::text FROM (SELECT a.event_id AS id,
    ${isoTimeSql('a.occurred_at')} AS "occurredAt",
    (SELECT row_to_json(who) FROM (SELECT a.actor_kind AS kind, a.actor_id AS id, a.actor_name AS "displayName") who) AS actor,
    a.entity_type AS "entityType", a.entity_id AS "entityId", a.event_type AS "eventType", a.summary,
    (SELECT coalesce(('[' || string_agg(CASE WHEN jsonb_typeof(c) = 'array'
                                             THEN '{"field":' || coalesce((c->0)::text, 'null') || ',"newValue":' || coalesce((c->2)::text, 'null')
                                                  || ',"oldValue":' || coalesce((c->1)::text, 'null') || '}'
                                             ELSE c::text END, ',' ORDER BY i) || ']')::json, '[]'::json)
       FROM ${activityChangeRowsSql('a')}) AS changes) e`;

/** What the audit page's statement answers: its entries as one JSON array's text, and where the page ends. */
export interface AuditPageRow {
  /** Whether the projector had passed every event in the statement's snapshot (read-your-writes holds). */
  current: boolean;
  items: string;
  more: boolean;
  last_commit: string | null;
  last_prepare: string | null;
}

/**
 * One statement for an audit page: its entries built as JSON text by PostgreSQL (the API
 * sends them unparsed: no rows to parse, map and stringify again), whether there is a next
 * page and the last entry's position for its cursor, and whether the asynchronous read
 * models were current in the same snapshot (async_read_models_current), so a page needs no
 * round trip of its own for read-your-writes. `prepared`: whether it runs as a prepared
 * statement (tenantRows). The bench's bare route runs this same text, prepared alike.
 */
export function auditPageStatement(
  instanceId: string,
  filter: AuditFilter & ActivityScope,
  limit: number,
  cursor?: string,
): { text: string; values: unknown[]; prepared: boolean } {
  const { where, values, param } = activityWhere(instanceId, filter, cursor ? decodeAuditCursor(cursor) : null);
  const shown = param(limit);
  const text = `SELECT public.async_read_models_current() AS current, count(*) > ${shown} AS more,
      '[' || coalesce(string_agg(entry, ',' ORDER BY n) FILTER (WHERE n <= ${shown}), '') || ']' AS items,
      min(position_commit::text) FILTER (WHERE n = ${shown}) AS last_commit,
      min(position_prepare::text) FILTER (WHERE n = ${shown}) AS last_prepare
    FROM (SELECT a.position_commit, a.position_prepare,
                 row_number() OVER (ORDER BY a.position_commit DESC, a.position_prepare DESC) AS n,
                 (SELECT ${ENTRY_JSON}) AS entry
            FROM (SELECT ${ACTIVITY_COLUMNS} FROM rm.activity WHERE ${where}
                   ORDER BY position_commit DESC, position_prepare DESC LIMIT ${shown} + 1) a) page`;
  // The log as opened and paged without a filter is the hot read: a few fixed texts, each
  // worth a prepared statement. A filter's conditions (a text search above all) are left to
  // a plan made for their values.
  const prepared = !filter.entityType && !filter.userId && !filter.from && !filter.to && !filter.q;
  return { text, values, prepared };
}

/** The audit page's JSON body from its statement's row (the shape of AuditPage). */
export function auditPageBody(row: AuditPageRow): string {
  const cursor =
    row.more && row.last_commit !== null && row.last_prepare !== null ? encodeCursor([row.last_commit, row.last_prepare]) : null;
  return `{"items":${row.items},"nextCursor":${JSON.stringify(cursor)}}`;
}

/**
 * The audit page as JSON text, read in one round trip; only when the projector had not yet
 * passed every committed event does it wait for it (`catchUp`) and read again.
 */
export async function auditPageJson(
  knex: Knex,
  instanceId: string,
  filter: AuditFilter & ActivityScope,
  limit: number,
  cursor: string | undefined,
  catchUp: () => Promise<void>,
): Promise<string> {
  const { text, values, prepared } = auditPageStatement(instanceId, filter, limit, cursor);
  const read = async () => (await tenantRows<AuditPageRow>(knex, instanceId, text, values, { prepared }))[0]!;
  let row = await read();
  if (!row.current) {
    await catchUp();
    row = await read();
  }
  return auditPageBody(row);
}

/** Everything the filters match, newest first, at most `max` entries, read in keyset pages. */
export async function auditEntries(
  knex: Knex,
  instanceId: string,
  filter: AuditFilter & ActivityScope,
  max: number,
): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let before: Position | null = null;
  while (entries.length < max) {
    const wanted = Math.min(5000, max - entries.length);
    const rows = await readActivity(knex, instanceId, filter, wanted, before);
    entries.push(...rows.map(toEntry));
    const last = rows[rows.length - 1];
    if (!last || rows.length < wanted) break;
    before = { commit: last.position_commit, prepare: last.position_prepare };
  }
  return entries;
}

/**
 * Recent Activity is for every reader; the timeline holds phones masked already. What
 * happens to staff accounts (sign-ins and failed ones, PIN changes, locks, roles) is for
 * those who manage users only: `withAccounts` false leaves it out.
 */
export async function recentActivity(knex: Knex, instanceId: string, count: number, withAccounts: boolean): Promise<AuditEntry[]> {
  return (await readActivity(knex, instanceId, withAccounts ? {} : { excludeEntityType: 'user' }, count, null)).map(toEntry);
}

// ---- CSV -----------------------------------------------------------------------------------

const CSV_HEADER = ['Occurred At', 'Actor Kind', 'Actor Id', 'Actor', 'Entity Type', 'Entity Id', 'Event', 'Summary', 'Changes'];

function changesText(changes: AuditFieldChange[]): string {
  return changes.map((c) => `${c.field}: ${JSON.stringify(c.oldValue ?? null)} → ${JSON.stringify(c.newValue ?? null)}`).join('; ');
}

/** A header row, then one row per entry; CRLF line ends; a BOM so spreadsheets read it as UTF-8. */
export function auditCsv(entries: AuditEntry[]): string {
  const lines = [CSV_HEADER.map(csvCell).join(',')];
  for (const e of entries) {
    lines.push(
      [
        e.occurredAt,
        e.actor.kind,
        e.actor.id,
        e.actor.displayName,
        e.entityType,
        e.entityId,
        e.eventType,
        e.summary,
        changesText(e.changes),
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
