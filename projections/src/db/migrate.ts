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

/** A secondary index's statement that a migration run left to the caller (`migrateReadModels`). */
export interface HeldIndex {
  table: string;
  statement: string;
}

/** Creates or updates the read-model tables in `schema` (the live one or a rebuild's). */
export async function migrateReadModels(
  knex: Knex,
  schema: string,
  options: {
    /**
     * Receives, in order, instead of running them, the statements that create a secondary
     * (not unique) index in `schema`: for a rebuild's fresh tables, which get their indexes
     * once their rows are in, creating them empty first only cost time. A statement that
     * would drop such an index, or a column or table it covers, makes the held indexes of
     * that table run first, as they would have.
     */
    holdIndexes?: HeldIndex[];
  } = {},
): Promise<[number, string[]]> {
  await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  const modules: Record<string, MigrationModule> = {};
  for (const migration of readModelMigrations) {
    if (modules[migration.name]) throw new Error(`Two read-model migrations are named ${migration.name}`);
    modules[migration.name] = bindSchema(migration, schema);
  }
  const held = options.holdIndexes;
  return (await knex.migrate.latest({
    migrationSource: listSource(modules),
    schemaName: schema,
    tableName: 'knex_migrations',
    ...(held ? { beforeAll: async (trx: Knex) => holdIndexesOf(trx, schema, held) } : {}),
  })) as [number, string[]];
}

const CREATE_INDEX = /^\s*CREATE\s+INDEX\s+(?:(?!ON\s)"?(\w+)"?\s+)?ON\s+(?:ONLY\s+)?"?(\w+)"?\."?(\w+)"?\s/i;
const DROPS = /\b(?:DROP|RENAME)\b/i;

/**
 * Makes the migrations' transaction hold back the statements `migrateReadModels` describes.
 * Only a transaction's own client is changed (it is this run's alone); without a transaction
 * around all the migrations, every statement runs.
 */
function holdIndexesOf(trx: Knex, schema: string, held: HeldIndex[]): void {
  if (!trx.isTransaction) return;
  const client = trx.client as { query(connection: unknown, query: { sql: string; bindings?: unknown[] }): Promise<unknown> };
  const run = client.query.bind(client);
  client.query = async (connection, query) => {
    const index = CREATE_INDEX.exec(query.sql);
    if (index && index[2] === schema && !query.bindings?.length) {
      held.push({ table: index[3]!, statement: query.sql });
      return { ...query, response: { command: 'CREATE', rowCount: null, rows: [] } };
    }
    if (DROPS.test(query.sql)) {
      // Which held indexes it may touch: those of a table it names, or whose index name
      // (PostgreSQL names one table_columns_idx) it names.
      const words = new Set(query.sql.match(/\w+/g));
      const touched = held.filter(({ table, statement }) => {
        const name = CREATE_INDEX.exec(statement)![1];
        return words.has(table) || (name !== undefined && words.has(name)) || [...words].some((word) => word.startsWith(`${table}_`));
      });
      for (const index of touched) {
        held.splice(held.indexOf(index), 1);
        await run(connection, { ...query, sql: index.statement, bindings: [] });
      }
    }
    return run(connection, query);
  };
}

function bindSchema(migration: SchemaMigration, schema: string): MigrationModule {
  return {
    up: (knex) => migration.up(knex, schema),
    down: async () => {
      throw new Error('Read models are rebuilt, not migrated down');
    },
  };
}
