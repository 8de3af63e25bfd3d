import { isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/**
 * The insights read model (see projection.ts). Never rename a migration: names are recorded
 * in every database and run ordered by name across all slices.
 */
const insightTables: SchemaMigration = {
  name: '0032_insights',
  async up(knex, schema) {
    // One row per job: what the figures name it by, and whether it still exists.
    await knex.raw(
      `CREATE TABLE ??.insight_jobs (
         job_id uuid PRIMARY KEY,
         instance_id uuid NOT NULL,
         job_number text NOT NULL,
         name text NOT NULL,
         tech text NOT NULL,
         quote numeric(14, 2),
         deleted boolean NOT NULL DEFAULT false,
         revision integer NOT NULL
       )`,
      [schema],
    );
    await isolateTenant(knex, schema, 'insight_jobs');
    // One row per stay of a job in a stage: entered by one event, left by the next stage
    // event (null while it is there). Tech and quote as they were when it entered.
    await knex.raw(
      `CREATE TABLE ??.insight_stage_intervals (
         event_id uuid PRIMARY KEY,
         instance_id uuid NOT NULL,
         job_id uuid NOT NULL,
         stage text NOT NULL,
         entered_at timestamptz NOT NULL,
         entered_revision integer NOT NULL,
         left_at timestamptz,
         tech text NOT NULL,
         quote numeric(14, 2)
       )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.insight_stage_intervals (instance_id, stage, entered_at)', [schema]);
    await knex.raw('CREATE INDEX ON ??.insight_stage_intervals (instance_id, left_at)', [schema]);
    await knex.raw('CREATE INDEX ON ??.insight_stage_intervals (job_id) WHERE left_at IS NULL', [schema]);
    await isolateTenant(knex, schema, 'insight_stage_intervals');
  },
};

export const insightsMigrations: SchemaMigration[] = [insightTables];
