import type { Knex } from 'knex';

/**
 * The customer cascade's memory of which jobs a customer's deletion removed (from each
 * JobDeleted with reason 'customer-deleted', keyed by its causation: the CustomerDeleted
 * event), so the customer's restore brings exactly those jobs back. Beside the cascade's
 * other tables in `public` (a read-model rebuild must not touch a reactor's state).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE cascade_deleted_jobs (
      job_id text PRIMARY KEY,
      instance_id text NOT NULL,
      deletion_event_id text NOT NULL
    )`);
  await knex.raw('CREATE INDEX cascade_deleted_jobs_deletion_idx ON cascade_deleted_jobs (deletion_event_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE cascade_deleted_jobs');
}
