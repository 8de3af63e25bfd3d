import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { createPostgresEventStore } from '../src/eventstore/postgres.ts';
import { RequiredRowMissingError, WrongExpectedVersionError, type EventStore, type NewEvent } from '../src/eventstore/port.ts';
import { inlineProjections, projections, projectorNeededFor } from '../src/read-models.ts';
import { CheckpointWatcher, readCheckpoint } from '../src/runtime/checkpoints.ts';
import { ensureInlineSince, InlineProjectionError, readInlineSince } from '../src/runtime/inline.ts';
import type { Projection } from '../src/runtime/projection.ts';
import { Projector } from '../src/runtime/projector.ts';
import { rebuildReadModels } from '../src/runtime/rebuild.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/database.ts';
import { testEventMetadata } from '../src/testing/events.ts';

let db: TestDatabase;
let knex: Knex;
/** Appends without inline projections (as before inline projection existed). */
let plain: EventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 10 } });
  await migrate(knex);
  // A probe read model: counts how often each event reached it.
  await knex.raw('CREATE TABLE rm.probe (event_id uuid PRIMARY KEY, applied integer NOT NULL, via text NOT NULL)');
  plain = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 50 });
});

afterAll(async () => {
  await plain?.close();
  await knex?.destroy();
  await db?.drop();
});

function instanceCreated(subdomain: string): { streamId: string; instanceId: string; event: NewEvent } {
  const instanceId = randomUUID();
  return {
    instanceId,
    streamId: `crminstance-${instanceId}`,
    event: {
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
      metadata: testEventMetadata(instanceId),
    },
  };
}

function userCreated(instanceId: string, username: string): { streamId: string; event: NewEvent } {
  const userId = randomUUID();
  return {
    streamId: `user-${userId}`,
    event: {
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
      metadata: testEventMetadata(instanceId),
    },
  };
}

function probe(via: string): Projection {
  return {
    name: `probe-${via}`,
    inline: true,
    eventTypes: ['CrmInstanceCreated', 'UserCreated'],
    async apply(event, ctx) {
      await ctx.trx.raw(
        `INSERT INTO ??.probe AS p (event_id, applied, via) VALUES (?, 1, ?)
           ON CONFLICT (event_id) DO UPDATE SET applied = p.applied + 1, via = p.via || ',' || excluded.via`,
        [ctx.schema, event.id, via],
      );
    },
  };
}

const rm = (table: string) => knex.withSchema(READ_MODEL_SCHEMA).from(table);

describe('inline projections', () => {
  test("commands need not wait for the projector: every record's own read model is inline, the others' readers wait themselves", () => {
    expect(inlineProjections.map((p) => p.name)).toEqual(expect.arrayContaining(['platform', 'identity', 'customers', 'pipeline']));
    expect(projections.filter((p) => p.name === 'audit' || p.name === 'insights').every((p) => !p.inline && p.awaitedByReads)).toBe(true);
    expect(projectorNeededFor(['JobCreated', 'CustomerCreated', 'UserCreated'])).toBe(false);
  });

  test('the projector applies them to what came before inline projection started, and never to what appends projected', async () => {
    // Appended before any process projected inline: the projector's to apply.
    const before = instanceCreated('before-inline');
    await plain.append(before.streamId, [before.event], { expectedRevision: 'no_stream' });
    const since = await ensureInlineSince(knex);
    expect(await ensureInlineSince(knex)).toEqual(since);
    expect(await readInlineSince(knex)).toEqual(since);

    const inline = createPostgresEventStore({
      connectionString: db.url,
      pollIntervalMs: 50,
      inline: { knex, schema: 'rm', projections: [probe('append')] },
    });
    expect(inline.projectsInline).toBe(true);
    const after = instanceCreated('after-inline');
    const appended = await inline.append(after.streamId, [after.event], { expectedRevision: 'no_stream' });
    // Written with the events: there as soon as the append answers, no projector running.
    expect(await rm('probe').where({ event_id: after.event.id }).first('applied', 'via')).toEqual({ applied: 1, via: 'append' });
    const user = userCreated(after.instanceId, 'one');
    const other = userCreated(after.instanceId, 'two');
    await inline.appendMany([
      { streamId: user.streamId, events: [user.event], expectedRevision: 'no_stream' },
      { streamId: other.streamId, events: [other.event], expectedRevision: 'no_stream' },
    ]);
    expect(await rm('probe').whereIn('event_id', [user.event.id, other.event.id]).pluck('via')).toEqual(['append', 'append']);
    // A retried append (same ids) records nothing and projects nothing again.
    await inline.append(after.streamId, [after.event], { expectedRevision: 'no_stream' });

    const watcher = new CheckpointWatcher(knex, db.url, 'main', 50);
    await watcher.start();
    const projector = new Projector({
      store: inline,
      knex,
      connectionString: db.url,
      projections: [probe('projector')],
      inline: true,
      schema: READ_MODEL_SCHEMA,
    });
    projector.start();
    try {
      expect(await watcher.waitFor(appended.position, 10_000)).toBe(true);
      const last = await inline.headPosition();
      expect(await watcher.waitFor(last, 10_000)).toBe(true);
      expect(await rm('probe').where({ event_id: before.event.id }).first('applied', 'via')).toEqual({ applied: 1, via: 'projector' });
      expect(await rm('probe').where({ event_id: after.event.id }).first('applied', 'via')).toEqual({ applied: 1, via: 'append' });
      expect(await rm('probe').whereIn('event_id', [user.event.id, other.event.id]).pluck('applied')).toEqual([1, 1]);
    } finally {
      await projector.stop();
      await watcher.stop();
      await inline.close();
    }
  });

  test('a projection that fails fails the append: no event, no stream, no row', async () => {
    const failing: Projection = {
      name: 'failing',
      inline: true,
      async apply() {
        throw new Error('the row does not fit');
      },
    };
    const inline = createPostgresEventStore({
      connectionString: db.url,
      inline: { knex, schema: 'rm', projections: [probe('append'), failing] },
    });
    try {
      const created = instanceCreated('refused');
      const user = userCreated(created.instanceId, 'refused');
      const attempt = inline.appendMany([
        { streamId: created.streamId, events: [created.event], expectedRevision: 'no_stream' },
        { streamId: user.streamId, events: [user.event], expectedRevision: 'no_stream' },
      ]);
      await expect(attempt).rejects.toBeInstanceOf(InlineProjectionError);
      await expect(attempt).rejects.toThrow(/failing read model .* nothing was recorded: the row does not fit/);
      expect(await inline.readStream(created.streamId)).toEqual([]);
      expect(await knex('streams').whereIn('stream_id', [created.streamId, user.streamId]).count({ n: '*' })).toEqual([{ n: '0' }]);
      expect(await rm('probe').whereIn('event_id', [created.event.id, user.event.id]).count({ n: '*' })).toEqual([{ n: '0' }]);
      // A wrong expected revision is still the store's own error, with nothing recorded either.
      await expect(inline.append(created.streamId, [created.event], { expectedRevision: 3 })).rejects.toThrow(/expected revision 3/);
    } finally {
      await inline.close();
    }
  });

  test("an append of known revisions sends its rows with it: their time is the one the store keeps, a replay projects nothing again, a stale revision is the store's error", async () => {
    // Writes nobody reads back (ctx.write): the append, these rows and COMMIT are one message.
    const stamp: Projection = {
      name: 'stamp',
      inline: true,
      eventTypes: ['CrmInstanceCreated', 'UserCreated'],
      async apply(event, ctx) {
        await ctx.write(
          ctx.trx.raw(
            `INSERT INTO ??.probe AS p (event_id, applied, via) VALUES (?, 1, ?)
               ON CONFLICT (event_id) DO UPDATE SET applied = p.applied + 1`,
            [ctx.schema, event.id, `${event.revision}@${event.recordedAt.toISOString()}`],
          ),
        );
      },
    };
    const inline = createPostgresEventStore({ connectionString: db.url, inline: { knex, schema: 'rm', projections: [stamp] } });
    try {
      const created = instanceCreated('onemessage');
      const user = userCreated(created.instanceId, 'onemessage');
      const first = await inline.append(created.streamId, [created.event], { expectedRevision: 'no_stream' });
      const [stored] = await inline.readStream(created.streamId);
      expect(first.recordedAt?.map((at) => at.toISOString())).toEqual([stored!.recordedAt.toISOString()]);
      expect(await rm('probe').where({ event_id: created.event.id }).first('applied', 'via')).toEqual({
        applied: 1,
        via: `0@${stored!.recordedAt.toISOString()}`,
      });
      // The same append again (a retried request): answered as the replay it is, projected once.
      const again = await inline.append(created.streamId, [created.event], { expectedRevision: 'no_stream' });
      expect(again).toMatchObject({ nextRevision: 0, position: first.position });
      expect(again.recordedAt).toBeUndefined();
      expect(await rm('probe').where({ event_id: created.event.id }).first('applied')).toEqual({ applied: 1 });
      // A stale expected revision fails the whole message: the store's error, nothing recorded.
      const stale = inline.appendMany([
        { streamId: user.streamId, events: [user.event], expectedRevision: 'no_stream' },
        { streamId: created.streamId, events: [{ ...created.event, id: randomUUID() }], expectedRevision: 'no_stream' },
      ]);
      await expect(stale).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(stale).rejects.toThrow(new RegExp(created.streamId));
      expect(await inline.readStream(user.streamId)).toEqual([]);
      expect(await rm('probe').where({ event_id: user.event.id }).first()).toBeUndefined();
      // The next revision is known from the expected one: revision 1 after 0.
      const next = { ...created.event, id: randomUUID() };
      await inline.append(created.streamId, [next], { expectedRevision: 0 });
      expect((await rm('probe').where({ event_id: next.id }).first('via'))?.via).toMatch(/^1@/);
    } finally {
      await inline.close();
    }
  });

  test('an append that requires a row is recorded only when the row is there, the check going in its message', async () => {
    const inline = createPostgresEventStore({ connectionString: db.url, inline: { knex, schema: 'rm', projections: inlineProjections } });
    try {
      const created = instanceCreated('requires');
      await inline.append(created.streamId, [created.event], { expectedRevision: 'no_stream' });
      const there = { table: 'crm_instances', where: { id: created.instanceId } };
      const missing = { table: 'crm_instances', where: { id: randomUUID() } };
      const first = userCreated(created.instanceId, 'required');
      // The missing row is named; nothing of the append is recorded, in one message or the ordinary way.
      for (const append of [
        () => inline.append(first.streamId, [first.event], { expectedRevision: 'no_stream', requires: [there, missing] }),
        () => inline.append(first.streamId, [first.event], { expectedRevision: 'any', requires: [missing] }),
      ]) {
        const refused = append();
        await expect(refused).rejects.toBeInstanceOf(RequiredRowMissingError);
        await expect(refused).rejects.toMatchObject({ row: missing });
        expect(await inline.readStream(first.streamId)).toEqual([]);
        expect(
          await rm('users')
            .where({ id: (first.event.data as { userId: string }).userId })
            .first(),
        ).toBeUndefined();
      }
      await inline.append(first.streamId, [first.event], { expectedRevision: 'no_stream', requires: [there] });
      expect(await inline.readStream(first.streamId)).toHaveLength(1);
      // A store that writes no rows with its events cannot check one.
      const second = userCreated(created.instanceId, 'unchecked');
      await expect(plain.append(second.streamId, [second.event], { expectedRevision: 'no_stream', requires: [there] })).rejects.toThrow(
        /only where appends project inline/,
      );
    } finally {
      await inline.close();
    }
  });

  test('a rebuild replays inline and asynchronous read models alike and finds them identical, also with the projector stopped behind', async () => {
    // A database of its own: every event in it went through the real read models.
    const own = await createTestDatabase();
    const knex = knexFactory({ client: 'pg', connection: own.url, pool: { min: 0, max: 10 } });
    await migrate(knex);
    await ensureInlineSince(knex);
    const rm = (table: string) => knex.withSchema(READ_MODEL_SCHEMA).from(table);
    const inline = createPostgresEventStore({
      connectionString: own.url,
      pollIntervalMs: 50,
      inline: { knex, schema: READ_MODEL_SCHEMA, projections: inlineProjections },
    });
    const watcher = new CheckpointWatcher(knex, own.url, 'main', 50);
    await watcher.start();
    const projectorOf = () =>
      new Projector({ store: inline, knex, connectionString: own.url, projections, inline: true, schema: READ_MODEL_SCHEMA });
    try {
      const created = instanceCreated('rebuilt-inline');
      await inline.append(created.streamId, [created.event], { expectedRevision: 'no_stream' });
      const user = userCreated(created.instanceId, 'someone');
      const last = await inline.append(user.streamId, [user.event], { expectedRevision: 'no_stream' });
      expect(await rm('users').where({ username: 'someone' }).count({ n: '*' })).toEqual([{ n: '1' }]);
      const projector = projectorOf();
      projector.start();
      expect(await watcher.waitFor(last.position, 10_000)).toBe(true);
      await projector.stop();

      // More events while no projector runs: their inline rows exist, their activity not yet.
      const late = userCreated(created.instanceId, 'late');
      const lateAppended = await inline.append(late.streamId, [late.event], { expectedRevision: 'no_stream' });
      expect(await rm('activity').where({ instance_id: created.instanceId }).pluck('summary')).not.toContain('Created user late (user)');

      const report = await rebuildReadModels({ store: inline, knex, projections });
      expect(report.tables.filter((t) => !t.identical)).toEqual([]);
      expect(report.identical).toBe(true);
      expect(report.position).toEqual(lateAppended.position);
      expect(await readCheckpoint(knex, 'main')).toEqual(lateAppended.position);
      expect(await rm('activity').where({ instance_id: created.instanceId }).pluck('summary')).toContain('Created user late (user)');
      expect(await rm('users').where({ instance_id: created.instanceId }).orderBy('username').pluck('username')).toEqual([
        'late',
        'someone',
      ]);

      // After the swap, appends write into the swapped-in tables.
      const next = userCreated(created.instanceId, 'after-rebuild');
      await inline.append(next.streamId, [next.event], { expectedRevision: 'no_stream' });
      expect(await rm('users').where({ username: 'after-rebuild' }).count({ n: '*' })).toEqual([{ n: '1' }]);
    } finally {
      await watcher.stop();
      await inline.close();
      await knex.destroy();
      await own.drop();
    }
  });
});
