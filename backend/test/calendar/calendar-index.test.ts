import { afterAll, beforeAll, expect, test } from 'vitest';
import { CANCELED_STAGE, stageOrder } from '@crm/projections/pipeline';
import { withTenant } from '../../src/infra/tenant-db.ts';
import { signInSuperAdmin, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

let server: TestServer;
let owner: ApiClient;
let instanceId: string;

beforeAll(async () => {
  server = await startTestServer();
  const superAdmin = await signInSuperAdmin(server);
  const created = await superAdmin.post('/api/crm-instances', {
    name: 'CALIDX',
    displayName: 'Index Auto',
    subdomain: 'calidx',
    features: { pipeline: true, customers: true, calendar: true, admin: true },
    timeZone: 'America/Chicago',
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  expect(created.status, created.text).toBe(201);
  instanceId = created.body.id;
  owner = await signInUser(server, 'calidx', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

const JOBS = 50_000;

test(`a month among ${JOBS.toLocaleString('en-US')} appointments (five years, every hour or so) reads through the range index`, async () => {
  const knex = server.runtime.deps.knex;
  // Straight into the read model: the index and the query are what is measured, not the projector.
  await knex.raw(
    `INSERT INTO rm.jobs (id, instance_id, job_number, number, name, phone, part, make_model, stage, stage_order, vin, csr,
       job_type, appointment, appointment_end, duration, tech, notes, created_at, created_by, updated_at, revision, search)
     SELECT gen_random_uuid(), ?::uuid, 'x' || i, NULL, 'Bulk ' || i, '3125550100', 'Part', '', 'Scheduled', ?, '', '',
       'In Shop', a, a + interval '60 minutes', 60, '', '', now(), 'Owner', now(), 0, 'bulk'
       FROM generate_series(1, ?) AS i, LATERAL (SELECT timestamptz '2023-01-01T00:00:00Z' + i * interval '53 minutes' AS a) AS t`,
    [instanceId, stageOrder('Scheduled'), JOBS],
  );
  await knex.raw('ANALYZE rm.jobs');

  const from = '2025-03-01T06:00:00.000Z';
  const to = '2025-04-01T05:00:00.000Z';
  const plan = await withTenant(knex, instanceId, async (db) => {
    const result = await db.raw(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM rm.jobs_of_instance
         WHERE instance_id = ? AND appointment IS NOT NULL
           AND tstzrange(appointment, appointment_end, '[)') && tstzrange(?::timestamptz, ?::timestamptz, '[)')
           AND stage_order <> ? ORDER BY appointment, id LIMIT 2000`,
      [instanceId, from, to, stageOrder(CANCELED_STAGE)],
    );
    return result.rows[0]['QUERY PLAN'][0] as { Plan: unknown; 'Execution Time': number };
  });
  const text = JSON.stringify(plan.Plan);
  expect(text).toContain('jobs_appointment_range');
  expect(text).not.toContain('"Seq Scan"');

  const started = performance.now();
  const res = await owner.get(`/api/calidx/calendar?from=2025-03-01&to=2025-04-01`);
  const took = performance.now() - started;
  expect(res.status, res.text).toBe(200);
  // 31 days of blocks every 53 minutes, the shop's month (Chicago).
  expect(res.body.items.length).toBeGreaterThan(800);
  expect(res.body.from).toBe(from);
  console.log(
    `calendar month among ${JOBS} appointments: ${res.body.items.length} rows, query ${plan['Execution Time'].toFixed(1)} ms (EXPLAIN ANALYZE), API ${took.toFixed(0)} ms`,
  );
});
