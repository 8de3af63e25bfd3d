import knexFactory from 'knex';
import { expect, test } from 'vitest';
import { migrate, READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { createTestDatabase } from '../src/testing/database.ts';

/**
 * The API lists jobs, customers and service requests through `<table>_of_instance` views
 * that apply the tenant rule themselves. A view's `SELECT *` is expanded when the view is
 * made, so a column added to its table later is missing from every list until the view is
 * made again: the API then answers it as null or empty, as the job list once did with
 * `vehicleId`. Every such view shows every column of its table.
 */
test('every tenant view has every column of its table, after all migrations', async () => {
  const db = await createTestDatabase();
  const knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 2 } });
  try {
    await migrate(knex);
    const columns = async (name: string) =>
      (
        (await knex('information_schema.columns')
          .where({ table_schema: READ_MODEL_SCHEMA, table_name: name })
          .orderBy('column_name')
          .pluck('column_name')) as string[]
      ).join(', ');
    const views = (await knex('information_schema.views')
      .where('table_schema', READ_MODEL_SCHEMA)
      .andWhereLike('table_name', '%\\_of\\_instance')
      .orderBy('table_name')
      .pluck('table_name')) as string[];
    expect(views).toEqual(expect.arrayContaining(['customers_of_instance', 'jobs_of_instance', 'service_requests_of_instance']));
    for (const view of views) {
      const table = view.replace(/_of_instance$/, '');
      expect({ view, columns: await columns(view) }).toEqual({ view, columns: await columns(table) });
    }
  } finally {
    await knex.destroy();
    await db.drop();
  }
});
