import { afterAll, beforeAll, expect, test } from 'vitest';
import { customerStream } from '../../src/customers/customer-decider.ts';
import { ApiClient, SUPER_ADMIN } from '../support/server.ts';
import { startRestartableServer, type RestartableServer } from './support.ts';

/**
 * A write retried with the same Idempotency-Key runs once: one set of events, the same
 * answer, also for a retry racing the first request and across a restart of the server.
 */

let server: RestartableServer;
let admin: ApiClient;
let other: ApiClient;

async function signIn(username: string, pin: string): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const res = await client.post('/api/auth/login', { instance: 'idem', username, pin });
  expect(res.status, res.text).toBe(200);
  return client;
}

async function customersNamed(name: string): Promise<number> {
  const rows = await server.runtime.deps.knex('rm.customers').where({ name }).count<{ count: string }[]>('* as count');
  return Number(rows[0]!.count);
}

beforeAll(async () => {
  server = await startRestartableServer();
  const superAdmin = new ApiClient(server.url);
  expect((await superAdmin.post('/api/super-admin/login', SUPER_ADMIN)).status).toBe(200);
  const created = await superAdmin.post('/api/crm-instances', {
    name: 'IDEM',
    displayName: 'Idem Auto',
    subdomain: 'idem',
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  expect(created.status, created.text).toBe(201);
  admin = await signIn('owner', '1234');
  expect((await admin.post('/api/admin/users', { username: 'other', pin: '4321' })).status).toBe(201);
  other = await signIn('other', '4321');
});

afterAll(async () => {
  await server?.stop();
});

test('a retried POST answers as the first did and records one set of events', async () => {
  const key = 'create-customer-0001';
  const first = await admin.post('/api/customers', { name: 'Idem One' }, { 'idempotency-key': key });
  expect(first.status, first.text).toBe(201);
  const recorded = (await server.runtime.deps.store.readStream(customerStream(first.body.id))).length;
  const again = await admin.post('/api/customers', { name: 'Idem One' }, { 'idempotency-key': key });
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(await customersNamed('Idem One')).toBe(1);
  expect(await server.runtime.deps.store.readStream(customerStream(first.body.id))).toHaveLength(recorded);

  // The same key with another body is a mistake, not a retry.
  const different = await admin.post('/api/customers', { name: 'Idem Two' }, { 'idempotency-key': key });
  expect(different.status, different.text).toBe(422);
  expect(different.body.message).toMatch(/Idempotency-Key/);
  // Keys are the caller's own: another user's identical key is another request.
  const theirs = await other.post('/api/customers', { name: 'Idem One' }, { 'idempotency-key': key });
  expect(theirs.status).toBe(201);
  expect(theirs.body.id).not.toBe(first.body.id);
  expect(await customersNamed('Idem One')).toBe(2);
});

test('a refused command keeps no answer: the retry runs again', async () => {
  const key = 'refused-then-fixed';
  const refused = await admin.post('/api/customers', { name: '' }, { 'idempotency-key': key });
  expect(refused.status).toBe(400);
  const bad = await admin.post('/api/customers', { name: '' }, { 'idempotency-key': key });
  expect(bad.status).toBe(400);
  expect(bad.headers.get('idempotent-replayed')).toBeNull();
});

test('concurrent duplicates: one runs, the others get its answer (or a 409 to retry), one record', async () => {
  const key = 'racing-duplicates';
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => admin.post('/api/customers', { name: 'Idem Race' }, { 'idempotency-key': key })),
  );
  const statuses = answers.map((a) => a.status);
  expect(
    statuses.every((s) => s === 201 || s === 409),
    statuses.join(','),
  ).toBe(true);
  const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
  expect(ids.size).toBe(1);
  expect(await customersNamed('Idem Race')).toBe(1);
});

test('the answer survives a restart of the server', async () => {
  const key = 'across-a-restart';
  const customer = await admin.post('/api/customers', { name: 'Idem Restart' });
  const job = { name: 'Idem Restart', part: 'Clutch', customerId: customer.body.id };
  const first = await admin.post('/api/user-info', job, { 'idempotency-key': key });
  expect(first.status, first.text).toBe(201);
  const streamBefore = await server.runtime.deps.store.readStream(`job-${first.body.id}`);

  await server.restart();
  admin = await signIn('owner', '1234');

  const again = await admin.post('/api/user-info', job, { 'idempotency-key': key });
  expect(again.status, again.text).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body.id).toBe(first.body.id);
  expect(again.body.jobNumber).toBe(first.body.jobNumber);
  expect(await server.runtime.deps.store.readStream(`job-${first.body.id}`)).toHaveLength(streamBefore.length);
  const jobs = await server.runtime.deps.knex('rm.jobs').where({ name: 'Idem Restart' }).count<{ count: string }[]>('* as count');
  expect(Number(jobs[0]!.count)).toBe(1);
});
