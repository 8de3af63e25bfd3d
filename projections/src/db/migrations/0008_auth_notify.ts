import type { Knex } from 'knex';

/**
 * API processes cache each session with its user (one query less per request). What would
 * make a cached copy wrong (a session ended, a user or its permissions changed, an instance
 * changed) notifies channel `crm_auth` at commit, and every process drops its copies. The
 * function is here; its triggers on the read-model tables come with those tables (identity's
 * 0070_auth_notify), so a rebuild's fresh tables carry them too. Rows written in a rebuild's
 * schema stay quiet: nobody reads them until the swap, which renames the schema to `rm`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION crm_notify_auth() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_SCHEMA IN ('public', 'rm') THEN
        PERFORM pg_notify('crm_auth', '');
      END IF;
      RETURN NULL;
    END $$`);
  // Row-level: a DELETE that ends no session says nothing (the periodic purge of expired ones
  // mostly ends none). Notifications with the same payload in one transaction are sent once.
  await knex.raw(`
    CREATE TRIGGER sessions_notify_auth AFTER DELETE ON sessions
      FOR EACH ROW EXECUTE FUNCTION crm_notify_auth()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER sessions_notify_auth ON sessions');
  await knex.raw('DROP FUNCTION crm_notify_auth()');
}
