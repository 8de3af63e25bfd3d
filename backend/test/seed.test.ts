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
        SEED_JOBS: '45',
        SEED_REQUESTS: '1',
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
    expect(jobs).toHaveLength(45);
    for (const job of jobs) {
      expect(job.name).not.toBe('');
      expect(job.name).toBe(job.customer_name);
      expect(job.phone).toBe(job.customer_phone);
      expect(job.vehicles).toContain(job.make_model);
    }
    // A customer's invoices are the ones the seed issued to her jobs: no made-up numbers typed in beside them.
    expect(await knex('rm.customers').whereNot('invoices', '').pluck('invoices')).toEqual([]);
  } finally {
    await knex.destroy();
  }
});

test('seeded appointments are spread over weekdays and working hours, never a pile at one time', async () => {
  expect(run.status, String(run.stderr)).toBe(0);
  const knex = knexFactory({ client: 'pg', connection: db.url });
  try {
    const rows = (await knex('rm.jobs').whereNotNull('appointment').select('appointment')) as Array<{ appointment: Date }>;
    expect(rows.length).toBeGreaterThan(20);
    // The seed's default zone: America/Chicago.
    const parts = (at: Date) =>
      Object.fromEntries(
        new Intl.DateTimeFormat('en-US', {
          timeZone: 'America/Chicago',
          weekday: 'short',
          hour: 'numeric',
          minute: 'numeric',
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
        })
          .formatToParts(at)
          .map((p) => [p.type, p.value]),
      );
    const perInstant = new Map<number, number>();
    const days = new Set<string>();
    for (const { appointment } of rows) {
      const p = parts(appointment);
      expect(['Sat', 'Sun']).not.toContain(p.weekday);
      const minutes = Number(p.hour) * 60 + Number(p.minute);
      expect(minutes).toBeGreaterThanOrEqual(8 * 60);
      expect(minutes).toBeLessThanOrEqual(16 * 60 + 30);
      perInstant.set(appointment.getTime(), (perInstant.get(appointment.getTime()) ?? 0) + 1);
      days.add(`${p.year}-${p.month}-${p.day}`);
    }
    expect(Math.max(...perInstant.values())).toBeLessThanOrEqual(2);
    expect(days.size).toBeGreaterThanOrEqual(8);
  } finally {
    await knex.destroy();
  }
});

test('seeded repair orders: itemized jobs, estimates sent and approved, invoices and payments over past months', async () => {
  expect(run.status, String(run.stderr)).toBe(0);
  const knex = knexFactory({ client: 'pg', connection: db.url });
  try {
    const money = (await knex('rm.job_money').select('lines_count', 'estimate_status', 'invoice_number', 'total', 'paid')) as Array<{
      lines_count: number;
      estimate_status: string | null;
      invoice_number: number | null;
      total: string;
      paid: string;
    }>;
    // Four jobs in five are itemized.
    expect(money.filter((row) => row.lines_count >= 2).length).toBeGreaterThanOrEqual(30);
    expect(money.some((row) => row.estimate_status === 'approved')).toBe(true);
    expect(money.some((row) => row.estimate_status === 'sent' || row.estimate_status === 'expired')).toBe(true);
    const invoices = (await knex('rm.invoices').select('invoice_number', 'issued_at', 'total')) as Array<{
      invoice_number: number;
      issued_at: Date;
      total: string;
    }>;
    expect(invoices.length).toBeGreaterThanOrEqual(5);
    expect(new Set(invoices.map((row) => row.invoice_number)).size).toBe(invoices.length);
    expect(Math.min(...invoices.map((row) => row.invoice_number))).toBe(1001);
    // Spread over the months of history, not all today.
    const months = new Set(invoices.map((row) => row.issued_at.toISOString().slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(2);
    const payments = (await knex('rm.payments').select('kind', 'amount', 'method', 'received_at')) as Array<{
      kind: string;
      amount: string;
      method: string;
      received_at: Date;
    }>;
    expect(payments.length).toBeGreaterThanOrEqual(5);
    expect(new Set(payments.map((row) => row.method)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(payments.map((row) => row.received_at.toISOString().slice(0, 7))).size).toBeGreaterThanOrEqual(2);
    // A paid job owes nothing; an invoiced job with a deposit still owes.
    const paidJobs = (await knex('rm.jobs as j')
      .join('rm.job_money as m', 'm.job_id', 'j.id')
      .whereNotNull('m.invoice_number')
      .select('j.stage', 'm.invoice_total', 'm.paid')) as Array<{ stage: string; invoice_total: string; paid: string }>;
    for (const row of paidJobs.filter((r) => r.stage === 'Paid')) expect(Number(row.paid)).toBe(Number(row.invoice_total));
    expect(paidJobs.some((r) => r.stage === 'Invoiced' && Number(r.paid) > 0 && Number(r.paid) < Number(r.invoice_total))).toBe(true);
  } finally {
    await knex.destroy();
  }
});

test('a size that is not a whole number stops the seed with a message naming it, before it writes anything', () => {
  const bad = spawnSync(process.execPath, [path.join(REPO, 'backend/dist/seed-main.js')], {
    cwd: REPO,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crm-seed-')),
      SEED_CUSTOMERS: 'many',
      LOG_LEVEL: 'silent',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(bad.status, bad.stderr).toBe(2);
  expect(bad.stderr).toContain('SEED_CUSTOMERS must be a whole number');
});
