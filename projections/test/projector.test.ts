import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { createPostgresEventStore } from '../src/eventstore/postgres.ts';
import type { EventMetadata, EventStore, NewEvent } from '../src/eventstore/port.ts';
import { projections } from '../src/readmodels/index.ts';
import { CheckpointWatcher, readCheckpoint } from '../src/runtime/checkpoints.ts';
import { applyBatch, Projector } from '../src/runtime/projector.ts';
import { rebuildReadModels } from '../src/runtime/rebuild.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/database.ts';

let db: TestDatabase;
let knex: Knex;
let store: EventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 10 } });
  await migrate(knex);
  store = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 50 });
});

afterAll(async () => {
  await store?.close();
  await knex?.destroy();
  await db?.drop();
});

function metadata(instanceId: string | null): EventMetadata {
  return {
    instanceId,
    actor: { kind: 'system', id: 'test', displayName: 'Test' },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
  };
}

async function createInstance(subdomain: string) {
  const instanceId = randomUUID();
  const event: NewEvent = {
    id: randomUUID(),
    type: 'CrmInstanceCreated',
    data: {
      instanceId,
      name: subdomain.toUpperCase(),
      subdomain,
      displayName: subdomain,
      description: '',
      features: { pipeline: true, customers: true, calendar: false, admin: true },
    },
    metadata: metadata(instanceId),
  };
  const appended = await store.append(`crminstance-${instanceId}`, [event], { expectedRevision: 'no_stream' });
  return { instanceId, appended, event };
}

async function createUser(instanceId: string, username: string) {
  const userId = randomUUID();
  return await store.append(
    `user-${userId}`,
    [
      {
        id: randomUUID(),
        type: 'UserCreated',
        data: {
          userId,
          instanceId,
          username,
          displayName: username,
          role: 'user',
          permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
          pinHash: 'scrypt$x',
        },
        metadata: metadata(instanceId),
      },
    ],
    { expectedRevision: 'no_stream' },
  );
}

const rm = (table: string) => knex.withSchema(READ_MODEL_SCHEMA).from(table);

describe('projector', () => {
  test('catches up, keeps a checkpoint, and answers wait-for-position', async () => {
    const watcher = new CheckpointWatcher(knex, db.url, 'main', 50);
    await watcher.start();
    const projector = new Projector({ store, knex, connectionString: db.url, projections, schema: READ_MODEL_SCHEMA, batchSize: 3 });
    projector.start();
    try {
      const { instanceId } = await createInstance('alpha');
      let last;
      for (let i = 0; i < 7; i++) last = await createUser(instanceId, `user${i}`);
      expect(await watcher.waitFor(last!.position, 5000)).toBe(true);
      expect(await rm('users').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '7' }]);
      expect(await rm('crm_instances').where({ id: instanceId }).first('subdomain')).toEqual({ subdomain: 'alpha' });
      const checkpoint = await readCheckpoint(knex, 'main');
      expect(checkpoint).toEqual(last!.position);
      // Activity is the instance timeline in words.
      const activity = await rm('activity').where({ instance_id: instanceId }).orderBy('position_prepare').pluck('summary');
      expect(activity[0]).toBe('Created the CRM instance alpha');
      expect(activity).toContain('Created user user3 (user)');
    } finally {
      await projector.stop();
      await watcher.stop();
    }
  });

  test('a batch replayed after a crash takes effect once', async () => {
    const { instanceId, event } = await createInstance('replayed');
    const recorded = await store.readStream(`crminstance-${instanceId}`);
    expect(recorded[0]!.id).toBe(event.id);
    const options = { schema: READ_MODEL_SCHEMA, checkpointName: `crash-${instanceId}`, projections };
    await knex('projection_checkpoints').insert({ name: options.checkpointName, position_commit: '-1', position_prepare: '-1' });
    await applyBatch(knex, options, recorded);
    // Same events again, as after a crash between apply and acknowledgement.
    expect(await applyBatch(knex, options, recorded)).toBeNull();
    expect(await rm('activity').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  test('only one projector is active; the other waits on standby and takes over', async () => {
    const first = new Projector({
      store,
      knex,
      connectionString: db.url,
      projections,
      schema: READ_MODEL_SCHEMA,
      checkpointName: 'election',
    });
    const second = new Projector({
      store,
      knex,
      connectionString: db.url,
      projections,
      schema: READ_MODEL_SCHEMA,
      checkpointName: 'election',
      standbyRetryMs: 50,
    });
    first.start();
    await expect.poll(() => first.isLeader).toBe(true);
    second.start();
    await new Promise((r) => setTimeout(r, 200));
    expect(second.isLeader).toBe(false);
    await first.stop();
    await expect.poll(() => second.isLeader, { timeout: 5000 }).toBe(true);
    await second.stop();
  });
});

describe('rebuild', () => {
  test('replays into fresh tables, reports them identical to the live ones, and swaps them in', async () => {
    const projector = new Projector({ store, knex, connectionString: db.url, projections, schema: READ_MODEL_SCHEMA });
    projector.start();
    const watcher = new CheckpointWatcher(knex, db.url, 'main', 50);
    await watcher.start();
    try {
      const { instanceId } = await createInstance('rebuilt');
      const last = await createUser(instanceId, 'someone');
      expect(await watcher.waitFor(last.position, 5000)).toBe(true);
      const before = await rm('users').orderBy('id').select();
      const progress: number[] = [];
      const report = await rebuildReadModels({ store, knex, projections, onProgress: ({ replayed }) => progress.push(replayed) });
      expect(report.identical).toBe(true);
      expect(report.tables.map((t) => t.table)).toEqual(expect.arrayContaining(['activity', 'crm_instances', 'user_permissions', 'users']));
      expect(report.tables.every((t) => t.liveRows === t.rebuiltRows)).toBe(true);
      expect(progress.length).toBeGreaterThan(0);
      expect(await rm('users').orderBy('id').select()).toEqual(before);
      // The live projector keeps working on the swapped-in tables.
      const after = await createUser(instanceId, 'after-rebuild');
      expect(await watcher.waitFor(after.position, 5000)).toBe(true);
      expect(await rm('users').where({ username: 'after-rebuild' }).count({ n: '*' })).toEqual([{ n: '1' }]);
    } finally {
      await projector.stop();
      await watcher.stop();
    }
  });

  test('reports a live table that drifted from the events, and repairs it', async () => {
    const projector = new Projector({ store, knex, connectionString: db.url, projections, schema: READ_MODEL_SCHEMA });
    projector.start();
    const watcher = new CheckpointWatcher(knex, db.url, 'main', 50);
    await watcher.start();
    try {
      const { instanceId } = await createInstance('drifted');
      const last = await createUser(instanceId, 'victim');
      expect(await watcher.waitFor(last.position, 5000)).toBe(true);
      await rm('users').where({ username: 'victim' }).update({ display_name: 'tampered' });
      const report = await rebuildReadModels({ store, knex, projections });
      expect(report.identical).toBe(false);
      expect(report.tables.find((t) => t.table === 'users')?.identical).toBe(false);
      expect(await rm('users').where({ username: 'victim' }).first('display_name')).toEqual({ display_name: 'victim' });
    } finally {
      await projector.stop();
      await watcher.stop();
    }
  });
});
