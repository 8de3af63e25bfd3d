import type { Knex } from 'knex';
import * as eventStore from './migrations/0001_event_store.ts';
import * as runtime from './migrations/0002_runtime.ts';
import * as reactors from './migrations/0003_reactors.ts';
import * as appendFunction from './migrations/0004_append_function.ts';
import * as appendRecordedAt from './migrations/0005_append_recorded_at.ts';
import * as idempotencyKeys from './migrations/0006_idempotency_keys.ts';
import * as publicRequestHits from './migrations/0006_public_request_hits.ts';
import * as rateLimits from './migrations/0006_rate_limits.ts';
import * as cascadeRestore from './migrations/0007_cascade_restore.ts';
import * as authNotify from './migrations/0008_auth_notify.ts';
import * as endedSessionsNotify from './migrations/0009_ended_sessions_notify.ts';
import * as appendGivenTime from './migrations/0010_append_given_time.ts';
import * as requireRow from './migrations/0011_require_row.ts';
import * as asyncReadModelsCurrent from './migrations/0012_async_read_models_current.ts';
import * as lockCheckpointBefore from './migrations/0013_lock_checkpoint_before.ts';
import * as appendWithoutRowReads from './migrations/0014_append_without_row_reads.ts';
import { auditMigrations } from '../audit/migrations.ts';
import { customersMigrations } from '../customers/migrations.ts';
import { identityMigrations } from '../identity/migrations.ts';
import { insightsMigrations } from '../insights/migrations.ts';
import { messagesMigrations } from '../messages/migrations.ts';
import { pipelineMigrations } from '../pipeline/migrations.ts';
import { platformMigrations } from '../platform/migrations.ts';
import { recordsMigrations } from '../records/migrations.ts';
import { repairOrderMigrations } from '../repair-orders/migrations.ts';
import { serviceRequestsMigrations } from '../service-requests/migrations.ts';
import { vehiclesMigrations } from '../vehicles/migrations.ts';
import type { SchemaMigration } from '../shared/migrations.ts';

export const READ_MODEL_SCHEMA = 'rm';

/**
 * Every slice's read-model migrations. They run ordered by name (listSource sorts them), not
 * by slice, and the names are recorded in every database: a new one takes the next number.
 */
export const readModelMigrations: SchemaMigration[] = [
  ...platformMigrations,
  ...identityMigrations,
  ...customersMigrations,
  ...pipelineMigrations,
  ...auditMigrations,
  ...serviceRequestsMigrations,
  ...recordsMigrations,
  ...insightsMigrations,
  ...repairOrderMigrations,
  ...messagesMigrations,
  ...vehiclesMigrations,
];

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** The event store's and runtime's tables in `public`, run ordered by name; the names are recorded in every database. */
export const eventStoreMigrations: Record<string, MigrationModule> = {
  '0001_event_store': eventStore,
  '0002_runtime': runtime,
  '0003_reactors': reactors,
  '0004_append_function': appendFunction,
  '0005_append_recorded_at': appendRecordedAt,
  '0006_idempotency_keys': idempotencyKeys,
  '0006_public_request_hits': publicRequestHits,
  '0006_rate_limits': rateLimits,
  '0007_cascade_restore': cascadeRestore,
  '0008_auth_notify': authNotify,
  '0009_ended_sessions_notify': endedSessionsNotify,
  '0010_append_given_time': appendGivenTime,
  '0011_require_row': requireRow,
  '0012_async_read_models_current': asyncReadModelsCurrent,
  '0013_lock_checkpoint_before': lockCheckpointBefore,
  '0014_append_without_row_reads': appendWithoutRowReads,
};

/** Migrations are listed in code (not read from a folder) so bundling cannot lose one. */
function listSource(migrations: Record<string, MigrationModule>): Knex.MigrationSource<string> {
  return {
    getMigrations: async () => Object.keys(migrations).sort(),
    getMigrationName: (name) => name,
    getMigration: async (name) => migrations[name]!,
  };
}

/** The event store's and runtime's tables and functions in `public`, as every database has them. */
export async function migrateEventStore(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource: listSource(eventStoreMigrations) });
}

/** Event store and runtime tables in `public`, then the read models in `rm`. */
export async function migrate(knex: Knex): Promise<{ readModelsChanged: boolean }> {
  await migrateEventStore(knex);
  const [, applied] = await migrateReadModels(knex, READ_MODEL_SCHEMA);
  return { readModelsChanged: applied.length > 0 };
}

/** Creates or updates the read-model tables in `schema` (the live one or a rebuild's). */
export async function migrateReadModels(knex: Knex, schema: string): Promise<[number, string[]]> {
  await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  const modules: Record<string, MigrationModule> = {};
  for (const migration of readModelMigrations) {
    if (modules[migration.name]) throw new Error(`Two read-model migrations are named ${migration.name}`);
    modules[migration.name] = bindSchema(migration, schema);
  }
  return (await knex.migrate.latest({
    migrationSource: listSource(modules),
    schemaName: schema,
    tableName: 'knex_migrations',
  })) as [number, string[]];
}

function bindSchema(migration: SchemaMigration, schema: string): MigrationModule {
  return {
    up: (knex) => migration.up(knex, schema),
    down: async () => {
      throw new Error('Read models are rebuilt, not migrated down');
    },
  };
}
