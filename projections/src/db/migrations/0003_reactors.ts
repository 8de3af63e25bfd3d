import type { Knex } from 'knex';

/**
 * Runtime tables of projectors and reactors, in `public` beside their checkpoints (a
 * read-model rebuild swaps `rm` and must not touch them):
 * - parked_events: events a projector or reactor could not handle and skipped, for an
 *   operator to fix and replay;
 * - reactions: what a reactor did about one event (how many aggregates it changed, its
 *   last append), written with its checkpoint, so a request can answer with it;
 * - cascade_job_customers / cascade_deleted_customers: the customer-deletion cascade's
 *   own view of which live job links to which customer, and which customers are deleted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE parked_events (
      checkpoint_name text NOT NULL,
      position_commit numeric NOT NULL,
      position_prepare numeric NOT NULL,
      event_id text NOT NULL,
      stream_id text NOT NULL,
      type text NOT NULL,
      error text NOT NULL,
      parked_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (checkpoint_name, position_commit, position_prepare)
    )`);
  await knex.raw(`
    CREATE TABLE reactions (
      reactor text NOT NULL,
      event_id text NOT NULL,
      affected integer NOT NULL,
      last_position_commit numeric,
      last_position_prepare numeric,
      recorded_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (reactor, event_id)
    )`);
  await knex.raw(`
    CREATE TABLE cascade_job_customers (
      job_id text PRIMARY KEY,
      instance_id text NOT NULL,
      customer_id text NOT NULL
    )`);
  await knex.raw('CREATE INDEX cascade_job_customers_customer_idx ON cascade_job_customers (customer_id)');
  await knex.raw(`
    CREATE TABLE cascade_deleted_customers (
      customer_id text PRIMARY KEY,
      instance_id text NOT NULL,
      deletion_event_id text NOT NULL
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE cascade_deleted_customers');
  await knex.raw('DROP TABLE cascade_job_customers');
  await knex.raw('DROP TABLE reactions');
  await knex.raw('DROP TABLE parked_events');
}
