import { isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/**
 * The vehicles slice's read-model migrations. Names are recorded in every database and
 * migrations run ordered by name across all slices (db/migrate.ts): never rename one.
 */

/**
 * Vehicles, listed per customer and found by VIN, its last 6 or 8 characters, or plate:
 * an index per customer, one on the VIN's tails (exact lookups, no pattern scan) and a
 * trigram index on the plate (a part of a plate is a substring search).
 */
const vehicleTables: SchemaMigration = {
  name: '0040_vehicles',
  async up(knex, schema) {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
    await knex.raw(
      `
      CREATE TABLE ??.vehicles (
        id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        year integer,
        make text NOT NULL,
        model text NOT NULL,
        trim text NOT NULL,
        vin text NOT NULL,
        plate text NOT NULL,
        plate_state text NOT NULL,
        color text NOT NULL,
        notes text NOT NULL,
        last_mileage integer,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        last_modified_at timestamptz NOT NULL,
        last_modified_by text NOT NULL,
        revision integer NOT NULL,
        plate_search text GENERATED ALWAYS AS (upper(regexp_replace(plate, '[\\s-]', '', 'g'))) STORED
      )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.vehicles (instance_id, customer_id, created_at DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.vehicles (instance_id, vin)', [schema]);
    await knex.raw('CREATE INDEX ON ??.vehicles (instance_id, right(vin, 6))', [schema]);
    await knex.raw('CREATE INDEX ON ??.vehicles (instance_id, right(vin, 8))', [schema]);
    await knex.raw('CREATE INDEX ON ??.vehicles USING gin (plate_search public.gin_trgm_ops)', [schema]);
    await isolateTenant(knex, schema, 'vehicles');
  },
};

/** A job is on a vehicle, with the odometer read when it came in and went out; the vehicle's page lists its jobs. */
const jobVehicleColumns: SchemaMigration = {
  name: '0041_job_vehicles',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.jobs ADD COLUMN vehicle_id uuid, ADD COLUMN mileage_in integer, ADD COLUMN mileage_out integer', [
      schema,
    ]);
    await knex.raw('CREATE INDEX ON ??.jobs (instance_id, vehicle_id) WHERE vehicle_id IS NOT NULL', [schema]);
  },
};

/**
 * The customer search finds a customer by their vehicles: a vehicle's year, make, model and
 * trim as its label reads them, its VIN and its plate, lower case, trigram-indexed. Read
 * through a view for the reason customers are (see the customers migration): under row-level
 * security the trigram index would sit unused behind LIKE, which is not leakproof.
 */
const vehicleSearch: SchemaMigration = {
  name: '0086_vehicle_search',
  async up(knex, schema) {
    await knex.raw(
      `ALTER TABLE ??.vehicles ADD COLUMN search text GENERATED ALWAYS AS (
         lower(btrim(regexp_replace(coalesce(year::text, '') || ' ' || make || ' ' || model || ' ' || trim, '\\s+', ' ', 'g'))
               || E'\\n' || vin || E'\\n' || plate)
       ) STORED`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.vehicles USING gin (search public.gin_trgm_ops)', [schema]);
    await knex.raw(
      `CREATE VIEW ??.vehicles_of_instance AS
         SELECT * FROM ??.vehicles WHERE instance_id = nullif(current_setting('app.instance_id', true), '')::uuid`,
      [schema, schema],
    );
    await knex.raw('GRANT SELECT ON ??.vehicles_of_instance TO crm_api', [schema]);
    // The labels each of a customer's vehicle records was made with (kept when the record is
    // renamed or deleted): a vehicle typed on the customer that became a record is then read
    // through its record, as it is now or not at all, never again as the old text.
    await knex.raw(
      `CREATE TABLE ??.customer_vehicle_labels (
         instance_id uuid NOT NULL,
         customer_id uuid NOT NULL,
         vehicle_id uuid NOT NULL,
         label text NOT NULL,
         PRIMARY KEY (customer_id, vehicle_id, label)
       )`,
      [schema],
    );
    await isolateTenant(knex, schema, 'customer_vehicle_labels');
  },
};

/**
 * The customer search no longer reads the vehicles' own search text: each customer's row
 * carries its records' (`vehicle_search`, 0087), so the vehicles' column, its trigram index
 * (written on every vehicle change) and the view the search read it through go.
 */
const vehicleSearchOnCustomers: SchemaMigration = {
  name: '0088_vehicle_search_on_customers',
  async up(knex, schema) {
    await knex.raw('DROP VIEW ??.vehicles_of_instance', [schema]);
    await knex.raw('ALTER TABLE ??.vehicles DROP COLUMN search', [schema]);
  },
};

export const vehiclesMigrations: SchemaMigration[] = [vehicleTables, jobVehicleColumns, vehicleSearch, vehicleSearchOnCustomers];
