import type { Knex } from 'knex';

export interface SchemaMigration {
  name: string;
  up(knex: Knex, schema: string): Promise<void>;
}

/**
 * Row-level security: API queries run as role crm_api with `app.instance_id` set per
 * transaction, so a query that forgets its instance filter still sees only its tenant.
 * The projector writes as the table owner, which bypasses the policy.
 */
export async function isolateTenant(knex: Knex, schema: string, table: string): Promise<void> {
  await knex.raw('ALTER TABLE ??.?? ENABLE ROW LEVEL SECURITY', [schema, table]);
  await knex.raw(
    `CREATE POLICY tenant_isolation ON ??.?? FOR ALL TO crm_api
       USING (instance_id = nullif(current_setting('app.instance_id', true), '')::uuid)`,
    [schema, table],
  );
  await knex.raw('GRANT SELECT ON ??.?? TO crm_api', [schema, table]);
}

const platform: SchemaMigration = {
  name: '0001_platform',
  async up(knex, schema) {
    await knex.raw('GRANT USAGE ON SCHEMA ?? TO crm_api', [schema]);
    await knex.raw(`
      CREATE TABLE ??.crm_instances (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        subdomain text NOT NULL UNIQUE,
        display_name text NOT NULL,
        description text NOT NULL,
        features jsonb NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL
      )`, [schema]);
    await knex.raw('GRANT SELECT ON ??.crm_instances TO crm_api', [schema]);
    await knex.raw(`
      CREATE TABLE ??.users (
        id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        username text NOT NULL,
        display_name text NOT NULL,
        role text NOT NULL,
        is_locked boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        last_login_at timestamptz
      )`, [schema]);
    await knex.raw('CREATE UNIQUE INDEX ON ??.users (instance_id, lower(username))', [schema]);
    await isolateTenant(knex, schema, 'users');
    await knex.raw(`
      CREATE TABLE ??.user_permissions (
        user_id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        role text NOT NULL,
        can_read boolean NOT NULL,
        can_write boolean NOT NULL,
        can_delete boolean NOT NULL,
        can_manage_users boolean NOT NULL,
        created_at timestamptz NOT NULL
      )`, [schema]);
    await knex.raw('CREATE INDEX ON ??.user_permissions (instance_id)', [schema]);
    await isolateTenant(knex, schema, 'user_permissions');
    await knex.raw(`
      CREATE TABLE ??.activity (
        event_id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        position_commit numeric NOT NULL,
        position_prepare numeric NOT NULL,
        stream_id text NOT NULL,
        event_type text NOT NULL,
        entity_type text NOT NULL,
        entity_id text NOT NULL,
        actor_kind text NOT NULL,
        actor_id text NOT NULL,
        actor_name text NOT NULL,
        summary text NOT NULL,
        changes jsonb NOT NULL DEFAULT '[]',
        occurred_at timestamptz NOT NULL
      )`, [schema]);
    await knex.raw('CREATE INDEX ON ??.activity (instance_id, position_commit DESC, position_prepare DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.activity (instance_id, entity_type, occurred_at DESC)', [schema]);
    await isolateTenant(knex, schema, 'activity');
  },
};

/** Ordered; each later slice appends its own. */
export const readModelMigrations: SchemaMigration[] = [platform];
