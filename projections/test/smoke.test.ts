import pg from 'pg';
import { expect, test } from 'vitest';
import { createTestDatabase } from '../src/testing/database.ts';

test('a fresh database answers', async () => {
  const db = await createTestDatabase();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query('select 1 as one');
  expect(rows[0].one).toBe(1);
  await client.end();
  await db.drop();
});
