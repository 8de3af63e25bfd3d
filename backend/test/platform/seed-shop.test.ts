import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import type {} from '@crm/projections/testing/global-setup';

/** `npm run seed` as a person runs it (the built script): a believable shop in its own zone. */
const REPO = path.resolve(import.meta.dirname, '../../..');
const ZONE = 'America/Denver';
let db: TestDatabase;
let run: ReturnType<typeof spawnSync>;
let knex: Knex;

beforeAll(() => {
  return (async () => {
    db = await createTestDatabase();
    run = spawnSync(process.execPath, [path.join(REPO, 'backend/dist/seed-main.js')], {
      cwd: REPO,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crm-seed-shop-')),
        SEED_CUSTOMERS: '6',
        SEED_JOBS: '27',
        SEED_REQUESTS: '8',
        SEED_SUBDOMAIN: 'seedshop',
        SEED_TIME_ZONE: ZONE,
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 180_000,
    });
    knex = knexFactory({ client: 'pg', connection: db.url });
  })();
}, 200_000);
afterAll(async () => {
  await knex?.destroy();
  await db?.drop();
});

test('the seed reports its progress and names the shop’s zone', () => {
  expect(run.status, String(run.stderr)).toBe(0);
  // The seed writes its history in time order, then builds the read models: both report to the end.
  expect(String(run.stderr)).toMatch(/^history .* (\d+)\/\1 changes$/m);
  expect(String(run.stderr)).toMatch(/^read models .* (\d+)\/\1 events$/m);
  expect(String(run.stdout)).toContain(`The shop's time zone is ${ZONE}`);
});

test('the shop has its zone; every job has a customer name, phone, vehicle and part', async () => {
  const instance = await knex('rm.crm_instances').where({ subdomain: 'seedshop' }).first();
  expect(instance.time_zone).toBe(ZONE);
  const jobs = (await knex('rm.jobs').where({ instance_id: instance.id })) as Array<Record<string, string>>;
  // 27 seeded jobs and one per converted request.
  expect(jobs.length).toBeGreaterThanOrEqual(27);
  for (const job of jobs) {
    expect(job.name).not.toBe('');
    expect(job.phone).not.toBe('');
    expect(job.make_model).not.toBe('');
    expect(job.part).not.toBe('');
  }
  // A customer's jobs are on that customer's vehicle record, the one the job names.
  const onRecords = (await knex('rm.jobs as j')
    .join('rm.vehicles as v', 'v.id', 'j.vehicle_id')
    .where('j.instance_id', instance.id)
    .select('j.customer_id', 'j.make_model', 'v.customer_id as owner', 'v.year', 'v.make', 'v.model')) as Array<Record<string, string>>;
  expect(onRecords.length).toBe(jobs.filter((job) => job.customer_id).length);
  for (const row of onRecords) {
    expect(row.owner).toBe(row.customer_id);
    expect(`${row.year} ${row.make} ${row.model}`).toBe(row.make_model);
  }
});

test("appointments fall on weekdays between 8:00 and 17:00 in the shop's zone, past and coming weeks", async () => {
  const rows = (await knex('rm.jobs').whereNotNull('appointment').select('appointment', 'appointment_end', 'stage')) as Array<{
    appointment: Date;
    appointment_end: Date;
    stage: string;
  }>;
  expect(rows.length).toBeGreaterThan(10);
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: ZONE,
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  for (const row of rows) {
    const parts = format.formatToParts(new Date(row.appointment));
    const weekday = parts.find((p) => p.type === 'weekday')!.value;
    const minutes = Number(parts.find((p) => p.type === 'hour')!.value) * 60 + Number(parts.find((p) => p.type === 'minute')!.value);
    expect(['Sat', 'Sun']).not.toContain(weekday);
    expect(minutes).toBeGreaterThanOrEqual(8 * 60);
    expect(minutes).toBeLessThanOrEqual(16 * 60 + 30);
  }
  const now = Date.now();
  expect(rows.some((row) => new Date(row.appointment).getTime() > now + 7 * 86_400_000)).toBe(true);
  expect(rows.filter((row) => row.stage === 'Paid').every((row) => new Date(row.appointment).getTime() < now)).toBe(true);
});

test('service requests exist in every state, from the counter and the public page', async () => {
  const rows = (await knex('rm.service_requests').select('status', 'source', 'job_id')) as Array<{
    status: string;
    source: string;
    job_id: string | null;
  }>;
  expect(rows).toHaveLength(8); // SEED_REQUESTS
  expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['open', 'converted', 'archived']));
  expect(new Set(rows.map((row) => row.source))).toEqual(new Set(['staff', 'public']));
  expect(rows.filter((row) => row.status === 'converted').every((row) => row.job_id !== null)).toBe(true);
});
