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
