import { isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/**
 * The repair orders' read models (see projection.ts). Amounts are integer cents (bigint).
 * Never rename a migration: names are recorded in every database and run ordered by name
 * across all slices.
 */
const repairOrderTables: SchemaMigration = {
  name: '0045_repair_orders',
  async up(knex, schema) {
    // One row per job with a repair order: its folded state (what the next batch applies
    // events to) and the money the lists, the board and the customer page show.
    await knex.raw(
      `CREATE TABLE ??.job_money (
         job_id uuid PRIMARY KEY,
         instance_id uuid NOT NULL,
         customer_id uuid,
         state jsonb NOT NULL,
         lines_count integer NOT NULL,
         parts bigint NOT NULL,
         labor bigint NOT NULL,
         fees bigint NOT NULL,
         discounts bigint NOT NULL,
         tax bigint NOT NULL,
         total bigint NOT NULL,
         paid bigint NOT NULL,
         invoice_number integer,
         invoice_total bigint,
         estimate_status text,
         revision integer NOT NULL
       )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.job_money (instance_id, customer_id)', [schema]);
    await isolateTenant(knex, schema, 'job_money');
    // Every invoice revision as issued; `delta_*`: what it changed against the revision
    // before (the first: all of it), so a report over a range counts each sale once.
    await knex.raw(
      `CREATE TABLE ??.invoices (
         event_id uuid PRIMARY KEY,
         instance_id uuid NOT NULL,
         job_id uuid NOT NULL,
         customer_id uuid,
         job_number text NOT NULL,
         customer_name text NOT NULL,
         invoice_number integer NOT NULL,
         revision integer NOT NULL,
         issued_at timestamptz NOT NULL,
         issued_by text NOT NULL,
         parts bigint NOT NULL,
         labor bigint NOT NULL,
         fees bigint NOT NULL,
         discounts bigint NOT NULL,
         tax bigint NOT NULL,
         total bigint NOT NULL,
         delta_parts bigint NOT NULL,
         delta_labor bigint NOT NULL,
         delta_fees bigint NOT NULL,
         delta_discounts bigint NOT NULL,
         delta_tax bigint NOT NULL,
         delta_total bigint NOT NULL,
         UNIQUE (instance_id, invoice_number, revision)
       )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.invoices (instance_id, issued_at)', [schema]);
    await knex.raw('CREATE INDEX ON ??.invoices (instance_id, customer_id)', [schema]);
    await isolateTenant(knex, schema, 'invoices');
    await knex.raw(
      `CREATE TABLE ??.payments (
         payment_id uuid PRIMARY KEY,
         event_id uuid NOT NULL,
         instance_id uuid NOT NULL,
         job_id uuid NOT NULL,
         customer_id uuid,
         kind text NOT NULL,
         amount bigint NOT NULL,
         method text NOT NULL,
         reference text NOT NULL,
         reason text NOT NULL,
         received_at timestamptz NOT NULL,
         recorded_at timestamptz NOT NULL,
         recorded_by text NOT NULL
       )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.payments (instance_id, received_at)', [schema]);
    await knex.raw('CREATE INDEX ON ??.payments (job_id)', [schema]);
    await isolateTenant(knex, schema, 'payments');
  },
};

/**
 * The money tables kept the job's customer as of the event, which nothing read and which a
 * customer merge (it moves the job, not its money rows) left stale while a rebuild would
 * write the new one: the live tables and a rebuild differed. A job's customer is the jobs
 * row's; the money tables key on the job.
 */
const moneyWithoutCustomer: SchemaMigration = {
  name: '0075_money_without_customer',
  async up(knex, schema) {
    for (const table of ['job_money', 'invoices', 'payments'])
      await knex.raw('ALTER TABLE ??.?? DROP COLUMN IF EXISTS customer_id', [schema, table]);
  },
};

export const repairOrderMigrations: SchemaMigration[] = [repairOrderTables, moneyWithoutCustomer];
