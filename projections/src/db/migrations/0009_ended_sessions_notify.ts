import type { Knex } from 'knex';

/**
 * A session the server ends (a lock, a PIN reset, a closed CRM) is kept for a while as a note
 * of why, its kind cleared (it signs nobody in), rather than deleted: that change, too, must
 * drop every API process's cached copy of it, as a deleted session does (crm_auth at commit).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TRIGGER sessions_ended_notify_auth AFTER UPDATE OF kind ON sessions
      FOR EACH ROW WHEN (OLD.kind IS DISTINCT FROM NEW.kind) EXECUTE FUNCTION crm_notify_auth()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER sessions_ended_notify_auth ON sessions');
}
