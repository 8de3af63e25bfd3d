import knexFactory, { type Knex } from 'knex';
import { migrate, READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { createPostgresEventStore } from '../src/eventstore/postgres.ts';
import type { EventStore } from '../src/eventstore/port.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/database.ts';

const readModelTable = (knex: Knex, table: string) => knex.withSchema(READ_MODEL_SCHEMA).from(table);

/** A test file's own database: migrated, with a knex pool and the PostgreSQL event store on it. */
export interface StoreDatabase {
  db: TestDatabase;
  knex: Knex;
  store: EventStore;
  /** A read-model table. */
  rm(table: string): ReturnType<typeof readModelTable>;
  /** Closes the store and the pool, then drops the database. */
  close(): Promise<void>;
}

/** Opens one for a test file (in its beforeAll; `close` in its afterAll). */
export async function openStoreDatabase({ poolMax }: { poolMax: number }): Promise<StoreDatabase> {
  const db = await createTestDatabase();
  const knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: poolMax } });
  try {
    await migrate(knex);
  } catch (error) {
    await knex.destroy();
    await db.drop();
    throw error;
  }
  const store = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 50 });
  return {
    db,
    knex,
    store,
    rm: (table) => readModelTable(knex, table),
    async close() {
      await store.close();
      await knex.destroy();
      await db.drop();
    },
  };
}
