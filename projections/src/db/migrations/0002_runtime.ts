import type { Knex } from 'knex';

/** Projection checkpoints, the session store, and the API role that row-level security binds. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE projection_checkpoints (
      name text PRIMARY KEY,
      position_commit numeric NOT NULL,
      position_prepare numeric NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw(`
    CREATE TABLE sessions (
      id text PRIMARY KEY,
      data jsonb NOT NULL,
      kind text,
      user_id uuid,
      instance_id uuid,
      expires_at timestamptz NOT NULL
    )`);
  await knex.raw('CREATE INDEX sessions_user_idx ON sessions (user_id)');
  await knex.raw('CREATE INDEX sessions_expires_idx ON sessions (expires_at)');
  // Roles are cluster-wide, so another database may have made it already.
  await knex.raw(`
    DO $$ BEGIN
      CREATE ROLE crm_api NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END $$`);
  await knex.raw(`
    DO $$ BEGIN
      EXECUTE format('GRANT crm_api TO %I', current_user);
    EXCEPTION WHEN others THEN NULL;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE sessions');
  await knex.raw('DROP TABLE projection_checkpoints');
}
