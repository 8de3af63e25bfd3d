import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import { createLogger } from '../../src/logger.ts';
import { catchUpImported } from '../../src/platform/import-catch-up.ts';
import { countInstanceEvents, instanceEventLines } from '../../src/platform/instance-export.ts';
import { importEvents, ImportError } from '../../src/platform/instance-import.ts';
import {
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiClient,
  type TestInstance,
  type TestServer,
} from '../support/server.ts';
import { createProjector, createReactors } from '../../src/runtime.ts';
import { REPO_ROOT, waitForCheckpoint } from './support.ts';

/**
 * Backup and export: a shop's events as JSONL (the download on its card and `npm run
 * export` write the same lines); imported into an empty store and rebuilt, they give the
 * shop's read models exactly as they are (every table, row for row).
 */
let server: TestServer;
let shop: TestInstance;
let other: TestInstance;
let owner: ApiClient;
let superAdmin: ApiClient;
let target: TestDatabase;
let targetKnex: Knex;

beforeAll(async () => {
  server = await startTestServer();
  shop = await createTestInstance(server, 'exportshop');
  other = await createTestInstance(server, 'othershop');
  owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  superAdmin = await signInSuperAdmin(server);
  // A history with every kind of change: creates, edits, a stage move, deletes, a cascade, a user.
  const customer = await owner.post('/api/customers', { name: 'Ada Export', phone: '5550100', vehicles: ['Civic'] });
  expect(customer.status, customer.text).toBe(201);
  const job = await owner.post('/api/user-info', { name: 'Bo Export', phone: '5550101', part: 'Rotor', makeModel: 'Golf' });
  expect(job.status, job.text).toBe(201);
  const linked = await owner.post('/api/user-info', { name: 'Ada Export', part: 'Pads', customerId: customer.body.id });
  expect(linked.status, linked.text).toBe(201);
  expect((await owner.put(`/api/user-info/${job.body.id}`, { quote: '120.50', notes: 'call first' })).status).toBe(200);
  const doomed = await owner.post('/api/customers', { name: 'Cy Gone' });
  await owner.post('/api/user-info', { name: 'Cy Gone', part: 'Belt', customerId: doomed.body.id });
  expect((await owner.delete(`/api/customers/${doomed.body.id}`)).status).toBe(200);
  expect(
    (await owner.post('/api/admin/users', { username: 'tech1', displayName: 'Tech One', pin: '4321', role: 'user' })).status,
  ).toBeLessThan(300);
  const otherOwner = await signInUser(server, other.subdomain, 'owner', '1234');
  await otherOwner.post('/api/customers', { name: 'Not In The Export' });

  target = await createTestDatabase();
  targetKnex = knexFactory({ client: 'pg', connection: target.url, pool: { min: 0, max: 4 } });
  await migrate(targetKnex);
});

afterAll(async () => {
  await targetKnex?.destroy();
  await target?.drop();
  await server?.stop();
});

async function* linesOf(text: string): AsyncGenerator<string> {
  for (const line of text.split('\n')) yield line;
}

/**
 * Each read-model table's rows of the shop, as one digest (order-independent). Columns that
 * hold global log positions (position_*) are left out of the digest: a position is where
 * the store put an event (PostgreSQL's transaction ids), not what it says, and differs in
 * another store; their order is compared separately (activityOrder).
 */
async function digests(knex: Knex, instanceId: string): Promise<Record<string, string>> {
  const columns = (await knex('information_schema.columns')
    .where({ table_schema: READ_MODEL_SCHEMA })
    .orderBy(['table_name', 'ordinal_position'])
    .select('table_name', 'column_name')) as Array<{ table_name: string; column_name: string }>;
  const tables = [...new Set(columns.filter((c) => c.column_name === 'instance_id').map((c) => c.table_name)), 'crm_instances'];
  const result: Record<string, string> = {};
  for (const table of tables) {
    const kept = columns.filter((c) => c.table_name === table && !c.column_name.startsWith('position_')).map((c) => c.column_name);
    const key = table === 'crm_instances' ? 'id' : 'instance_id';
    const row = (
      await knex.raw<{ rows: { n: string; digest: string | null }[] }>(
        `select count(*)::text as n, md5(string_agg(r::text, E'\\n' order by r::text)) as digest
           from (select ${kept.map(() => '??').join(', ')} from ??.?? where ??::text = ?) r`,
        [...kept, READ_MODEL_SCHEMA, table, key, instanceId],
      )
    ).rows[0]!;
    result[table] = `${row.n} ${row.digest}`;
  }
  return result;
}

/** The shop's activity in the order of its positions: the same order in both stores. */
async function activityOrder(knex: Knex, instanceId: string): Promise<string[]> {
  return (await knex
    .withSchema(READ_MODEL_SCHEMA)
    .from('activity')
    .where({ instance_id: instanceId })
    .orderBy([{ column: 'position_commit' }, { column: 'position_prepare' }])
    .pluck('event_id')) as string[];
}

describe('export', () => {
  test("the super admin downloads the shop's events from its card: JSONL, only this shop's, in log order", async () => {
    const res = await superAdmin.get(`/api/crm-instances/${shop.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="exportshop-events-\d{4}-\d{2}-\d{2}\.jsonl"/);
    const lines = res.text.trim().split('\n');
    // The last line says how many events come before it: a file cut short is refused.
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: 'shop-crm-events', events: lines.length - 1 });
    const events = lines
      .slice(0, -1)
      .map((line) => JSON.parse(line) as { type: string; streamId: string; metadata: { instanceId: string | null }; data: unknown });
    expect(events.length).toBe(await countInstanceEvents(server.runtime.deps.knex, shop.id));
    expect(events.every((e) => e.metadata.instanceId === shop.id || (e.data as { instanceId?: string }).instanceId === shop.id)).toBe(true);
    expect(res.text).not.toContain('Not In The Export');
    expect(res.text).not.toContain(other.id);
    const types = new Set(events.map((e) => e.type));
    for (const type of [
      'CrmInstanceCreated',
      'UserCreated',
      'CustomerCreated',
      'JobCreated',
      'JobUpdated',
      'CustomerDeleted',
      'JobDeleted',
    ]) {
      expect(types, type).toContain(type);
    }
    // The same lines as `npm run export` writes.
    let fromScript = '';
    for await (const chunk of instanceEventLines(server.runtime.deps.knex, shop.id)) fromScript += chunk;
    expect(fromScript).toBe(res.text);
  });

  test('only the super admin; an unknown or malformed id is a 404 problem', async () => {
    expect((await owner.get(`/api/crm-instances/${shop.id}/export`)).status).toBeGreaterThanOrEqual(401);
    expect((await owner.get(`/api/crm-instances/${shop.id}/export`)).status).toBeLessThan(404);
    const missing = await superAdmin.get('/api/crm-instances/00000000-0000-4000-8000-000000000000/export');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBeTruthy();
    expect((await superAdmin.get('/api/crm-instances/not-an-id/export')).status).toBe(404);
  });
});

describe('import', () => {
  test("into an empty store, then a rebuild: the shop's read models are identical, table by table", async () => {
    const source = server.runtime.deps;
    await waitForCheckpoint(source.knex, source.config.DATABASE_URL!);
    const exported = (await superAdmin.get(`/api/crm-instances/${shop.id}/export`)).text;
    const report = await importEvents(targetKnex, linesOf(exported));
    expect(report.events).toBe(exported.trim().split('\n').length - 1);

    const store = createPostgresEventStore({ connectionString: target.url });
    try {
      // What `npm run import` does after writing: the projector and reactors to the head.
      const logger = createLogger('silent');
      const storage = { databaseUrl: target.url, knex: targetKnex, store, close: async () => undefined };
      await catchUpImported(storage, [createProjector(storage, logger), ...createReactors(storage, logger)]);
      const rebuilt = await rebuildReadModels({ store, knex: targetKnex, projections });
      expect(rebuilt.eventsReplayed).toBe(report.events);
      expect(rebuilt.tables.filter((t) => !t.identical)).toEqual([]);
    } finally {
      await store.close();
    }
    const before = await digests(source.knex, shop.id);
    const after = await digests(targetKnex, shop.id);
    expect(Object.keys(before).length).toBeGreaterThan(4);
    expect(after).toEqual(before);
    expect(await activityOrder(targetKnex, shop.id)).toEqual(await activityOrder(source.knex, shop.id));
    // Recorded as they were: same ids, revisions and recorded times.
    const [original] = await source.knex('events').where({ type: 'CrmInstanceCreated' }).whereRaw("data->>'instanceId' = ?", [shop.id]);
    const [copy] = await targetKnex('events').where({ type: 'CrmInstanceCreated' });
    expect(copy.event_id).toBe(original.event_id);
    expect(new Date(copy.recorded_at).getTime()).toBe(new Date(original.recorded_at).getTime());
  });

  test('while a running server projects the store (its projector holds the lock), the import ends once that one has passed it', async () => {
    const source = server.runtime.deps;
    await waitForCheckpoint(source.knex, source.config.DATABASE_URL!);
    const exported = (await superAdmin.get(`/api/crm-instances/${shop.id}/export`)).text;
    const busy = await createTestDatabase();
    const knex = knexFactory({ client: 'pg', connection: busy.url, pool: { min: 0, max: 4 } });
    const store = createPostgresEventStore({ connectionString: busy.url });
    const logger = createLogger('silent');
    const storage = { databaseUrl: busy.url, knex, store, close: async () => undefined };
    // The "server": its projector and reactors win the election first and keep running.
    const running = [createProjector(storage, logger), ...createReactors(storage, logger)];
    try {
      await migrate(knex);
      for (const subscriber of running) subscriber.start();
      await expect.poll(() => running.every((subscriber) => subscriber.isLeader), { timeout: 30_000 }).toBe(true);
      const report = await importEvents(knex, linesOf(exported));
      const importers = [createProjector(storage, logger), ...createReactors(storage, logger)] as const;
      const ms = await Promise.race([
        catchUpImported(storage, importers),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the import waited for its own projector forever')), 60_000)),
      ]);
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(importers.some((subscriber) => subscriber.isLeader)).toBe(false);
      expect(report.events).toBeGreaterThan(4);
      expect(await digests(knex, shop.id)).toEqual(await digests(source.knex, shop.id));
    } finally {
      await Promise.all(running.map((subscriber) => subscriber.stop()));
      await store.close();
      await knex.destroy();
      await busy.drop();
    }
  }, 120_000);

  test('refuses, writing nothing, a file whose streams the store has, a gap in a stream, or a line that is no event', async () => {
    const exported = (await superAdmin.get(`/api/crm-instances/${shop.id}/export`)).text;
    const count = async () => Number((await targetKnex('events').count<{ count: string }[]>('* as count'))[0]!.count);
    const before = await count();
    await expect(importEvents(targetKnex, linesOf(exported))).rejects.toThrow(ImportError);
    // A stream's first event left out: its second is not the next revision.
    const lines = exported.trim().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as { streamId: string; revision: number });
    const gap = parsed.findIndex((e) => e.revision === 0 && parsed.some((o) => o.streamId === e.streamId && o.revision === 1));
    expect(gap).toBeGreaterThanOrEqual(0);
    await expect(importEvents(targetKnex, linesOf(lines.filter((_, i) => i !== gap).join('\n')))).rejects.toThrow(/revision 1, expected 0/);
    await expect(importEvents(targetKnex, linesOf('{"not":"an event"}'))).rejects.toThrow(/line 1/);
    expect(await count()).toBe(before);
  });

  test('refuses, writing nothing and naming the event and field, any file that is not one whole valid shop', async () => {
    const exported = (await superAdmin.get(`/api/crm-instances/${shop.id}/export`)).text;
    const count = async () => Number((await targetKnex('events').count<{ count: string }[]>('* as count'))[0]!.count);
    // The store is emptied of the shop first (the test before may have left it there).
    const scratch = await createTestDatabase();
    const scratchKnex = knexFactory({ client: 'pg', connection: scratch.url, pool: { min: 0, max: 4 } });
    try {
      await migrate(scratchKnex);
      const events = exported
        .trim()
        .split('\n')
        .slice(0, -1)
        .map(
          (line) =>
            JSON.parse(line) as {
              id: string;
              streamId: string;
              revision: number;
              type: string;
              data: Record<string, unknown>;
              metadata: Record<string, unknown>;
            },
        );
      const endLine = (n: number) => JSON.stringify({ end: 'shop-crm-events', events: n });
      const text = (list: unknown[]) => [...list.map((e) => JSON.stringify(e)), endLine(list.length)].join('\n');
      const eventLines = events.map((e) => JSON.stringify(e));
      const changed = (index: number, change: (e: (typeof events)[number]) => void) => {
        const copy = structuredClone(events);
        change(copy[index]!);
        return text(copy);
      };
      const customerAt = events.findIndex((e) => e.type === 'CustomerCreated');
      const refusals: Array<[string, string, RegExp]> = [
        [
          'an unknown event type',
          changed(customerAt, (e) => (e.type = 'CustomerTeleported')),
          new RegExp(`event ${events[customerAt]!.id}, CustomerTeleported\\): unknown event type`),
        ],
        ['data its schema refuses', changed(customerAt, (e) => (e.data.name = 7)), /CustomerCreated\): field data\.name/],
        [
          'another instance id',
          changed(customerAt, (e) => (e.metadata.instanceId = other.id)),
          new RegExp(`field metadata\\.instanceId is "${other.id}"`),
        ],
        [
          'a missing reservation stream',
          text(events.filter((e) => !e.streamId.startsWith('username-'))),
          /UserCreated\): its username reservation is missing/,
        ],
        [
          'no instance creation',
          text(events.filter((e) => !e.streamId.startsWith('crminstance-') && !e.streamId.startsWith('subdomain-'))),
          /no CrmInstanceCreated/,
        ],
        ['a line of 2 MB', changed(customerAt, (e) => (e.data.notes = 'x'.repeat(2_000_000))), /longer than 1 MB/],
        ['a file cut mid-line', exported.slice(0, Math.floor(exported.length / 2)), /not an exported event/],
        [
          'a file cut at a line boundary',
          eventLines.slice(0, Math.floor(eventLines.length / 2)).join('\n'),
          new RegExp(`ends after ${Math.floor(eventLines.length / 2)} events without its end line`),
        ],
        ['an end line counting other events', [...eventLines.slice(0, -1), endLine(events.length)].join('\n'), /end line counts/],
        ['a line after the end line', `${text(events)}\n${eventLines[0]}`, /after the end line/],
        ['an event id twice', text([...events, { ...events.at(-1)!, streamId: 'customer-twice', revision: 0 }]), /appears twice/],
      ];
      for (const [what, file, message] of refusals) {
        await expect(importEvents(scratchKnex, linesOf(file)), what).rejects.toThrow(message);
        expect(await scratchKnex('events').count<{ count: string }[]>('* as count'), what).toEqual([{ count: '0' }]);
      }
      // An export saved again by an editor (a byte order mark, Windows line ends) is the same file.
      const first = await importEvents(scratchKnex, linesOf(`\uFEFF${exported.replaceAll('\n', '\r\n')}`));
      expect(first.events).toBe(events.length);
      expect(await scratchKnex('events').count<{ count: string }[]>('* as count')).toEqual([{ count: String(events.length) }]);
      // An event id the store already has (under another stream) is refused before anything is written.
      const written = await count();
      const again = text(events.map((e) => ({ ...e, streamId: `${e.streamId}-copy` })));
      await expect(importEvents(scratchKnex, linesOf(again))).rejects.toThrow(/already in this store/);
      expect(await count()).toBe(written);
    } finally {
      await scratchKnex.destroy();
      await scratch.drop();
    }
  });
});

describe('npm run export / npm run import', () => {
  test('the scripts: export writes the JSONL with progress on stderr; import restores it and builds the read models', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crm-export-'));
    const file = path.join(dir, 'shop.jsonl');
    const env = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'warn', EVENTSTORE_URL: '' };
    // Run without blocking this process: the test server lives here and must keep serving
    // (a blocked event loop let its keep-alive sockets expire under the client: ECONNRESET).
    const run = (entry: string, args: string[], databaseUrl: string, logLevel = 'warn') =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          [path.join(REPO_ROOT, 'backend/dist', entry), ...args],
          {
            env: { ...env, DATABASE_URL: databaseUrl, LOG_LEVEL: logLevel },
            encoding: 'utf8',
            timeout: 120_000,
            maxBuffer: 64 * 1024 * 1024,
          },
          (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
        );
      });
    const exported = await run('export-main.js', ['--instance', shop.subdomain, '--out', file], server.runtime.deps.config.DATABASE_URL!);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/Exporting exportshop .*\d+\/\d+ events/);
    const download = (await superAdmin.get(`/api/crm-instances/${shop.id}/export`)).text;
    expect(readFileSync(file, 'utf8')).toBe(download);
    // To stdout (`> file`), with the log at info: the same lines and nothing else (log lines go to stderr).
    const piped = await run('export-main.js', ['--instance', shop.subdomain], server.runtime.deps.config.DATABASE_URL!, 'info');
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(download);

    const empty = await createTestDatabase();
    try {
      const imported = await run('import-main.js', [file], empty.url);
      expect(imported.status, imported.stderr).toBe(0);
      expect(imported.stderr).toMatch(/Imported \d+ events in \d+ streams/);
      const knex = knexFactory({ client: 'pg', connection: empty.url, pool: { min: 0, max: 2 } });
      try {
        expect(await digests(knex, shop.id)).toEqual(await digests(server.runtime.deps.knex, shop.id));
      } finally {
        await knex.destroy();
      }
      // Again into the same store: refused, nothing written.
      const again = await run('import-main.js', [file], empty.url);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('Import refused');
    } finally {
      await empty.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
