import type { Knex } from 'knex';
import {
  CUSTOMER_MATCHES_MAX,
  CUSTOMER_SUGGESTIONS,
  parseList,
  type CustomerMatch,
  type CustomerMatches,
  type CustomerView,
} from '@crm/projections/customers';
import { encodeCursor, formatPhone, isUuid, maskPhone, phoneDigits, phoneSearchDigits } from '@crm/projections/shared';
import { likeContaining } from '../infra/sql.ts';
import { tenantRows, withTenant } from '../infra/tenant-db.ts';
import { NEWEST_FIRST, normalizeSearch, type NewestFirstCursor } from '../shared/list-query.ts';
import { isoTimeSql, maskedPhoneSql } from '../shared/json-sql.ts';
import { RECORD_STAMP_COLUMNS, recordStamps, type RecordStampRow } from '../shared/record-stamps.ts';

export interface CustomerRow extends RecordStampRow {
  id: string;
  number: number;
  name: string;
  phone: string;
  email: string;
  address: string;
  vehicles: string;
  past_appointments: string;
  invoices: string;
  notes: string;
}

const COLUMNS = [
  'id',
  'number',
  'name',
  'phone',
  'email',
  'address',
  'vehicles',
  'past_appointments',
  'invoices',
  'notes',
  ...RECORD_STAMP_COLUMNS,
] as const;

export type PhoneDisplay = 'full' | 'masked';

/** Lists mask the phone; a single record shows it whole. */
export function toCustomerView(row: CustomerRow, phone: PhoneDisplay): CustomerView {
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    phone: phone === 'full' ? formatPhone(row.phone) : maskPhone(row.phone),
    email: row.email,
    address: row.address,
    vehicles: row.vehicles,
    vehicleList: parseList(row.vehicles),
    pastAppointments: row.past_appointments,
    invoices: row.invoices,
    notes: row.notes,
    ...recordStamps(row),
  };
}

/**
 * The tenant's customers: the view filters to the transaction's instance itself (so the
 * trigram index stays usable, see the read-model migration); the explicit filter is kept
 * so every query states its instance.
 */
const customersOf = (db: Knex, instanceId: string) => db.withSchema('rm').from('customers_of_instance').where('instance_id', instanceId);

/** A live customer of this instance, phone whole; null for unknown ids, deleted ones and other instances'. */
export async function findCustomer(knex: Knex, instanceId: string, customerId: string): Promise<CustomerView | null> {
  if (!isUuid(customerId)) return null;
  const row = (await withTenant(knex, instanceId, (db) => customersOf(db, instanceId).where('id', customerId).first(COLUMNS))) as
    CustomerRow | undefined;
  return row ? toCustomerView(row, 'full') : null;
}

/**
 * What another slice adds to the one-customer read, inside the same statement: columns it
 * computes from the customer's row (subselects on its own read-model tables, correlated by
 * the customer's id), read back into fields. The record GET stays one round trip.
 */
export interface CustomerRecordPart<Fields extends object> {
  /** The columns to select, by alias; `customer` names the customer row's relation. */
  columns: (db: Knex, customer: string) => Record<string, Knex.Raw>;
  /** The fields those columns make. */
  fields: (row: Record<string, unknown>) => Fields;
}

/** A live customer with what `part` adds, in one statement; null like findCustomer. */
export async function findCustomerRecord<Fields extends object>(
  knex: Knex,
  instanceId: string,
  customerId: string,
  part: CustomerRecordPart<Fields>,
): Promise<(CustomerView & Fields) | null> {
  if (!isUuid(customerId)) return null;
  const row = (await withTenant(knex, instanceId, (db) =>
    customersOf(db, instanceId)
      .where('id', customerId)
      .first([...COLUMNS, part.columns(db, 'customers_of_instance')]),
  )) as (CustomerRow & Record<string, unknown>) | undefined;
  return row ? { ...toCustomerView(row, 'full'), ...part.fields(row) } : null;
}

/** The highest number in use as far as the read model knows (a hint: reservations decide). */
export async function highestCustomerNumber(knex: Knex, instanceId: string): Promise<number> {
  const row = (await withTenant(knex, instanceId, (db) => customersOf(db, instanceId).max({ n: 'number' }).first())) as
    { n: number | null } | undefined;
  return row?.n ?? 0;
}

// ---- search -------------------------------------------------------------------------

export interface ListCustomersOptions {
  search: string;
  limit: number;
  cursor: NewestFirstCursor | null;
}

/**
 * The tenant's customers matching `search`, as fixed SQL text (what follows FROM; `$1` the
 * instance, then the search's patterns): case-insensitive substring over the row's generated
 * `search` column (trigram-indexed): name, phone, email, address, the vehicles typed on the
 * customer and their vehicle records' labels, VINs and plates (`vehicle_search`, kept by the
 * customer-vehicle-list projection). A query that looks like a phone number is also searched
 * by its digits, since phones are stored as digits. Written out rather than built by knex:
 * the list and the autocomplete are the hot reads.
 */
function matchingSql(search: string): { matching: string; values: string[] } {
  const text = normalizeSearch(search);
  const from = 'rm.customers_of_instance WHERE instance_id = $1';
  if (!text) return { matching: from, values: [] };
  const digits = phoneSearchDigits(text);
  if (digits && digits !== text) {
    return { matching: `${from} AND (search LIKE $2 OR search LIKE $3)`, values: [likeContaining(text), likeContaining(digits)] };
  }
  return { matching: `${from} AND search LIKE $2`, values: [likeContaining(text)] };
}

const COLUMN_LIST = COLUMNS.join(', ');
/** The instance's live customers as the projection counts them (one row, 0 when it has none yet). */
const KEPT_COUNT = 'SELECT coalesce(sum(total), 0) AS total FROM rm.customer_counts WHERE instance_id = $1';

/**
 * A customer row `c` as its list view's JSON text, built by PostgreSQL as toCustomerView builds
 * it with the phone masked (same keys in the same order), but for `vehicleList`: in a list it is
 * the customer's vehicles as a person reads them, the card's Vehicles (the row's `vehicle_list`,
 * kept by the customer-vehicle-list projection).
 */
const CUSTOMER_VIEW_JSON = `SELECT row_to_json(v)::text FROM (SELECT c.id, c.number, c.name, ${maskedPhoneSql('c.phone')} AS phone,
    c.email, c.address, c.vehicles, c.vehicle_list AS "vehicleList", c.past_appointments AS "pastAppointments",
    c.invoices, c.notes, ${isoTimeSql('c.created_at')} AS "createdAt", c.created_by AS "createdBy",
    ${isoTimeSql('c.last_modified_at')} AS "lastModifiedAt", c.last_modified_by AS "lastModifiedBy", c.revision) v`;

/** What the customer list's statement answers: the page's views as one JSON array's text, where it ends, and the total. */
export interface CustomerListRow {
  total: string;
  more: boolean;
  items: string;
  last_created_at: string | null;
  last_id: string | null;
}

/**
 * One statement for a customer list page, newest first (keyset on created_at, id), with the
 * count of all matches (kept by the projection without a search): PostgreSQL builds the
 * page's views as JSON text, which the API sends unparsed. The bench's bare route runs this
 * same text.
 */
export function customerListStatement(
  instanceId: string,
  options: ListCustomersOptions,
): { text: string; values: unknown[]; prepared: boolean } {
  const { matching, values: patterns } = matchingSql(options.search);
  const values: unknown[] = [instanceId, ...patterns];
  const param = (value: unknown) => `$${values.push(value)}`;
  // Without a search the projection keeps the count; with one, the matches are counted.
  const count = patterns.length === 0 ? KEPT_COUNT : `SELECT count(*) AS total FROM ${matching}`;
  const after = options.cursor
    ? ` AND (created_at, id) < (${param(options.cursor.createdAt)}::timestamptz, ${param(options.cursor.id)}::uuid)`
    : '';
  const shown = param(options.limit);
  const text = `SELECT t.total::text AS total, count(p.n) > ${shown} AS more,
      '[' || coalesce(string_agg(p.view, ',' ORDER BY p.n) FILTER (WHERE p.n <= ${shown}), '') || ']' AS items,
      min(p.created) FILTER (WHERE p.n = ${shown}) AS last_created_at, min(p.id::text) FILTER (WHERE p.n = ${shown}) AS last_id
    FROM (${count}) t LEFT JOIN LATERAL (
      SELECT c.id, ${isoTimeSql('c.created_at')} AS created, row_number() OVER (ORDER BY c.created_at DESC, c.id DESC) AS n,
             (${CUSTOMER_VIEW_JSON}) AS view
        FROM (SELECT ${COLUMN_LIST}, vehicle_list FROM ${matching}${after} ORDER BY created_at DESC, id DESC LIMIT ${shown} + 1) c) p ON true
    GROUP BY t.total`;
  // Without a search the text is one of two (with or without a cursor) and planning it took as
  // long as running it: prepared (tenantRows). A search's plan depends on its pattern, so it is planned each time.
  return { text, values, prepared: patterns.length === 0 };
}

/** The customer page's JSON body from its statement's row (the shape of CustomerPage). */
export function customerListBody(row: CustomerListRow): string {
  const cursor = row.more && row.last_created_at !== null && row.last_id !== null ? encodeCursor([row.last_created_at, row.last_id]) : null;
  return `{"items":${row.items},"nextCursor":${JSON.stringify(cursor)},"total":${Number(row.total)}}`;
}

/** Newest first, a page at a time, with the count of all matches: CustomerPage as JSON text, in one round trip. */
export async function listCustomersJson(knex: Knex, instanceId: string, options: ListCustomersOptions): Promise<string> {
  const { text, values, prepared } = customerListStatement(instanceId, options);
  return customerListBody((await tenantRows<CustomerListRow>(knex, instanceId, text, values, { prepared }))[0]!);
}

/**
 * The autocomplete's statement: the newest few that match, phones masked, as one JSON array's
 * text (CustomerSuggestion each) built by PostgreSQL; null for a search of nothing, which
 * matches nobody. The bench's bare route runs this same text.
 */
export function customerSuggestStatement(instanceId: string, search: string): { text: string; values: unknown[] } | null {
  if (!normalizeSearch(search)) return null;
  const { matching, values } = matchingSql(search);
  const text = `SELECT '[' || coalesce(string_agg(s.view, ',' ORDER BY s.n), '') || ']' AS items
    FROM (SELECT row_number() OVER (ORDER BY c.created_at DESC, c.id DESC) AS n,
                 (SELECT row_to_json(v)::text FROM (SELECT c.id, c.number, c.name, ${maskedPhoneSql('c.phone')} AS phone,
                         c.vehicle_list AS vehicles) v) AS view
            FROM (SELECT id, number, name, phone, vehicle_list, created_at FROM ${matching}
                   ORDER BY created_at DESC, id DESC LIMIT ${CUSTOMER_SUGGESTIONS}) c) s`;
  return { text, values: [instanceId, ...values] };
}

/** The autocomplete as JSON text (CustomerSuggestion[]), in one round trip. */
export async function suggestCustomersJson(knex: Knex, instanceId: string, search: string): Promise<string> {
  const statement = customerSuggestStatement(instanceId, search);
  if (!statement) return '[]';
  return (await tenantRows<{ items: string }>(knex, instanceId, statement.text, statement.values))[0]!.items;
}

// ---- possible duplicates ------------------------------------------------------------

export interface CustomerMatchCriteria {
  name: string;
  phone: string;
  email: string;
}

/**
 * Customers that may be the same person: the same name (without case or surrounding and
 * repeated spaces), the same phone digits or the same email (without case). Newest first,
 * at most CUSTOMER_MATCHES_MAX; each says what it matched on.
 */
export async function matchCustomers(knex: Knex, instanceId: string, criteria: CustomerMatchCriteria): Promise<CustomerMatches> {
  const name = criteria.name.trim().replace(/\s+/g, ' ').toLowerCase();
  const email = criteria.email.trim().toLowerCase();
  const phone = phoneDigits(criteria.phone);
  if (!name && !email && !phone) return { items: [] };
  const rows = (await withTenant(knex, instanceId, (db) =>
    customersOf(db, instanceId)
      .where((q) => {
        if (name) q.orWhereRaw("lower(regexp_replace(btrim(name), '\\s+', ' ', 'g')) = ?", [name]);
        if (email) q.orWhereRaw('lower(btrim(email)) = ?', [email]);
        if (phone) q.orWhere('phone', phone);
      })
      .select('id', 'number', 'name', 'phone', 'email', 'vehicles')
      .orderBy([...NEWEST_FIRST])
      .limit(CUSTOMER_MATCHES_MAX),
  )) as Pick<CustomerRow, 'id' | 'number' | 'name' | 'phone' | 'email' | 'vehicles'>[];
  return {
    items: rows.map((row) => {
      const matchedOn: CustomerMatch['matchedOn'] = [];
      if (name && row.name.trim().replace(/\s+/g, ' ').toLowerCase() === name) matchedOn.push('name');
      if (phone && row.phone === phone) matchedOn.push('phone');
      if (email && row.email.trim().toLowerCase() === email) matchedOn.push('email');
      return {
        id: row.id,
        number: row.number,
        name: row.name,
        phone: maskPhone(row.phone),
        email: row.email,
        vehicles: parseList(row.vehicles),
        matchedOn,
      };
    }),
  };
}

/**
 * Live customers of every instance whose phone is `digits` (compared on the last ten
 * digits): an inbound text names only its sender's number, and the sending number is the
 * server's, shared by every shop. Runs as the owner, outside any one tenant.
 */
export async function customersWithPhone(knex: Knex, digits: string): Promise<Array<{ id: string; instanceId: string }>> {
  const last10 = digits.replace(/\D/g, '').slice(-10);
  if (last10.length < 7) return [];
  const rows = (await knex
    .withSchema('rm')
    .from('customers')
    .whereRaw('right(phone, 10) = ?', [last10])
    .select('id', 'instance_id')) as Array<{ id: string; instance_id: string }>;
  return rows.map((row) => ({ id: row.id, instanceId: row.instance_id }));
}
