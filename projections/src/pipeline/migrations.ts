import { compactChangeListSql, isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/** An appointment's length when it has none, as it was when 0020_appointment_ranges was written (a migration keeps its own copy). */
const DEFAULT_DURATION_MINUTES = 60;

/**
 * The pipeline slice's read-model migrations. Names are recorded in every database and
 * migrations run ordered by name across all slices (db/migrate.ts): never rename one.
 */

// Also adds audit's indexes on the activity table (written before the slices had folders).
/**
 * The pipeline and the calendar (jobs), each job's per-field history, and the indexes the
 * admins' audit log filters the activity timeline by. Every list order the pipeline offers
 * has a btree whose columns end in the keyset (…, id); substring search uses a trigram GIN
 * index on the lower-cased search text (the extension lives in `public`, see customers).
 */
const pipelineTables: SchemaMigration = {
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

/** Quotes carry cents: dollars with two decimals. */
const quoteCents: SchemaMigration = {
  name: '0006_quote_cents',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.jobs ALTER COLUMN quote TYPE numeric(14, 2)', [schema]);
  },
};

// Also fills the customers table's times (customers' created_at and last_modified_at), in the same pass as the jobs'.
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
 * Reads at scale. `jobs_of_instance`: the API's list and search read jobs through it, as
 * customers are read through `customers_of_instance` (under row-level security LIKE, not
 * leakproof, cannot use the trigram index or stop early on a list order's btree; the view
 * runs as its owner and applies the same tenant rule itself). `job_counts`: jobs per
 * instance and stage, kept by the projection (rows only for counts above zero), so a page
 * of the pipeline does not count 100,000 rows. An index for the highest job number (where
 * the job-number allocator starts).
 */
const jobsAtScale: SchemaMigration = {
  name: '0010_jobs_at_scale',
  async up(knex, schema) {
    await knex.raw(
      `CREATE VIEW ??.jobs_of_instance AS
         SELECT * FROM ??.jobs WHERE instance_id = nullif(current_setting('app.instance_id', true), '')::uuid`,
      [schema, schema],
    );
    await knex.raw('GRANT SELECT ON ??.jobs_of_instance TO crm_api', [schema]);
    await knex.raw(
      `CREATE TABLE ??.job_counts (
         instance_id uuid NOT NULL,
         stage_order smallint NOT NULL,
         total integer NOT NULL,
         PRIMARY KEY (instance_id, stage_order)
       )`,
      [schema],
    );
    await knex.raw(
      `INSERT INTO ??.job_counts (instance_id, stage_order, total)
         SELECT instance_id, stage_order, count(*) FROM ??.jobs GROUP BY instance_id, stage_order`,
      [schema, schema],
    );
    await isolateTenant(knex, schema, 'job_counts');
    await knex.raw('CREATE INDEX ON ??.jobs (instance_id, number) WHERE number IS NOT NULL', [schema]);
  },
};

/**
 * History rows say who made a change (the actor's id: a user may revert their own recent
 * changes) and which earlier change a revert undid. Rows written before have neither
 * (only an admin may revert those) until a rebuild fills them from the events.
 */
const historyReverts: SchemaMigration = {
  name: '0030_job_history_reverts',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.job_history ADD COLUMN IF NOT EXISTS actor_id text, ADD COLUMN IF NOT EXISTS revert_of text', [schema]);
  },
};

/**
 * The calendar asks which appointments overlap its visible range: start before its end and
 * end after its start. `appointment_end` (start + duration, 60 minutes when none; kept by
 * the projection) makes the block a range, and a GiST index over (instance, range) answers
 * the overlap (`&&`) without scanning the instance's past or future. btree_gist lets the
 * uuid sit in the same index. The tenant view is recreated so it has the new column.
 */
const appointmentRanges: SchemaMigration = {
  name: '0020_appointment_ranges',
  async up(knex, schema) {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public');
    await knex.raw('ALTER TABLE ??.jobs ADD COLUMN IF NOT EXISTS appointment_end timestamptz', [schema]);
    await knex.raw(
      `UPDATE ??.jobs SET appointment_end = appointment + make_interval(mins => coalesce(duration, ${DEFAULT_DURATION_MINUTES}))
         WHERE appointment IS NOT NULL`,
      [schema],
    );
    await knex.raw(
      `CREATE INDEX jobs_appointment_range ON ??.jobs USING gist (instance_id, tstzrange(appointment, appointment_end, '[)'))
         WHERE appointment IS NOT NULL`,
      [schema],
    );
    await knex.raw(
      `CREATE OR REPLACE VIEW ??.jobs_of_instance AS
         SELECT * FROM ??.jobs WHERE instance_id = nullif(current_setting('app.instance_id', true), '')::uuid`,
      [schema, schema],
    );
  },
};

/**
 * The vehicle columns (0041, vehicles slice) were added to `jobs` after `jobs_of_instance`
 * was made, and a view's `SELECT *` is expanded when it is created: the API's job list and
 * board answered every job with `vehicleId: null`. Recreated so it has them.
 */
const jobsViewVehicleColumns: SchemaMigration = {
  name: '0043_jobs_view_vehicle_columns',
  async up(knex, schema) {
    await knex.raw(
      `CREATE OR REPLACE VIEW ??.jobs_of_instance AS
         SELECT * FROM ??.jobs WHERE instance_id = nullif(current_setting('app.instance_id', true), '')::uuid`,
      [schema, schema],
    );
  },
};

/**
 * Job history keeps each change with exactly the keys field, oldValue and newValue as the array
 * [field, oldValue, newValue], as activity does since 0077 (shared/timeline.ts,
 * storedFieldChange): a job's creation lists every field, and its row was about 900 bytes that
 * a rebuild writes and PostgreSQL parses for every job. The same rule in SQL for the rows
 * written before, in their order.
 */
const historyCompactChanges: SchemaMigration = {
  name: '0078_job_history_compact_changes',
  async up(knex, schema) {
    await knex.raw(
      `UPDATE ??.job_history h
          SET changes = ${compactChangeListSql('h.changes')}
        WHERE jsonb_array_length(h.changes) > 0 AND jsonb_typeof(h.changes -> 0) = 'object'`,
      [schema],
    );
  },
};

/**
 * The jobs' B-tree on `(instance_id, lower(job_number))` served no statement: the job list
 * sorts by stage, date or name, the job-number allocator reads `(instance_id, number)`, and
 * a job number typed into search is found through the trigram index on `search`. It cost a
 * B-tree insertion per job written and a sort of every job in each rebuild.
 */
const jobNumberIndexDropped: SchemaMigration = {
  name: '0084_jobs_job_number_index_dropped',
  async up(knex, schema) {
    // By its definition, not its generated name (which another index could have taken first).
    const { rows } = await knex.raw<{ rows: Array<{ indexname: string }> }>(
      `SELECT indexname FROM pg_indexes
        WHERE schemaname = ? AND tablename = 'jobs' AND indexdef LIKE '%(instance_id, lower(job_number))'`,
      [schema],
    );
    for (const { indexname } of rows) await knex.raw('DROP INDEX ??.??', [schema, indexname]);
  },
};

export const pipelineMigrations: SchemaMigration[] = [
  pipelineTables,
  quoteCents,
  recordedTimes,
  jobsAtScale,
  historyReverts,
  appointmentRanges,
  jobsViewVehicleColumns,
  historyCompactChanges,
  jobNumberIndexDropped,
];
