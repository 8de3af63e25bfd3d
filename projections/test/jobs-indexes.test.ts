import { afterAll, beforeAll, expect, test } from 'vitest';
import { READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { pipelineMigrations } from '../src/pipeline/migrations.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';

/**
 * Every index on `jobs` is built again by each rebuild and written by each job's insert, so
 * it must serve a statement; the one on `(instance_id, lower(job_number))` served none.
 */

let env: StoreDatabase | undefined;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 2 });
});

afterAll(() => env?.close());

async function jobsIndexes(): Promise<string[]> {
  const { rows } = await env!.knex.raw<{ rows: Array<{ indexdef: string }> }>(
    `SELECT indexdef FROM pg_indexes WHERE schemaname = ? AND tablename = 'jobs' ORDER BY indexname`,
    [READ_MODEL_SCHEMA],
  );
  return rows.map((row) => row.indexdef);
}

test('a migrated database has no index on the jobs’ lower-cased job number, and keeps the others', async () => {
  const indexes = await jobsIndexes();
  expect(indexes.filter((definition) => definition.includes('job_number'))).toEqual([]);
  // The list orders, the allocator's highest number and the search stay indexed.
  expect(indexes.some((definition) => definition.includes('(instance_id, lower(name), id)'))).toBe(true);
  expect(indexes.some((definition) => definition.includes('(instance_id, number)'))).toBe(true);
  expect(indexes.some((definition) => definition.includes('gin (search'))).toBe(true);
});

test('the migration drops the index from a database that has it, whatever its name', async () => {
  const knex = env!.knex;
  await knex.raw('CREATE INDEX jobs_number_text_idx ON ??.jobs (instance_id, lower(job_number))', [READ_MODEL_SCHEMA]);
  const before = await jobsIndexes();
  expect(before.filter((definition) => definition.includes('lower(job_number)'))).toHaveLength(1);
  const migration = pipelineMigrations.find((m) => m.name === '0084_jobs_job_number_index_dropped')!;
  await migration.up(knex, READ_MODEL_SCHEMA);
  expect(await jobsIndexes()).toEqual(before.filter((definition) => !definition.includes('lower(job_number)')));
});
