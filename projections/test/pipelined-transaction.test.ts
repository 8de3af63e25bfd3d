import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate } from '../src/db/migrate.ts';
import { createPostgresEventStore } from '../src/eventstore/postgres.ts';
import { WrongExpectedVersionError, type NewEvent } from '../src/eventstore/port.ts';
import { InlineProjectionError } from '../src/runtime/inline.ts';
import { pipelinedTransaction, quoteLiteral, withLiterals } from '../src/runtime/pipelined-transaction.ts';
import type { Projection } from '../src/runtime/projection.ts';
import { inlineProjections } from '../src/read-models.ts';
import { EMPTY_JOB_FIELDS } from '../src/pipeline/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/database.ts';
import { testEventMetadata } from '../src/testing/events.ts';

let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createTestDatabase();
  // One connection: a transaction that left it in a bad state would fail the next test.
  knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 1 } });
  await migrate(knex);
  await knex.raw("CREATE TABLE rm.written (event_id uuid PRIMARY KEY, note text NOT NULL CHECK (note <> 'refused'))");
});

afterAll(async () => {
  await knex?.destroy();
  await db?.drop();
});

describe('values written into the statement', () => {
  test('as literals that mean what the parameters meant; quoted text, identifiers, comments and dollar quotes are left alone', async () => {
    const sql = `select $1::text as a, '$2' as b, 1 as "x$1", $2::int + 1 as d, $3::jsonb as e, $tag$ $1 $tag$ as f,
      $4::text[] as g, $5::boolean as h, $6::text as i, $7::timestamptz as j -- $1
      /* $2 */`;
    const values = [
      "it's \\ odd",
      41,
      JSON.stringify({ quote: "'", back: '\\' }),
      ['a b', 'c"d'],
      true,
      null,
      new Date('2026-01-02T03:04:05.678Z'),
    ];
    const text = withLiterals({ sql, values });
    expect(text).toContain(`'$2' as b`);
    expect(text).toContain('1 as "x$1"');
    expect(text).toContain('$tag$ $1 $tag$');
    expect(text).toContain('-- $1');
    expect(text).toContain('/* $2 */');
    const client = (await knex.client.acquireConnection()) as { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
    try {
      const [bound] = (await client.query(sql, values)).rows;
      const [written] = (await client.query(text)).rows;
      expect(written).toEqual(bound);
      expect(written).toMatchObject({ a: "it's \\ odd", b: '$2', d: 42, g: ['a b', 'c"d'], h: true, i: null });
    } finally {
      await knex.client.releaseConnection(client);
    }
  });

  test("a literal is quoted exactly as pg's escapeLiteral quotes it, and reads back as the text", async () => {
    const texts = ['plain', "it's", 'back\\slash', "\\'\\''", '', '•••-•••-1234 Ωμέγα 🚗', '{"a":"b\\"c","d":"\'"}', "E'x'", '\n\t'];
    for (let i = 0; i < 200; i++) {
      const alphabet = ["'", '\\', 'a', ' ', '"', 'é', '\n'];
      texts.push(Array.from({ length: i % 17 }, (_, j) => alphabet[(i * 7 + j * 3) % alphabet.length]).join(''));
    }
    for (const text of texts) expect(quoteLiteral(text)).toBe(pg.escapeLiteral(text));
    const client = (await knex.client.acquireConnection()) as pg.PoolClient;
    try {
      for (const text of texts.slice(0, 20)) expect((await client.query(`SELECT ${quoteLiteral(text)} AS t`)).rows[0].t).toBe(text);
    } finally {
      await knex.client.releaseConnection(client);
    }
  });

  test('a statement naming a value it was not given is refused', () => {
    expect(() => withLiterals({ sql: 'select $2', values: [1] })).toThrow(/\$2/);
    expect(() => withLiterals({ sql: 'select $0', values: [1] })).toThrow(/\$0/);
  });

  test('the same text sent again takes each time its own values; a comment left open runs to the end of the text', () => {
    const sql = "select $1::int, '$1', $2::text, $1::int -- $2";
    expect(withLiterals({ sql, values: [1, 'a'] })).toBe("select '1'::int, '$1', 'a'::text, '1'::int -- $2");
    expect(withLiterals({ sql, values: [2, "b'c"] })).toBe("select '2'::int, '$1', 'b''c'::text, '2'::int -- $2");
    expect(withLiterals({ sql: 'select $1 /* $2', values: [3] })).toBe("select '3' /* $2");
    expect(withLiterals({ sql: 'select $10, $1', values: Array.from({ length: 10 }, (_, i) => i) })).toBe("select '9', '0'");
  });
});

function created(note: string): { streamId: string; event: NewEvent } {
  const instanceId = randomUUID();
  return {
    streamId: `probe-${randomUUID()}`,
    event: {
      id: randomUUID(),
      type: 'CrmInstanceCreated',
      // The note rides in the description.
      data: {
        instanceId,
        name: 'PROBE',
        subdomain: `probe${instanceId.slice(0, 8)}`,
        displayName: 'Probe',
        description: note,
        features: { pipeline: true, customers: true, calendar: false, admin: true },
      },
      metadata: testEventMetadata(instanceId),
    },
  };
}

/** Writes each event's note with ctx.write: held back until the COMMIT. */
const deferring: Projection = {
  name: 'deferring',
  inline: true,
  eventTypes: ['CrmInstanceCreated'],
  async apply(event, ctx) {
    await ctx.write(
      ctx.table('written').insert({ event_id: event.id, note: (event.data as unknown as { description: string }).description }),
    );
  },
};

describe('an append with its rows in a pipelined transaction', () => {
  test('a held-back write that fails at the COMMIT fails the append: nothing recorded, and the connection is clean for the next one', async () => {
    const store = createPostgresEventStore({ connectionString: db.url, inline: { knex, schema: 'rm', projections: [deferring] } });
    try {
      const refused = created('refused');
      const attempt = store.append(refused.streamId, [refused.event], { expectedRevision: 'no_stream' });
      await expect(attempt).rejects.toBeInstanceOf(InlineProjectionError);
      await expect(attempt).rejects.toThrow(/deferring read model/);
      expect(await store.readStream(refused.streamId)).toEqual([]);
      // The pool's only connection was given back outside any transaction.
      const fine = created('fine');
      await store.append(fine.streamId, [fine.event], { expectedRevision: 'no_stream' });
      expect(await knex('rm.written').where({ event_id: fine.event.id }).first('note')).toEqual({ note: 'fine' });
      expect(await knex('rm.written').where({ event_id: refused.event.id }).first()).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  test('a wrong expected revision on the second stream of one message names that stream, and nothing of the first is recorded', async () => {
    const store = createPostgresEventStore({ connectionString: db.url, inline: { knex, schema: 'rm', projections: [deferring] } });
    try {
      const first = created('first');
      const second = created('second');
      await store.append(second.streamId, [second.event], { expectedRevision: 'no_stream' });
      const again = { ...created('again'), streamId: second.streamId };
      const attempt = store.appendMany([
        { streamId: first.streamId, events: [first.event], expectedRevision: 'no_stream' },
        { streamId: again.streamId, events: [again.event], expectedRevision: 'no_stream' },
      ]);
      await expect(attempt).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(attempt).rejects.toMatchObject({ streamId: second.streamId, actual: 0 });
      expect(await store.readStream(first.streamId)).toEqual([]);
      expect(await knex('rm.written').where({ event_id: first.event.id }).first()).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  test('work that fails before anything was sent sends no BEGIN and no ROLLBACK', async () => {
    await expect(
      pipelinedTransaction(knex, async () => {
        throw new Error('decided against it');
      }),
    ).rejects.toThrow('decided against it');
    expect((await knex.raw('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});

/** Whether the connection's current statement is a transaction of its own (no transaction left open on it). */
async function outsideTransaction(): Promise<boolean> {
  const result = await knex.raw<{ rows: Array<{ own: boolean }> }>(
    'SELECT xact_start = query_start AS own FROM pg_stat_activity WHERE pid = pg_backend_pid()',
  );
  return result.rows[0]!.own;
}

describe('a pipelined transaction on the knex bound to its connection', () => {
  const write = (note: string): { sql: string; values: [string, string] } => ({
    sql: 'INSERT INTO rm.written (event_id, note) VALUES ($1, $2)',
    values: [randomUUID(), note],
  });

  test("commits what it held back and what its knex ran; the knex's reads see the held-back writes", async () => {
    for (const note of ['bound-1', 'bound-2']) {
      const held = write(note);
      const seen = await pipelinedTransaction(knex, async (trx, connection) => {
        connection.defer(held, 'test');
        const read = await trx.raw<{ rows: unknown[] }>('SELECT note FROM rm.written WHERE event_id = ?', [held.values[0]]);
        await trx.raw('UPDATE rm.written SET note = ? WHERE event_id = ?', [`${note}-updated`, held.values[0]]);
        return read.rows;
      });
      expect(seen).toEqual([{ note }]);
      expect(await knex('rm.written').where({ event_id: held.values[0] }).first('note')).toEqual({ note: `${note}-updated` });
      expect(await outsideTransaction()).toBe(true);
    }
  });

  test('work that fails after its knex ran a statement: all of it rolled back, the connection back outside any transaction', async () => {
    const held = write('rolled back');
    await expect(
      pipelinedTransaction(knex, async (trx, connection) => {
        connection.defer(held, 'test');
        await trx.raw('SELECT 1');
        throw new Error('decided against it');
      }),
    ).rejects.toThrow('decided against it');
    expect(await knex('rm.written').where({ event_id: held.values[0] }).first()).toBeUndefined();
    expect(await outsideTransaction()).toBe(true);
  });

  test('a held-back write that fails at the COMMIT: nothing recorded, the error names who wrote it, the connection clean', async () => {
    const fine = write('fine too');
    await expect(
      pipelinedTransaction(knex, async (_trx, connection) => {
        connection.defer(fine, '');
        connection.defer(write('refused'), 'refusing');
      }),
    ).rejects.toMatchObject({ name: 'DeferredWriteError', writers: ['refusing'] });
    expect(await knex('rm.written').where({ event_id: fine.values[0] }).first()).toBeUndefined();
    expect(await outsideTransaction()).toBe(true);
  });
});

/**
 * Writes each event's note with a statement prepared on the connection (its RETURNING to
 * `returned`). `tag` makes a statement text of its own (a statement not yet prepared).
 */
function preparing(tag: string, returned: Array<Record<string, unknown>> = []): Projection {
  return {
    name: `preparing-${tag}`,
    inline: true,
    eventTypes: ['CrmInstanceCreated'],
    async apply(event, ctx) {
      await ctx.write(
        {
          sql: `INSERT INTO ??.written (event_id, note) VALUES (?::uuid, ?::text) RETURNING * -- ${tag}`,
          bindings: [ctx.schema, event.id, (event.data as unknown as { description: string }).description],
          prepared: true,
        },
        (rows) => returned.push(...rows),
      );
    },
  };
}

/** The statements prepared on the session of the pool's only connection. */
async function preparedOnSession(): Promise<string[]> {
  const result = await knex.raw<{ rows: Array<{ name: string }> }>(
    "SELECT name FROM pg_prepared_statements WHERE name LIKE 'crm\\_%' ORDER BY name",
  );
  return result.rows.map((row) => row.name);
}

describe('a row statement prepared on the connection', () => {
  test('a message that failed after its PREPARE ran (at its EXECUTE, or at the append before it) leaves the next append on the connection able to run it', async () => {
    const returned: Array<Record<string, unknown>> = [];
    const store = createPostgresEventStore({
      connectionString: db.url,
      inline: { knex, schema: 'rm', projections: [preparing('after', returned)] },
    });
    try {
      const before = await preparedOnSession();
      // The statement's first message: prepared, then its EXECUTE refused (the CHECK), all rolled back.
      const refused = created('refused');
      await expect(store.append(refused.streamId, [refused.event], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        InlineProjectionError,
      );
      // PREPARE is not transactional: the statement stayed on the session.
      expect((await preparedOnSession()).length).toBe(before.length + 1);
      const fine = created('fine');
      await store.append(fine.streamId, [fine.event], { expectedRevision: 'no_stream' });
      expect(returned).toEqual([expect.objectContaining({ event_id: fine.event.id, note: 'fine' })]);
      expect(await knex('rm.written').where({ event_id: refused.event.id }).first()).toBeUndefined();
      // Prepared by now: the next messages only EXECUTE it.
      const again = created('again');
      await store.append(again.streamId, [again.event], { expectedRevision: 'no_stream' });
      expect(returned.map((row) => row.note)).toEqual(['fine', 'again']);
    } finally {
      await store.close();
    }
    const store2 = createPostgresEventStore({
      connectionString: db.url,
      inline: { knex, schema: 'rm', projections: [preparing('before')] },
    });
    const other = createPostgresEventStore({ connectionString: db.url, inline: { knex, schema: 'rm', projections: [deferring] } });
    try {
      const taken = created('taken');
      await other.append(taken.streamId, [taken.event], { expectedRevision: 'no_stream' });
      const before = await preparedOnSession();
      // The statement's first message fails before its EXECUTE runs (the append's wrong
      // revision); its PREPARE, first in the message, ran.
      const clash = { ...created('clash'), streamId: taken.streamId };
      await expect(store2.append(clash.streamId, [clash.event], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        WrongExpectedVersionError,
      );
      expect((await preparedOnSession()).length).toBe(before.length + 1);
      const fine = created('fine after clash');
      await store2.append(fine.streamId, [fine.event], { expectedRevision: 'no_stream' });
      expect((await preparedOnSession()).length).toBe(before.length + 1);
      expect(await knex('rm.written').whereIn('event_id', [clash.event.id, fine.event.id]).pluck('note')).toEqual(['fine after clash']);
    } finally {
      await other.close();
      await store2.close();
    }
  });

  test('a statement gone from the session (a DISCARD) is prepared again and the append recorded once', async () => {
    const store = createPostgresEventStore({
      connectionString: db.url,
      inline: { knex, schema: 'rm', projections: [preparing('discarded')] },
    });
    try {
      const first = created('first');
      await store.append(first.streamId, [first.event], { expectedRevision: 'no_stream' });
      await knex.raw('DISCARD ALL');
      const second = created('second');
      await store.append(second.streamId, [second.event], { expectedRevision: 'no_stream' });
      expect(await store.readStream(second.streamId)).toHaveLength(1);
      expect(await knex('rm.written').where({ event_id: second.event.id }).first('note')).toEqual({ note: 'second' });
    } finally {
      await store.close();
    }
  });

  test("a projection's own DO block beside a statement's first PREPARE: each write still gets its own rows", async () => {
    const returned: Array<Record<string, unknown>> = [];
    const prepare = preparing('beside a DO', returned);
    const store = createPostgresEventStore({
      connectionString: db.url,
      inline: {
        knex,
        schema: 'rm',
        projections: [
          {
            name: 'doing',
            inline: true,
            eventTypes: ['CrmInstanceCreated'],
            async apply(_event, ctx) {
              await ctx.write({ sql: 'DO $body$BEGIN PERFORM 1; END$body$', bindings: [] });
            },
          },
          prepare,
        ],
      },
    });
    try {
      // Not prepared on the session yet: the message holds the DO that prepares it and the projection's DO.
      const first = created('first beside a DO');
      await store.append(first.streamId, [first.event], { expectedRevision: 'no_stream' });
      const second = created('second beside a DO');
      await store.append(second.streamId, [second.event], { expectedRevision: 'no_stream' });
      expect(returned).toEqual([
        expect.objectContaining({ event_id: first.event.id, note: 'first beside a DO' }),
        expect.objectContaining({ event_id: second.event.id, note: 'second beside a DO' }),
      ]);
    } finally {
      await store.close();
    }
  });

  test('a column added by another connection after the plan is cached: a RETURNING * plan is prepared again, the append recorded once', async () => {
    const returned: Array<Record<string, unknown>> = [];
    const store = createPostgresEventStore({
      connectionString: db.url,
      inline: { knex, schema: 'rm', projections: [preparing('widened', returned)] },
    });
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      const first = created('first');
      await store.append(first.streamId, [first.event], { expectedRevision: 'no_stream' });
      await other.query('ALTER TABLE rm.written ADD COLUMN widened text');
      // Its cached plan's result type changed (0A000): prepared again on the retry.
      const second = created('second');
      await store.append(second.streamId, [second.event], { expectedRevision: 'no_stream' });
      expect(await store.readStream(second.streamId)).toHaveLength(1);
      expect(returned.at(-1)).toEqual({ event_id: second.event.id, note: 'second', widened: null });
    } finally {
      await other.query('ALTER TABLE rm.written DROP COLUMN IF EXISTS widened').catch(() => {});
      await other.end();
      await store.close();
    }
  });

  test("a job's row statements name their columns: a column another connection adds to jobs changes nothing for the next create and update", async () => {
    const store = createPostgresEventStore({ connectionString: db.url, inline: { knex, schema: 'rm', projections: inlineProjections } });
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    const instanceId = randomUUID();
    const job = async (jobId: string, expectedRevision: number | 'no_stream', type: 'JobCreated' | 'JobUpdated', data: unknown) =>
      await store.append(`job-${jobId}`, [{ id: randomUUID(), type, data, metadata: testEventMetadata(instanceId) }] as NewEvent[], {
        expectedRevision,
      });
    const fields = { ...EMPTY_JOB_FIELDS, jobNumber: '7', name: 'Ann Lee', part: 'Brake pads', quote: 1234 };
    try {
      const jobId = randomUUID();
      await job(jobId, 'no_stream', 'JobCreated', { jobId, instanceId, ...fields });
      await job(jobId, 0, 'JobUpdated', {
        jobId,
        jobNumber: '7',
        name: 'Ann Lee',
        changes: [{ field: 'part', oldValue: 'Brake pads', newValue: 'Rotors' }],
      });
      await other.query('ALTER TABLE rm.jobs ADD COLUMN widened text');
      const updated = await job(jobId, 1, 'JobUpdated', {
        jobId,
        jobNumber: '7',
        name: 'Ann Lee',
        changes: [{ field: 'part', oldValue: 'Rotors', newValue: 'Calipers' }],
      });
      const otherJob = randomUUID();
      const made = await job(otherJob, 'no_stream', 'JobCreated', { jobId: otherJob, instanceId, ...fields, jobNumber: '8' });
      // The answers are the rows as the statements name them, not the table's columns now.
      expect(updated.written?.jobs?.[0]).toMatchObject({ id: jobId, part: 'Calipers', revision: 2 });
      expect(updated.written?.jobs?.[0]).not.toHaveProperty('widened');
      expect(made.written?.jobs?.[0]).toMatchObject({ id: otherJob, job_number: '8' });
      expect(made.written?.jobs?.[0]).not.toHaveProperty('widened');
      expect(await knex('rm.jobs').where({ instance_id: instanceId }).orderBy('job_number').pluck('part')).toEqual([
        'Calipers',
        'Brake pads',
      ]);
    } finally {
      await other.query('ALTER TABLE rm.jobs DROP COLUMN IF EXISTS widened').catch(() => {});
      await other.end();
      await store.close();
    }
  });
});
