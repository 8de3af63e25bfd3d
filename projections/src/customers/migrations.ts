import { isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/**
 * The customers slice's read-model migrations. Names are recorded in every database and
 * migrations run ordered by name across all slices (db/migrate.ts): never rename one.
 */

/**
 * Customers, listed newest first with keyset paging and searched by substring at 100,000
 * rows per instance: a btree for the order, a trigram GIN index for the search text. The
 * extension lives in `public` (never in a read-model schema a rebuild drops), so the
 * operator class is named with its schema.
 */
const customerTables: SchemaMigration = {
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
 * What a customer's card and the customer search read of their vehicle records, on the
 * customer's own row (written by the customer-vehicle-list projection): `vehicle_list`, the
 * card's Vehicles as a JSON array of labels, and `vehicle_search`, the records' labels, VINs
 * and plates, which the search text now takes in, so the list and the search read one row
 * per customer. The search column is made again with it (a generated column's expression
 * cannot change), and the view over the table with it (it lists the columns it had).
 * Customers that have vehicle records get theirs from a rebuild of the read models.
 */
const customerVehicleList: SchemaMigration = {
  name: '0087_customer_vehicle_list',
  async up(knex, schema) {
    await knex.raw('DROP VIEW ??.customers_of_instance', [schema]);
    await knex.raw(
      `ALTER TABLE ??.customers ADD COLUMN vehicle_list json NOT NULL DEFAULT '[]',
         ADD COLUMN vehicle_search text NOT NULL DEFAULT '', DROP COLUMN search`,
      [schema],
    );
    await knex.raw(
      `ALTER TABLE ??.customers ADD COLUMN search text GENERATED ALWAYS AS (
         lower(name || E'\\n' || phone || E'\\n' || email || E'\\n' || address || E'\\n' || vehicles || E'\\n' || vehicle_search)
       ) STORED`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.customers USING gin (search public.gin_trgm_ops)', [schema]);
    await knex.raw(
      `CREATE VIEW ??.customers_of_instance AS
         SELECT * FROM ??.customers WHERE instance_id = nullif(current_setting('app.instance_id', true), '')::uuid`,
      [schema, schema],
    );
    await knex.raw('GRANT SELECT ON ??.customers_of_instance TO crm_api', [schema]);
  },
};

export const customersMigrations: SchemaMigration[] = [customerTables, customerVehicleList];
