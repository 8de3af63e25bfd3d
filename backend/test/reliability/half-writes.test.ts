import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WrongExpectedVersionError, type NewEvent } from '@crm/projections/eventstore/port';
import {
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiClient,
  type TestInstance,
  type TestServer,
} from '../support/server.ts';
import { testEventMetadata } from '@crm/projections/testing/events';

/**
 * A command that writes several streams is recorded whole or not at all: a job created
 * with a new customer whose job append fails leaves no customer (nor its number) behind.
 */
let server: TestServer;
let shop: TestInstance;
let client: ApiClient;
let sql: pg.Client;

beforeAll(async () => {
  server = await startTestServer();
  shop = await createTestInstance(server, 'halfwrites');
  client = await signInUser(server, shop.subdomain, 'owner', '1234');
  sql = new pg.Client({ connectionString: server.runtime.deps.config.DATABASE_URL! });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await server?.stop();
});

function event(type = 'TestEvent'): NewEvent {
  return {
    id: randomUUID(),
    type,
    data: {},
    metadata: testEventMetadata(null, { correlationId: 'test' }),
  };
}

async function count(query: string, values: unknown[] = []): Promise<number> {
  return Number((await sql.query<{ n: string }>(`select count(*)::text as n from (${query}) q`, values)).rows[0]!.n);
}

describe('appendMany (PostgreSQL)', () => {
  test('a wrong expected revision on any stream records none of them', async () => {
    const store = server.runtime.deps.store;
    expect(store.atomicMultiStream).toBe(true);
    const existing = `test-${randomUUID()}`;
    await store.append(existing, [event()], { expectedRevision: 'no_stream' });
    const fresh = `test-${randomUUID()}`;
    const error = await store
      .appendMany([
        { streamId: fresh, events: [event(), event()], expectedRevision: 'no_stream' },
        { streamId: existing, events: [event()], expectedRevision: 5 },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect((error as WrongExpectedVersionError).streamId).toBe(existing);
    expect(await store.readStream(fresh)).toEqual([]);
    expect(await store.readStream(existing)).toHaveLength(1);
    expect(await count('select 1 from streams where stream_id = $1', [fresh])).toBe(0);
  });

  test('all streams recorded in one transaction, in the order given; a retry with the same ids is idempotent', async () => {
    const store = server.runtime.deps.store;
    const a = `test-${randomUUID()}`;
    const b = `test-${randomUUID()}`;
    const appends = [
      { streamId: a, events: [event()], expectedRevision: 'no_stream' as const },
      { streamId: b, events: [event(), event()], expectedRevision: 'no_stream' as const },
    ];
    const [first, second] = await store.appendMany(appends);
    expect(first!.nextRevision).toBe(0);
    expect(second!.nextRevision).toBe(1);
    // One transaction: one commit position (tx id) for all of them, a before b.
    expect(second!.positions.every((p) => p.commit === first!.position.commit)).toBe(true);
    expect(second!.positions[0]!.prepare > first!.position.prepare).toBe(true);
    const again = await store.appendMany(appends);
    expect(again.map((r) => r.nextRevision)).toEqual([0, 1]);
    expect(await store.readStream(b)).toHaveLength(2);
  });
});

describe('job with a new customer', () => {
  test('a job append that fails leaves no customer, no customer number and no job behind', async () => {
    const customersBefore = await count("select 1 from events where type in ('CustomerCreated', 'CustomerNumberReserved')");
    const jobsBefore = await count("select 1 from events where type = 'JobCreated'");
    // The database itself refuses this one job's event (as a full disk or a lost connection
    // would): the customer's events, appended before it in the same command, must go too.
    await sql.query(`
      create or replace function refuse_doomed_job() returns trigger language plpgsql as $$
      begin
        if new.type = 'JobCreated' and new.data->>'part' = 'doomed part' then
          raise exception 'injected failure';
        end if;
        return new;
      end $$`);
    await sql.query('create trigger refuse_doomed_job before insert on events for each row execute function refuse_doomed_job()');
    try {
      const failed = await client.post('/api/user-info', { name: 'Half Written', phone: '5550100', part: 'doomed part' });
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      await sql.query('drop trigger refuse_doomed_job on events');
    }
    expect(await count("select 1 from events where type in ('CustomerCreated', 'CustomerNumberReserved')")).toBe(customersBefore);
    expect(await count("select 1 from events where type = 'JobCreated'")).toBe(jobsBefore);
    const customers = await client.get('/api/customers?q=Half%20Written');
    expect(customers.status).toBe(200);
    expect(JSON.stringify(customers.body)).not.toContain('Half Written');

    // The same request once the fault is gone: one customer, one job, linked.
    const ok = await client.post('/api/user-info', { name: 'Half Written', phone: '5550100', part: 'doomed part' });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.customerId).toBeTruthy();
    const created = await sql.query<{ data: { customerId: string; name: string } }>(
      "select data from events where type = 'CustomerCreated' and data->>'name' = 'Half Written'",
    );
    expect(created.rows).toHaveLength(1);
    expect(created.rows[0]!.data.customerId).toBe(ok.body.customerId);
  });
});

/** Makes the database refuse one event (as a full disk or a lost connection would) while `run` runs. */
async function refusing(type: string, field: string, value: string, run: () => Promise<void>): Promise<void> {
  await sql.query(`
    create or replace function refuse_doomed() returns trigger language plpgsql as $$
    begin
      if new.type = '${type}' and new.data->>'${field}' = '${value}' then raise exception 'injected failure'; end if;
      return new;
    end $$`);
  await sql.query('create trigger refuse_doomed before insert on events for each row execute function refuse_doomed()');
  try {
    await run();
  } finally {
    await sql.query('drop trigger refuse_doomed on events');
  }
}

describe('instance and user creation', () => {
  test('an instance whose first admin cannot be recorded leaves no instance and no subdomain taken', async () => {
    const superAdmin = await signInSuperAdmin(server);
    const body = {
      name: 'DOOMED',
      displayName: 'Doomed Auto',
      subdomain: 'doomedshop',
      adminUsername: 'doomedadmin',
      adminDisplayName: 'Owner',
      adminPin: '1234',
    };
    await refusing('UserCreated', 'username', 'doomedadmin', async () => {
      expect((await superAdmin.post('/api/crm-instances', body)).status).toBeGreaterThanOrEqual(500);
    });
    expect(await count("select 1 from events where data->>'subdomain' = 'doomedshop' or data->>'username' = 'doomedadmin'")).toBe(0);
    const again = await superAdmin.post('/api/crm-instances', body);
    expect(again.status, again.text).toBe(201);
    expect(await count("select 1 from events where type = 'SubdomainReserved' and data->>'subdomain' = 'doomedshop'")).toBe(1);
  });

  test('a user that cannot be recorded leaves its username free', async () => {
    const body = { username: 'halfuser', displayName: 'Half', pin: '4321', role: 'user' };
    await refusing('UserCreated', 'username', 'halfuser', async () => {
      expect((await client.post('/api/admin/users', body)).status).toBeGreaterThanOrEqual(500);
    });
    expect(await count("select 1 from events where data->>'username' = 'halfuser'")).toBe(0);
    const again = await client.post('/api/admin/users', body);
    expect(again.status, again.text).toBe(201);
  });
});

describe('job deletion', () => {
  test('the deletion and the release of its typed number are one append: a refused release leaves the job as it was', async () => {
    const created = await client.post('/api/user-info', { name: 'Number Holder', part: 'Hose', jobNumber: 'HW-77' });
    expect(created.status, created.text).toBe(201);
    await refusing('JobNumberReleased', 'jobNumber', 'HW-77', async () => {
      expect((await client.delete(`/api/user-info/${created.body.id}`)).status).toBeGreaterThanOrEqual(500);
    });
    expect(await count(`select 1 from events where type = 'JobDeleted' and data->>'jobId' = $1`, [created.body.id])).toBe(0);
    expect((await client.get(`/api/user-info/${created.body.id}`)).status).toBe(200);

    expect((await client.delete(`/api/user-info/${created.body.id}`)).status).toBe(204);
    // The number is free again: another job may take it.
    const again = await client.post('/api/user-info', { name: 'Next Holder', part: 'Hose', jobNumber: 'HW-77' });
    expect(again.status, again.text).toBe(201);
  });
});

describe('job number change', () => {
  test("a save that changes the number: the new number's reservation, the change and the old number's release are one append", async () => {
    const created = await client.post('/api/user-info', { name: 'Renumbered', part: 'Axle', jobNumber: 'HW-OLD' });
    expect(created.status, created.text).toBe(201);
    const holders = async (jobNumber: string) =>
      count(`select 1 from events where data->>'jobNumber' = $1 and type in ('JobNumberReserved', 'JobNumberReleased')`, [jobNumber]);
    await refusing('JobUpdated', 'jobId', created.body.id, async () => {
      expect((await client.put(`/api/user-info/${created.body.id}`, { jobNumber: 'HW-NEW' })).status).toBeGreaterThanOrEqual(500);
    });
    expect(await holders('HW-NEW')).toBe(0);
    expect(await holders('HW-OLD')).toBe(1);

    const saved = await client.put(`/api/user-info/${created.body.id}`, { jobNumber: 'HW-NEW' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.jobNumber).toBe('HW-NEW');
    // The old number is free: another job takes it; the new one is held.
    expect((await client.post('/api/user-info', { name: 'Other', part: 'Axle', jobNumber: 'HW-OLD' })).status).toBe(201);
    expect((await client.post('/api/user-info', { name: 'Other', part: 'Axle', jobNumber: 'HW-NEW' })).status).toBe(409);
  });
});
