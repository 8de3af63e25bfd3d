import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import type {} from '@crm/projections/testing/global-setup';

/** `npm run seed` as a person runs it: the built script, against a database of its own. */
const REPO = path.resolve(import.meta.dirname, '../..');
let db: TestDatabase;
let run: ReturnType<typeof spawnSync>;

beforeAll(() => {
  return (async () => {
    db = await createTestDatabase();
    run = spawnSync(process.execPath, [path.join(REPO, 'backend/dist/seed-main.js')], {
      cwd: REPO,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crm-seed-')),
        SEED_CUSTOMERS: '4',
        SEED_JOBS: '9',
        SEED_SUBDOMAIN: 'seeded',
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
  })();
}, 150_000);
afterAll(async () => {
  await db?.drop();
});

test('the seed says which database it wrote to (never its password)', () => {
  expect(run.status, String(run.stderr)).toBe(0);
  const url = new URL(db.url);
  expect(String(run.stdout)).toContain(`Seeded "seeded" into PostgreSQL at ${url.hostname}:${url.port}${url.pathname} (DATABASE_URL)`);
  expect(String(run.stdout)).not.toContain(url.password);
});

test("every seeded job carries its customer's name, phone and vehicle", async () => {
  expect(run.status, String(run.stderr)).toBe(0);
  const knex = knexFactory({ client: 'pg', connection: db.url });
  try {
    const jobs = (await knex('rm.jobs as j')
      .join('rm.customers as c', 'c.id', 'j.customer_id')
      .select('j.name', 'j.phone', 'j.make_model', 'c.name as customer_name', 'c.phone as customer_phone', 'c.vehicles')) as Array<
      Record<string, string>
    >;
    expect(jobs).toHaveLength(9);
    for (const job of jobs) {
      expect(job.name).not.toBe('');
      expect(job.name).toBe(job.customer_name);
      expect(job.phone).toBe(job.customer_phone);
      expect(job.vehicles).toContain(job.make_model);
    }
  } finally {
    await knex.destroy();
  }
});
