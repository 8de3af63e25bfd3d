import type { Knex } from 'knex';

/**
 * Rate-limit windows shared by every API process on the database (sign-in attempts per
 * client IP, PIN changes per user): one row per key, counted and reset in one statement.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      hits integer NOT NULL,
      reset_at timestamptz NOT NULL
    )`);
  await knex.raw('CREATE INDEX rate_limits_reset_idx ON rate_limits (reset_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE rate_limits');
}
