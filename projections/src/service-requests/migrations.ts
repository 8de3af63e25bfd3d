import { isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/**
 * The service requests' read-model migrations. Names are recorded in every database and
 * migrations run ordered by name across all slices (db/migrate.ts): never rename one.
 */

/**
 * Requests listed newest first in keyset pages and searched by substring (trigram index on
 * the generated search text). `is_new_public`: a request from the public page nobody on the
 * staff has acted on yet (the navigation badge counts these).
 */
const serviceRequestTables: SchemaMigration = {
  name: '0011_service_requests',
  async up(knex, schema) {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
    await knex.raw(
      `
      CREATE TABLE ??.service_requests (
        id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        number integer NOT NULL,
        customer_name text NOT NULL,
        contact_email text NOT NULL,
        vehicle_type text NOT NULL,
        service_type text NOT NULL,
        scheduled_date text NOT NULL,
        additional_notes text NOT NULL,
        status text NOT NULL,
        source text NOT NULL,
        is_new_public boolean NOT NULL,
        job_id uuid,
        job_number text,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        last_modified_at timestamptz NOT NULL,
        last_modified_by text NOT NULL,
        revision integer NOT NULL,
        search text GENERATED ALWAYS AS (
          lower(customer_name || E'\\n' || contact_email || E'\\n' || vehicle_type || E'\\n' || service_type || E'\\n' || additional_notes)
        ) STORED
      )`,
      [schema],
    );
    await knex.raw('CREATE UNIQUE INDEX ON ??.service_requests (instance_id, number)', [schema]);
    await knex.raw('CREATE INDEX ON ??.service_requests (instance_id, created_at DESC, id DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.service_requests (instance_id, status)', [schema]);
    await knex.raw('CREATE INDEX ON ??.service_requests (job_id) WHERE job_id IS NOT NULL', [schema]);
    await knex.raw('CREATE INDEX ON ??.service_requests USING gin (search public.gin_trgm_ops)', [schema]);
    await isolateTenant(knex, schema, 'service_requests');
    // As for customers: under row-level security LIKE (not leakproof) could not use the
    // trigram index, so the API searches through a view that applies the tenant rule itself.
    await knex.raw(
      `CREATE VIEW ??.service_requests_of_instance AS
         SELECT * FROM ??.service_requests WHERE instance_id = nullif(current_setting('app.instance_id', true), '')::uuid`,
      [schema, schema],
    );
    await knex.raw('GRANT SELECT ON ??.service_requests_of_instance TO crm_api', [schema]);
  },
};

/** A phone to call back on (digits; '' for none, as every request before it has). */
const serviceRequestPhone: SchemaMigration = {
  name: '0042_service_request_contact_phone',
  async up(knex, schema) {
    await knex.raw(`ALTER TABLE ??.service_requests ADD COLUMN contact_phone text NOT NULL DEFAULT ''`, [schema]);
    // A view's `SELECT *` is expanded when it is created: recreate it so it carries the new column.
    await knex.raw(
      `CREATE OR REPLACE VIEW ??.service_requests_of_instance AS
         SELECT * FROM ??.service_requests WHERE instance_id = nullif(current_setting('app.instance_id', true), '')::uuid`,
      [schema, schema],
    );
  },
};

export const serviceRequestsMigrations: SchemaMigration[] = [serviceRequestTables, serviceRequestPhone];
