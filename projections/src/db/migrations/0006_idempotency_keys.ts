import type { Knex } from 'knex';

/**
 * The answers of commands sent with an `Idempotency-Key` header, per caller (scope: the
 * instance and user, or the super admin), so a retry gets the first answer instead of
 * running the command again, also after a restart. `status` is null while the first request
 * is still running.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE idempotency_keys (
      scope text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      status integer,
      headers jsonb,
      body text,
      body_is_json boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      PRIMARY KEY (scope, key)
    )`);
  await knex.raw('CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE idempotency_keys');
}
