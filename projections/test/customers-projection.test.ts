import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fieldChangeFromStored, type StoredFieldChange } from '../src/audit/index.ts';
import { migrate, READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { EMPTY_CUSTOMER_FIELDS, type CustomerFields } from '../src/customers/index.ts';
import type { EventData, EventType } from '../src/events.ts';
import { createPostgresEventStore } from '../src/eventstore/postgres.ts';
import type { AppendResult, EventStore, ExpectedRevision } from '../src/eventstore/port.ts';
import { projections } from '../src/read-models.ts';
import { readModelMigrations } from '../src/db/migrate.ts';
import { CheckpointWatcher } from '../src/runtime/checkpoints.ts';
import { applyBatch, Projector } from '../src/runtime/projector.ts';
import { rebuildReadModels } from '../src/runtime/rebuild.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/database.ts';

let db: TestDatabase;
let knex: Knex;
let store: EventStore;
let projector: Projector;
let watcher: CheckpointWatcher;

beforeAll(async () => {
  db = await createTestDatabase();
  knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 10 } });
  await migrate(knex);
  store = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 50 });
  projector = new Projector({ store, knex, connectionString: db.url, projections, schema: READ_MODEL_SCHEMA });
  projector.start();
  watcher = new CheckpointWatcher(knex, db.url, 'main', 50);
  await watcher.start();
});

afterAll(async () => {
  await projector?.stop();
  await watcher?.stop();
  await store?.close();
  await knex?.destroy();
  await db?.drop();
});

const rm = (table: string) => knex.withSchema(READ_MODEL_SCHEMA).from(table);

async function append<T extends EventType>(
  streamId: string,
  type: T,
  data: EventData<T>,
  options: { instanceId: string; actor?: string; at?: Date; expectedRevision?: ExpectedRevision },
): Promise<AppendResult> {
  const appended = await store.append(
    streamId,
    [
      {
        id: randomUUID(),
        type,
        data,
        metadata: {
          instanceId: options.instanceId,
          actor: { kind: 'user', id: randomUUID(), displayName: options.actor ?? 'Sam' },
          correlationId: randomUUID(),
          causationId: null,
          occurredAt: (options.at ?? new Date()).toISOString(),
          schemaVersion: 1,
        },
      },
    ],
    { expectedRevision: options.expectedRevision ?? 'any' },
  );
  expect(await watcher.waitFor(appended.position, 5000)).toBe(true);
  return appended;
}

function customer(instanceId: string, number: number, fields: Partial<CustomerFields>) {
  const customerId = randomUUID();
  const stream = `customer-${customerId}`;
  return {
    customerId,
    stream,
    create: (options: { actor?: string; at?: Date } = {}) =>
      append(
        stream,
        'CustomerCreated',
        { customerId, instanceId, number, ...EMPTY_CUSTOMER_FIELDS, ...fields },
        { instanceId, ...options },
      ),
    update: (changes: EventData<'CustomerUpdated'>['changes'], name: string, options: { actor?: string; at?: Date } = {}) =>
      append(stream, 'CustomerUpdated', { customerId, number, name, changes }, { instanceId, ...options }),
    remove: (name: string) => append(stream, 'CustomerDeleted', { customerId, number, name }, { instanceId }),
  };
}

describe('customers read model', () => {
  test('a creation becomes a row with who from the metadata and when from the event store', async () => {
    const instanceId = randomUUID();
    const jane = customer(instanceId, 1, {
      name: 'Jane Doe',
      phone: '5551234567',
      email: 'jane@example.com',
      vehicles: '2019 Honda Civic, 2020 Ford F-150',
      pastAppointments: 'Civic, Oil change, 2024-01-05',
      invoices: 'INV-1',
    });
    const at = new Date('2025-02-01T10:00:00.000Z');
    await jane.create({ actor: 'Alice', at });
    const row = await rm('customers').where({ id: jane.customerId }).first();
    expect(row).toMatchObject({
      instance_id: instanceId,
      number: 1,
      name: 'Jane Doe',
      phone: '5551234567',
      email: 'jane@example.com',
      address: '',
      vehicles: '2019 Honda Civic, 2020 Ford F-150',
      past_appointments: 'Civic, Oil change, 2024-01-05',
      invoices: 'INV-1',
      created_by: 'Alice',
      last_modified_by: 'Alice',
      revision: 0,
    });
    // The time is when the store recorded the event (the clock history and time travel go by), not the metadata's.
    const [recorded] = await store.readStream(jane.stream);
    expect(at.getTime()).not.toBe(recorded!.recordedAt.getTime());
    expect(row.created_at.toISOString()).toBe(recorded!.recordedAt.toISOString());
    expect(row.last_modified_at.toISOString()).toBe(recorded!.recordedAt.toISOString());
    expect(row.search).toContain('jane doe');
    expect(row.search).toContain('5551234567');
    expect(row.search).toContain('2020 ford f-150');
  });

  test('an update changes only its fields and the last-modified pair; the search text follows', async () => {
    const instanceId = randomUUID();
    const bob = customer(instanceId, 1, { name: 'Bob', phone: '5550001111', address: '1 Main St' });
    await bob.create({ actor: 'Alice' });
    const at = new Date(Date.now() + 60_000);
    await bob.update(
      [
        { field: 'phone', oldValue: '5550001111', newValue: '5552223333' },
        { field: 'pastAppointments', oldValue: '', newValue: 'Brakes' },
      ],
      'Bob',
      { actor: 'Carol', at },
    );
    const row = await rm('customers').where({ id: bob.customerId }).first();
    expect(row).toMatchObject({
      name: 'Bob',
      phone: '5552223333',
      address: '1 Main St',
      past_appointments: 'Brakes',
      created_by: 'Alice',
      last_modified_by: 'Carol',
      revision: 1,
    });
    const [, recorded] = await store.readStream(bob.stream);
    expect(row.last_modified_at.toISOString()).toBe(recorded!.recordedAt.toISOString());
    expect(row.search).toContain('5552223333');
    expect(row.search).not.toContain('5550001111');
  });

  test('a deletion removes the row', async () => {
    const instanceId = randomUUID();
    const gone = customer(instanceId, 1, { name: 'Gone' });
    await gone.create();
    await gone.remove('Gone');
    expect(await rm('customers').where({ id: gone.customerId }).first()).toBeUndefined();
  });

  test('an event applied again (a replayed batch) changes nothing', async () => {
    const instanceId = randomUUID();
    const twice = customer(instanceId, 1, { name: 'Twice' });
    await twice.create();
    await twice.update([{ field: 'name', oldValue: 'Twice', newValue: 'Once' }], 'Once');
    await twice.update([{ field: 'name', oldValue: 'Once', newValue: 'Thrice' }], 'Thrice');
    const events = await store.readStream(twice.stream);
    const before = await rm('customers').where({ id: twice.customerId }).first();
    // Its own checkpoint starts at the beginning, so every event is applied a second time.
    await applyBatch(knex, { schema: READ_MODEL_SCHEMA, checkpointName: `replay-${twice.customerId}`, projections }, events);
    expect(await rm('customers').where({ id: twice.customerId }).first()).toEqual(before);
    expect(before.name).toBe('Thrice');
    expect(await rm('activity').where({ entity_id: twice.customerId }).count({ n: '*' })).toEqual([{ n: '3' }]);
  });

  test('the per-instance count follows creations and deletions, and replays do not skew it', async () => {
    const instanceId = randomUUID();
    const total = async () => (await rm('customer_counts').where({ instance_id: instanceId }).first('total'))?.total;
    const people = [
      customer(instanceId, 1, { name: 'C1' }),
      customer(instanceId, 2, { name: 'C2' }),
      customer(instanceId, 3, { name: 'C3' }),
    ];
    for (const p of people) await p.create();
    expect(await total()).toBe(3);
    await people[1]!.remove('C2');
    expect(await total()).toBe(2);
    const events = [...(await store.readStream(people[0]!.stream)), ...(await store.readStream(people[1]!.stream))];
    await applyBatch(knex, { schema: READ_MODEL_SCHEMA, checkpointName: `replay-count-${instanceId}`, projections }, events);
    expect(await total()).toBe(2);
    expect(await rm('customers').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '2' }]);
  });

  test('numbers are unique within an instance, not across instances', async () => {
    const a = randomUUID();
    const b = randomUUID();
    await customer(a, 1, { name: 'A1' }).create();
    await customer(b, 1, { name: 'B1' }).create();
    await expect(
      knex.transaction((trx) =>
        trx.withSchema(READ_MODEL_SCHEMA).table('customers').insert({
          id: randomUUID(),
          instance_id: a,
          number: 1,
          name: 'dup',
          phone: '',
          email: '',
          address: '',
          vehicles: '',
          past_appointments: '',
          invoices: '',
          notes: '',
          created_at: new Date(),
          created_by: 'x',
          last_modified_at: new Date(),
          last_modified_by: 'x',
          revision: 0,
        }),
      ),
    ).rejects.toThrow(/duplicate key/);
  });

  test('the list, paging and search indexes exist', async () => {
    const indexes = (await knex('pg_indexes')
      .where({ schemaname: READ_MODEL_SCHEMA, tablename: 'customers' })
      .pluck('indexdef')) as string[];
    expect(indexes.some((d) => /UNIQUE INDEX .* \(instance_id, number\)/.test(d))).toBe(true);
    expect(indexes.some((d) => /\(instance_id, created_at DESC, id DESC\)/.test(d))).toBe(true);
    expect(indexes.some((d) => /USING gin \(search (public\.)?gin_trgm_ops\)/.test(d))).toBe(true);
  });

  test('rows are visible to the API role only inside their instance', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const mine = customer(a, 1, { name: 'Mine' });
    await mine.create();
    await customer(b, 1, { name: 'Theirs' }).create();
    const asApi = (instanceId: string | null, from: string) =>
      knex.transaction(async (trx) => {
        await trx.raw('SET LOCAL ROLE crm_api');
        if (instanceId) await trx.raw(`SELECT set_config('app.instance_id', ?, true)`, [instanceId]);
        return await trx.withSchema(READ_MODEL_SCHEMA).from(from).pluck('name');
      });
    expect(await asApi(a, 'customers')).toEqual(['Mine']);
    // The view the API reads through keeps to the same rule, with or without a filter of its own.
    expect(await asApi(a, 'customers_of_instance')).toEqual(['Mine']);
    expect(await asApi(null, 'customers_of_instance')).toEqual([]);
    expect(await asApi(null, 'customers')).toEqual([]);
    // Reading is all the API role may do.
    await expect(
      knex.transaction(async (trx) => {
        await trx.raw('SET LOCAL ROLE crm_api');
        await trx.raw(`SELECT set_config('app.instance_id', ?, true)`, [a]);
        await trx.withSchema(READ_MODEL_SCHEMA).table('customers_of_instance').where({ id: mine.customerId }).update({ name: 'x' });
      }),
    ).rejects.toThrow(/permission denied/);
  });
});

describe('customer activity', () => {
  test('every customer event reads in plain words, with field changes and masked phones', async () => {
    const instanceId = randomUUID();
    const jane = customer(instanceId, 12, { name: 'Jane Doe', phone: '5551234567' });
    await jane.create({ actor: 'Alice' });
    await jane.update(
      [
        { field: 'phone', oldValue: '5551234567', newValue: '5559876543' },
        { field: 'address', oldValue: '', newValue: '1 Main St' },
      ],
      'Jane Doe',
      { actor: 'Bob' },
    );
    await jane.remove('Jane Doe');
    await append(
      `customernumber-${instanceId}-13`,
      'CustomerNumberReserved',
      { instanceId, number: 13, customerId: randomUUID() },
      { instanceId },
    );
    const rows = await rm('activity')
      .where({ instance_id: instanceId })
      .orderBy([{ column: 'position_commit' }, { column: 'position_prepare' }])
      .select('event_type', 'entity_type', 'entity_id', 'actor_name', 'summary', 'changes');
    const entries = rows.map((row: { changes: StoredFieldChange[] }) => ({ ...row, changes: row.changes.map(fieldChangeFromStored) }));
    expect(entries).toEqual([
      {
        event_type: 'CustomerCreated',
        entity_type: 'customer',
        entity_id: jane.customerId,
        actor_name: 'Alice',
        summary: 'Created customer #12 Jane Doe',
        changes: [
          { field: 'name', oldValue: null, newValue: 'Jane Doe' },
          { field: 'phone', oldValue: null, newValue: '•••-•••-4567' },
        ],
      },
      {
        event_type: 'CustomerUpdated',
        entity_type: 'customer',
        entity_id: jane.customerId,
        actor_name: 'Bob',
        summary: 'Updated customer #12 Jane Doe: phone, address',
        changes: [
          { field: 'phone', oldValue: '•••-•••-4567', newValue: '•••-•••-6543' },
          { field: 'address', oldValue: '', newValue: '1 Main St' },
        ],
      },
      {
        event_type: 'CustomerDeleted',
        entity_type: 'customer',
        entity_id: jane.customerId,
        actor_name: 'Sam',
        summary: 'Deleted customer #12 Jane Doe',
        changes: [],
      },
    ]);
  });
});

describe('recorded times for rows projected before (read-model migration)', () => {
  test("a customer's created and last-modified times become the recorded ones; running it again changes nothing", async () => {
    const instanceId = randomUUID();
    const old = customer(instanceId, 1, { name: 'Old Times' });
    await old.create({ at: new Date('2024-01-01T00:00:00.000Z') });
    await old.update([{ field: 'notes', oldValue: '', newValue: 'x' }], 'Old Times', { at: new Date('2024-01-02T00:00:00.000Z') });
    const [created, updated] = await store.readStream(old.stream);
    // As a projection from before wrote it: the commands' times.
    const table = () => knex.withSchema(READ_MODEL_SCHEMA).table('customers').where({ id: old.customerId });
    await table().update({ created_at: '2024-01-01T00:00:00.000Z', last_modified_at: '2024-01-02T00:00:00.000Z' });
    const migration = readModelMigrations.find((m) => m.name === '0007_recorded_times')!;
    for (let run = 0; run < 2; run++) {
      await migration.up(knex, READ_MODEL_SCHEMA);
      const row = await rm('customers').where({ id: old.customerId }).first();
      expect(row.created_at.toISOString()).toBe(created!.recordedAt.toISOString());
      expect(row.last_modified_at.toISOString()).toBe(updated!.recordedAt.toISOString());
    }
  });
});

describe('rebuild', () => {
  test('rebuilds customers (trigram index and all) identical to the live table', async () => {
    const instanceId = randomUUID();
    for (let i = 1; i <= 5; i++) {
      const c = customer(instanceId, i, { name: `Rebuilt ${i}`, phone: `555000000${i}`, vehicles: 'Civic' });
      await c.create();
      if (i % 2 === 0) await c.update([{ field: 'vehicles', oldValue: 'Civic', newValue: 'Civic, Accord' }], `Rebuilt ${i}`);
      if (i === 5) await c.remove(`Rebuilt ${i}`);
    }
    const before = await rm('customers').where({ instance_id: instanceId }).orderBy('number').select();
    const report = await rebuildReadModels({ store, knex, projections });
    expect(report.tables.find((t) => t.table === 'customers')).toMatchObject({
      identical: true,
      liveRows: report.tables.find((t) => t.table === 'customers')!.rebuiltRows,
    });
    expect(report.identical).toBe(true);
    expect(await rm('customers').where({ instance_id: instanceId }).orderBy('number').select()).toEqual(before);
    expect(before.map((r: { name: string }) => r.name)).toEqual(['Rebuilt 1', 'Rebuilt 2', 'Rebuilt 3', 'Rebuilt 4']);
    const indexes = (await knex('pg_indexes')
      .where({ schemaname: READ_MODEL_SCHEMA, tablename: 'customers' })
      .pluck('indexdef')) as string[];
    expect(indexes.some((d) => d.includes('gin_trgm_ops'))).toBe(true);
    // A second rebuild works on top of the first (the extension stays where it was).
    expect((await rebuildReadModels({ store, knex, projections })).identical).toBe(true);
  });
});
