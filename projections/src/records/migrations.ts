import { isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/**
 * Deleted jobs and customers, newest deletion first, for the admins' "Deleted records"
 * page: who deleted each and when. A restore takes the row out. Never rename a migration.
 */
const deletedRecords: SchemaMigration = {
  name: '0031_deleted_records',
  async up(knex, schema) {
    await knex.raw(
      `CREATE TABLE ??.deleted_records (
         record_id uuid PRIMARY KEY,
         instance_id uuid NOT NULL,
         kind text NOT NULL,
         number text NOT NULL,
         name text NOT NULL,
         deleted_at timestamptz NOT NULL,
         deleted_by text NOT NULL,
         deletion_event_id text NOT NULL,
         -- A job deleted with its customer: the customer's deletion event (its causation).
         caused_by text,
         revision integer NOT NULL
       )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.deleted_records (instance_id, deleted_at DESC, record_id)', [schema]);
    await knex.raw('CREATE INDEX ON ??.deleted_records (deletion_event_id)', [schema]);
    await isolateTenant(knex, schema, 'deleted_records');
  },
};

export const recordsMigrations: SchemaMigration[] = [deletedRecords];
