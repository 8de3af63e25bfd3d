import type { Knex } from 'knex';
import { USER_RECORD_EVENT_TYPES } from '../domain/users.ts';
import { maskPhoneChange, type FieldChange } from './timeline.ts';

export interface SchemaMigration {
  name: string;
  up(knex: Knex, schema: string): Promise<void>;
}

/**
 * Row-level security: API queries run as role crm_api with `app.instance_id` set per
 * transaction, so a query that forgets its instance filter still sees only its tenant.
 * The projector writes as the table owner, which bypasses the policy.
 */
export async function isolateTenant(knex: Knex, schema: string, table: string): Promise<void> {
  await knex.raw('ALTER TABLE ??.?? ENABLE ROW LEVEL SECURITY', [schema, table]);
  await knex.raw(
    `CREATE POLICY tenant_isolation ON ??.?? FOR ALL TO crm_api
       USING (instance_id = nullif(current_setting('app.instance_id', true), '')::uuid)`,
    [schema, table],
  );
  await knex.raw('GRANT SELECT ON ??.?? TO crm_api', [schema, table]);
}

const platform: SchemaMigration = {
  name: '0001_platform',
  async up(knex, schema) {
    await knex.raw('GRANT USAGE ON SCHEMA ?? TO crm_api', [schema]);
    await knex.raw(
      `
      CREATE TABLE ??.crm_instances (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        subdomain text NOT NULL UNIQUE,
        display_name text NOT NULL,
        description text NOT NULL,
        features jsonb NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL
      )`,
      [schema],
    );
    await knex.raw('GRANT SELECT ON ??.crm_instances TO crm_api', [schema]);
    await knex.raw(
      `
      CREATE TABLE ??.users (
        id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        username text NOT NULL,
        display_name text NOT NULL,
        role text NOT NULL,
        is_locked boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        last_login_at timestamptz
      )`,
      [schema],
    );
    await knex.raw('CREATE UNIQUE INDEX ON ??.users (instance_id, lower(username))', [schema]);
    await isolateTenant(knex, schema, 'users');
    await knex.raw(
      `
      CREATE TABLE ??.user_permissions (
        user_id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        role text NOT NULL,
        can_read boolean NOT NULL,
        can_write boolean NOT NULL,
        can_delete boolean NOT NULL,
        can_manage_users boolean NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.user_permissions (instance_id)', [schema]);
    await isolateTenant(knex, schema, 'user_permissions');
    await knex.raw(
      `
      CREATE TABLE ??.activity (
        event_id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        position_commit numeric NOT NULL,
        position_prepare numeric NOT NULL,
        stream_id text NOT NULL,
        event_type text NOT NULL,
        entity_type text NOT NULL,
        entity_id text NOT NULL,
        actor_kind text NOT NULL,
        actor_id text NOT NULL,
        actor_name text NOT NULL,
        summary text NOT NULL,
        changes jsonb NOT NULL DEFAULT '[]',
        occurred_at timestamptz NOT NULL
      )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.activity (instance_id, position_commit DESC, position_prepare DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.activity (instance_id, entity_type, occurred_at DESC)', [schema]);
    await isolateTenant(knex, schema, 'activity');
  },
};

/** The admin user list: an instance's users in the order they were created. */
const identity: SchemaMigration = {
  name: '0002_identity',
  async up(knex, schema) {
    await knex.raw('CREATE INDEX ON ??.users (instance_id, created_at, id)', [schema]);
  },
};

/**
 * Customers, listed newest first with keyset paging and searched by substring at 100,000
 * rows per instance: a btree for the order, a trigram GIN index for the search text. The
 * extension lives in `public` (never in a read-model schema a rebuild drops), so the
 * operator class is named with its schema.
 */
const customers: SchemaMigration = {
  name: '0003_customers',
  async up(knex, schema) {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
    await knex.raw(
      `
      CREATE TABLE ??.customers (
        id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        number integer NOT NULL,
        name text NOT NULL,
        phone text NOT NULL,
        email text NOT NULL,
        address text NOT NULL,
        vehicles text NOT NULL,
        past_appointments text NOT NULL,
        invoices text NOT NULL,
        notes text NOT NULL,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        last_modified_at timestamptz NOT NULL,
        last_modified_by text NOT NULL,
        revision integer NOT NULL,
        search text GENERATED ALWAYS AS (
          lower(name || E'\\n' || phone || E'\\n' || email || E'\\n' || address || E'\\n' || vehicles)
        ) STORED
      )`,
      [schema],
    );
    await knex.raw('CREATE UNIQUE INDEX ON ??.customers (instance_id, number)', [schema]);
    await knex.raw('CREATE INDEX ON ??.customers (instance_id, created_at DESC, id DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.customers USING gin (search public.gin_trgm_ops)', [schema]);
    await isolateTenant(knex, schema, 'customers');
    // The API reads customers through this view. Under row-level security PostgreSQL may
    // not use an index for an operator that is not leakproof, and LIKE is not, so the
    // trigram index would sit unused. The view runs as its owner, outside the policy, and
    // applies the same tenant rule itself: only the instance set for the transaction.
    await knex.raw(
      `CREATE VIEW ??.customers_of_instance AS
         SELECT * FROM ??.customers WHERE instance_id = nullif(current_setting('app.instance_id', true), '')::uuid`,
      [schema, schema],
    );
    await knex.raw('GRANT SELECT ON ??.customers_of_instance TO crm_api', [schema]);
    // The unfiltered list's total without counting 100,000 rows per page.
    await knex.raw('CREATE TABLE ??.customer_counts (instance_id uuid PRIMARY KEY, total integer NOT NULL)', [schema]);
    await isolateTenant(knex, schema, 'customer_counts');
  },
};

/**
 * The pipeline and the calendar (jobs), each job's per-field history, and the indexes the
 * admins' audit log filters the activity timeline by. Every list order the pipeline offers
 * has a btree whose columns end in the keyset (…, id); substring search uses a trigram GIN
 * index on the lower-cased search text (the extension lives in `public`, see customers).
 */
const pipeline: SchemaMigration = {
  name: '0004_pipeline',
  async up(knex, schema) {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
    await knex.raw(
      `
      CREATE TABLE ??.jobs (
        id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        job_number text NOT NULL,
        number integer,
        customer_id uuid,
        name text NOT NULL,
        phone text NOT NULL,
        part text NOT NULL,
        make_model text NOT NULL,
        quote integer,
        stage text NOT NULL,
        stage_order smallint NOT NULL,
        vin text NOT NULL,
        csr text NOT NULL,
        job_type text NOT NULL,
        appointment timestamptz,
        duration integer,
        tech text NOT NULL,
        notes text NOT NULL,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        updated_at timestamptz NOT NULL,
        revision integer NOT NULL,
        search text NOT NULL
      )`,
      [schema],
    );
    // Sort by stage (board order, then newest); a stage filter or the Canceled toggle is an equality on stage_order.
    await knex.raw('CREATE INDEX ON ??.jobs (instance_id, stage_order, created_at DESC, id DESC)', [schema]);
    // Newest / oldest first.
    await knex.raw('CREATE INDEX ON ??.jobs (instance_id, created_at DESC, id DESC)', [schema]);
    // Name A-Z / Z-A.
    await knex.raw('CREATE INDEX ON ??.jobs (instance_id, lower(name), id)', [schema]);
    await knex.raw('CREATE INDEX ON ??.jobs (instance_id, lower(job_number))', [schema]);
    // A customer's jobs (the cascade on customer deletion).
    await knex.raw('CREATE INDEX ON ??.jobs (instance_id, customer_id) WHERE customer_id IS NOT NULL', [schema]);
    // The calendar's date ranges.
    await knex.raw('CREATE INDEX ON ??.jobs (instance_id, appointment) WHERE appointment IS NOT NULL', [schema]);
    await knex.raw('CREATE INDEX ON ??.jobs USING gin (search public.gin_trgm_ops)', [schema]);
    await isolateTenant(knex, schema, 'jobs');

    await knex.raw(
      `
      CREATE TABLE ??.job_history (
        event_id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        job_id uuid NOT NULL,
        revision integer NOT NULL,
        action text NOT NULL,
        user_display_name text NOT NULL,
        occurred_at timestamptz NOT NULL,
        changes jsonb NOT NULL
      )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.job_history (instance_id, job_id, revision DESC)', [schema]);
    await isolateTenant(knex, schema, 'job_history');

    // The audit log: newest first (keyset on position) by user or by entity type, and text in the summary.
    await knex.raw('CREATE INDEX ON ??.activity (instance_id, actor_id, position_commit DESC, position_prepare DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.activity (instance_id, entity_type, position_commit DESC, position_prepare DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.activity USING gin (lower(summary) public.gin_trgm_ops)', [schema]);
  },
};

/**
 * The timeline masks every phone now, jobs' as well as customers' (activity.ts); entries
 * projected before that held jobs' phones whole, so they get the same mask here.
 */
const maskedTimelinePhones: SchemaMigration = {
  name: '0005_activity_masked_phones',
  async up(knex, schema) {
    const rows = (await knex
      .withSchema(schema)
      .from('activity')
      .whereRaw('changes @> ?::jsonb', [JSON.stringify([{ field: 'phone' }])])
      .select('event_id', 'changes')) as Array<{ event_id: string; changes: FieldChange[] }>;
    for (const row of rows) {
      await knex
        .withSchema(schema)
        .table('activity')
        .where('event_id', row.event_id)
        .update({ changes: JSON.stringify(row.changes.map(maskPhoneChange)) });
    }
  },
};

/** Quotes carry cents: dollars with two decimals. */
const quoteCents: SchemaMigration = {
  name: '0006_quote_cents',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.jobs ALTER COLUMN quote TYPE numeric(14, 2)', [schema]);
  },
};

/**
 * One clock: the times jobs, customers and job history show are when the event store
 * recorded the events (`recorded_at`), the clock time travel (`asOf`) goes by; job history
 * keeps the command's own time in `occurred_at`. Rows projected before get the recorded
 * times from the PostgreSQL events table (at the millisecond the store reports). With
 * EventStoreDB that table is empty: older rows keep the command's time (history falls back
 * to it) until a `npm run projections:rebuild`.
 */
const recordedTimes: SchemaMigration = {
  name: '0007_recorded_times',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.job_history ADD COLUMN IF NOT EXISTS recorded_at timestamptz', [schema]);
    await knex.raw(
      `UPDATE ??.job_history h SET recorded_at = date_trunc('milliseconds', e.recorded_at)
         FROM public.events e WHERE e.event_id = h.event_id AND h.recorded_at IS NULL`,
      [schema],
    );
    // Created: the stream's first event; updated: the event of the row's revision.
    for (const [table, category, updated] of [
      ['jobs', 'job', 'updated_at'],
      ['customers', 'customer', 'last_modified_at'],
    ] as const) {
      await knex.raw(
        `UPDATE ??.?? t SET created_at = date_trunc('milliseconds', e.recorded_at)
           FROM public.events e WHERE e.stream_id = ? || t.id::text AND e.revision = 0`,
        [schema, table, `${category}-`],
      );
      await knex.raw(
        `UPDATE ??.?? t SET ?? = date_trunc('milliseconds', e.recorded_at)
           FROM public.events e WHERE e.stream_id = ? || t.id::text AND e.revision = t.revision`,
        [schema, table, updated, `${category}-`],
      );
    }
  },
};

/**
 * A user row's `revision`: the account record's revision (USER_RECORD_EVENT_TYPES), the ETag
 * of the user commands. Rows projected before get it from the PostgreSQL events table; with
 * EventStoreDB it stays empty (no If-Match check for that user) until the user's next change
 * or a `npm run projections:rebuild`.
 */
const userRevision: SchemaMigration = {
  name: '0008_user_revision',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.users ADD COLUMN IF NOT EXISTS revision integer', [schema]);
    await knex.raw(
      `UPDATE ??.users u SET revision = r.revision
         FROM (SELECT stream_id, max(revision) AS revision FROM public.events
                WHERE stream_id LIKE 'user-%' AND type IN (${USER_RECORD_EVENT_TYPES.map(() => '?').join(', ')})
                GROUP BY stream_id) r
        WHERE r.stream_id = 'user-' || u.id::text AND u.revision IS NULL`,
      [schema, ...USER_RECORD_EVENT_TYPES],
    );
  },
};

/** Ordered; each later slice appends its own. */
export const readModelMigrations: SchemaMigration[] = [
  platform,
  identity,
  customers,
  pipeline,
  maskedTimelinePhones,
  quoteCents,
  recordedTimes,
  userRevision,
];
