import { isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/**
 * The platform slice's read-model migrations. Names are recorded in every database and
 * migrations run ordered by name across all slices (db/migrate.ts): never rename one.
 */

// Also creates identity's users and user_permissions and audit's activity table (written before the slices had folders).
const platformTables: SchemaMigration = {
  name: '0001_platform',
  async up(knex, schema) {
    await knex.raw('GRANT USAGE ON SCHEMA ?? TO crm_api', [schema]);
    await knex.raw(
      `
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
      )`,
      [schema],
    );
    await knex.raw('GRANT SELECT ON ??.crm_instances TO crm_api', [schema]);
    await knex.raw(
      `
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
      )`,
      [schema],
    );
    await knex.raw('CREATE UNIQUE INDEX ON ??.users (instance_id, lower(username))', [schema]);
    await isolateTenant(knex, schema, 'users');
    await knex.raw(
      `
      CREATE TABLE ??.user_permissions (
        user_id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        role text NOT NULL,
        can_read boolean NOT NULL,
        can_write boolean NOT NULL,
        can_delete boolean NOT NULL,
        can_manage_users boolean NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.user_permissions (instance_id)', [schema]);
    await isolateTenant(knex, schema, 'user_permissions');
    await knex.raw(
      `
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
      )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.activity (instance_id, position_commit DESC, position_prepare DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.activity (instance_id, entity_type, occurred_at DESC)', [schema]);
    await isolateTenant(knex, schema, 'activity');
  },
};

/** A shop's own time zone (null: the server's) and whether its public request page is on. */
const instanceSettings: SchemaMigration = {
  name: '0011_instance_settings',
  async up(knex, schema) {
    await knex.raw(`ALTER TABLE ??.crm_instances ADD COLUMN time_zone text, ADD COLUMN public_requests boolean NOT NULL DEFAULT false`, [
      schema,
    ]);
  },
};

export const platformMigrations: SchemaMigration[] = [platformTables, instanceSettings];
