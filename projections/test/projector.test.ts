import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrateReadModels, READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import {
  comparePositions,
  positionToString,
  START,
  type AppendResult,
  type EventStore,
  type GlobalPosition,
  type NewEvent,
} from '../src/eventstore/port.ts';
import { auditProjection } from '../src/audit/projection.ts';
import { insightsProjection } from '../src/insights/projection.ts';
import { EMPTY_JOB_FIELDS } from '../src/pipeline/index.ts';
import { projections } from '../src/read-models.ts';
import { CheckpointWatcher, readCheckpoint } from '../src/runtime/checkpoints.ts';
import { visibleEvents } from '../src/testing/events.ts';
import { recordStatements } from '../src/testing/statement-recorder.ts';
import type { Projection } from '../src/runtime/projection.ts';
import { listParkedEvents } from '../src/runtime/parked.ts';
import {
  applyBatch,
  fileBatchTrace,
  isTransientFailure,
  Projector,
  TransientError,
  type BatchTraceEntry,
} from '../src/runtime/projector.ts';
import { rebuildReadModels } from '../src/runtime/rebuild.ts';
import type { TestDatabase } from '../src/testing/database.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';
import { testEventMetadata } from '../src/testing/events.ts';

let db: TestDatabase;
let knex: Knex;
let store: EventStore;
let env: StoreDatabase | undefined;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 10 });
  ({ db, knex, store } = env);
});

afterAll(() => env?.close());

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
    metadata: testEventMetadata(instanceId),
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
        metadata: testEventMetadata(instanceId),
      },
    ],
    { expectedRevision: 'no_stream' },
  );
}

const rm = (table: string) => env!.rm(table);

/**
 * A new instance and its first user (two events), applied as one batch by `batchProjections`
 * under a fresh checkpoint; with what the batch answered and the statements it sent.
 */
async function firstBatchOfNewInstance(name: string, batchProjections: Projection[]) {
  const { instanceId } = await createInstance(name);
  await createUser(instanceId, name);
  const events = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 2);
  const options = { schema: READ_MODEL_SCHEMA, checkpointName: `${name}-${instanceId}`, projections: batchProjections };
  await knex('projection_checkpoints').insert({ name: options.checkpointName, position_commit: '-1', position_prepare: '-1' });
  const recorder = recordStatements();
  const { result: applied, statements } = await recorder.during(() => applyBatch(knex, options, events)).finally(() => recorder.stop());
  return { instanceId, events, options, applied, sent: ofTheBatch(statements) };
}

/**
 * The statements of a batch, without the event store's wake-up NOTIFY: an append before the
 * batch sends it from its own connection up to 8 ms after its commit, so it may come while
 * the batch runs.
 */
function ofTheBatch(statements: string[]): string[] {
  return statements.filter((text) => !text.includes("pg_notify('events'"));
}

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

  test('with a trace, each transaction is written as a line: its events, their log transactions, and when they came, started and committed', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'projector-trace-')), 'trace.jsonl');
    const trace = fileBatchTrace(file);
    const checkpointName = `traced-${randomUUID()}`;
    const { instanceId } = await createInstance('traced');
    const mine = [await createUser(instanceId, 'traced1'), await createUser(instanceId, 'traced2')];
    const projector = new Projector({
      store,
      knex,
      connectionString: db.url,
      projections: [{ name: 'nothing', apply: async () => {} }],
      schema: READ_MODEL_SCHEMA,
      checkpointName,
      trace,
    });
    projector.start();
    try {
      await expect
        .poll(async () => comparePositions((await readCheckpoint(knex, checkpointName)) ?? START, mine[1]!.position), { timeout: 20_000 })
        .toBeGreaterThanOrEqual(0);
    } finally {
      await projector.stop();
      await trace.close();
    }
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as BatchTraceEntry);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.checkpoint === checkpointName && line.events > 0)).toBe(true);
    expect(lines.every((line) => line.arrivedAt <= line.startedAt && line.startedAt <= line.at && line.gcMs >= 0)).toBe(true);
    // Every event up to ours went through a traced transaction, ours in the last one's range or before.
    expect(lines.reduce((sum, line) => sum + line.events, 0)).toBe(projector.eventsApplied);
    expect(BigInt(lines[lines.length - 1]!.lastTx)).toBeGreaterThanOrEqual(mine[1]!.position.commit);
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
    // A batch whose first events the checkpoint has passed (another writer applied them): only the rest.
    const user = await createUser(instanceId, 'after-replay');
    const events = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 2);
    expect(await applyBatch(knex, options, events)).toEqual(user.position);
    // One activity row each: the instance's and the user's.
    expect(await rm('activity').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '2' }]);
    expect(await rm('users').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '1' }]);
    expect(await readCheckpoint(knex, options.checkpointName)).toEqual(user.position);
  });

  test("a batch's checkpoint lock goes with its first statement, not alone; the checkpoint's move with the COMMIT", async () => {
    const { instanceId, events, applied, sent } = await firstBatchOfNewInstance('one-message', projections);
    expect(applied).toEqual(events[1]!.position);
    expect(sent[0]).toMatch(
      /^BEGIN;\nSET LOCAL synchronous_commit TO off;\nSELECT public.lock_checkpoint_before\('[^']+', '\d+', '\d+'\);\n/,
    );
    // The lock's message carries the batch's first projection statement too.
    expect(sent[0]).toMatch(/lock_checkpoint_before\([^)]+\);\ninsert into "rm"."crm_instances"/);
    expect(sent.filter((text) => /lock_checkpoint_before|FOR UPDATE/.test(text))).toHaveLength(1);
    expect(sent[sent.length - 1]).toMatch(/pg_notify\('projection_checkpoints', [^)]+\);\nCOMMIT$/);
    expect(await rm('users').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  test('a batch that only holds writes is one message: BEGIN, its lock, the writes, the checkpoint and the COMMIT; applied once', async () => {
    const { instanceId, events, options, applied, sent } = await firstBatchOfNewInstance('writes-only', [auditProjection]);
    expect(applied).toEqual(events[1]!.position);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(
      /^(DO \$crm_prepare\$.*?\$crm_prepare\$;\n)*BEGIN;\nSET LOCAL synchronous_commit TO off;\nSELECT public.lock_checkpoint_before\([^)]+\);\nEXECUTE crm_\w+\(.*pg_notify\('projection_checkpoints', [^)]+\);\nCOMMIT$/s,
    );
    // The activity INSERT goes prepared (prepared in the same message the first time on a connection).
    expect(sent[0]).not.toMatch(/^INSERT INTO "rm"."activity"/m);
    // Again, as another writer that lost the race: the lock fails the batch, nothing twice.
    expect(await applyBatch(knex, options, events)).toBeNull();
    expect(await rm('activity').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '2' }]);
    expect(await readCheckpoint(knex, options.checkpointName)).toEqual(events[1]!.position);
  });

  test('a writes-only batch whose checkpoint another writer moved while it waited for the lock rolls back and applies the rest once', async () => {
    const { instanceId } = await createInstance('moved-checkpoint');
    await createUser(instanceId, 'moved-checkpoint');
    const events = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 2);
    const options = { schema: READ_MODEL_SCHEMA, checkpointName: `moved-${instanceId}`, projections: [auditProjection] };
    await knex('projection_checkpoints').insert({ name: options.checkpointName, position_commit: '-1', position_prepare: '-1' });
    // The other writer holds the checkpoint and moves it past the first event (as if it had applied it).
    const other = await knex.transaction();
    const recorder = recordStatements();
    try {
      await other('projection_checkpoints')
        .where({ name: options.checkpointName })
        .forUpdate()
        .update({ position_commit: events[0]!.position.commit.toString(), position_prepare: events[0]!.position.prepare.toString() });
      const {
        rows: [{ pid: otherPid }],
      } = await other.raw<{ rows: [{ pid: number }] }>('SELECT pg_backend_pid() AS pid');
      const batch = recorder.during(() => applyBatch(knex, options, events));
      // The batch waits on the other writer's row lock (found by whom it waits for: the text
      // PostgreSQL shows of the batch's message is cut short, and its prepared statements come first).
      await expect
        .poll(
          async () => {
            const { rows } = await knex.raw<{ rows: unknown[] }>(
              "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND ?::int = ANY(pg_blocking_pids(pid))",
              [otherPid],
            );
            return rows.length;
          },
          { timeout: 20_000 },
        )
        .toBe(1);
      await other.commit();
      const { result, statements } = await batch;
      expect(result).toEqual(events[1]!.position);
      // The one-message batch failed on the lock's check; the batch went again with the lock read first.
      const ofBatch = statements.filter((text) => text.includes(options.checkpointName) && !text.includes('pg_stat_activity'));
      expect(ofBatch[0]).toMatch(/^(DO \$crm_prepare\$.*?\$crm_prepare\$;\n)*BEGIN;\n.*lock_checkpoint_before.*COMMIT$/s);
      expect(ofBatch.slice(1).some((text) => /FOR UPDATE/.test(text))).toBe(true);
    } finally {
      recorder.stop();
      if (!other.isCompleted()) await other.rollback();
    }
    // Only the second event's row: the first was the other writer's.
    expect(await rm('activity').where({ instance_id: instanceId }).pluck('position_prepare')).toEqual([
      events[1]!.position.prepare.toString(),
    ]);
    expect(await readCheckpoint(knex, options.checkpointName)).toEqual(events[1]!.position);
  });

  test('a batch taken behind the log goes as pipelined transactions of at most 64 events, each event once and in order', async () => {
    const { instanceId } = await createInstance('behind');
    for (let i = 0; i < 150; i++) await createUser(instanceId, `behind${i}`);
    const mine = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 151);
    const last = mine[mine.length - 1]!;
    // The projection's first event waits until the subscription has read past the last of
    // ours: the projector's next take is then everything buffered, far more than 64 events.
    let readPastOurs!: () => void;
    const allRead = new Promise<void>((resolve) => (readPastOurs = resolve));
    const watched: EventStore = Object.assign(Object.create(store) as EventStore, {
      async *subscribeAll(options: Parameters<EventStore['subscribeAll']>[0]) {
        for await (const event of store.subscribeAll(options)) {
          yield event;
          if (comparePositions(event.position, last.position) >= 0) readPastOurs();
        }
      },
    });
    const applied: string[] = [];
    let waited = false;
    const recording: Projection = {
      name: 'records-ours',
      async apply(event) {
        if (!waited) {
          waited = true;
          await allRead;
        }
        if (event.metadata.instanceId === instanceId) applied.push(event.id);
      },
    };
    const checkpointName = `behind-${instanceId}`;
    const projector = new Projector({
      store: watched,
      knex,
      connectionString: db.url,
      projections: [recording],
      schema: READ_MODEL_SCHEMA,
      checkpointName,
    });
    const recorder = recordStatements();
    const { statements: sent } = await recorder
      .during(async () => {
        projector.start();
        await expect
          .poll(async () => comparePositions((await readCheckpoint(knex, checkpointName)) ?? START, last.position), { timeout: 20_000 })
          .toBeGreaterThanOrEqual(0);
      })
      .finally(async () => {
        recorder.stop();
        await projector.stop();
      });
    expect(applied).toEqual(mine.map((e) => e.id));
    const ofThisCheckpoint = sent.filter((text) => text.includes(`'${checkpointName}'`));
    // Never the one-by-one way (its lock is a SELECT … FOR UPDATE of the checkpoint, alone).
    expect(ofThisCheckpoint.filter((text) => /FOR UPDATE/.test(text))).toHaveLength(0);
    const transactions = ofThisCheckpoint.filter((text) => text.includes('lock_checkpoint_before'));
    expect(transactions.length).toBeGreaterThanOrEqual(1 + Math.ceil(mine.length / 64));
    expect(transactions.every((text) => /^(DO \$crm_prepare\$.*?\$crm_prepare\$;\n)*BEGIN;\n.*COMMIT$/s.test(text))).toBe(true);
  });

  test('batches of new jobs, and of job field changes, one per job, move the insight rows without reading them: one message each', async () => {
    const instanceId = randomUUID();
    const [first, second] = [randomUUID(), randomUUID()];
    const jobEvent = (type: string, data: Record<string, unknown>): NewEvent => ({
      id: randomUUID(),
      type,
      data,
      metadata: testEventMetadata(instanceId),
    });
    for (const [i, jobId] of [first, second].entries()) {
      const fields = { ...EMPTY_JOB_FIELDS, jobNumber: String(i + 1), name: 'Ann Lee', tech: 'Tom', quote: 1234.5 };
      await store.append(`job-${jobId}`, [jobEvent('JobCreated', { jobId, instanceId, ...fields })], { expectedRevision: 'no_stream' });
    }
    const created = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 2);
    const options = { schema: READ_MODEL_SCHEMA, checkpointName: `insight-updates-${instanceId}`, projections: [insightsProjection] };
    await knex('projection_checkpoints').insert({ name: options.checkpointName, position_commit: '-1', position_prepare: '-1' });
    // New jobs alone: their rows and stays written without reading first, the batch one message.
    const creating = recordStatements();
    const { result: createdUpTo, statements: creation } = await creating
      .during(() => applyBatch(knex, options, created))
      .finally(() => creating.stop());
    expect(createdUpTo).toEqual(created[1]!.position);
    expect(ofTheBatch(creation)).toHaveLength(1);
    expect(ofTheBatch(creation)[0]).toMatch(/^(DO \$crm_prepare\$.*?\$crm_prepare\$;\n)*BEGIN;\n.*COMMIT$/s);
    const stays = () =>
      rm('insight_stage_intervals').whereIn('job_id', [first, second]).orderBy('event_id').select('event_id', 'job_id', 'stage', 'left_at');
    expect(await stays()).toEqual(
      created
        .map((event) => ({
          event_id: event.id,
          job_id: (event.data as { jobId: string }).jobId,
          stage: EMPTY_JOB_FIELDS.stage,
          left_at: null,
        }))
        .sort((a, b) => a.event_id.localeCompare(b.event_id)),
    );
    // Again over the rows it wrote (a replay), one of them changed since: nothing changes, no stay twice.
    await knex('projection_checkpoints').where({ name: options.checkpointName }).update({ position_commit: '-1', position_prepare: '-1' });
    await knex('insight_jobs').withSchema(READ_MODEL_SCHEMA).where({ job_id: first }).update({ tech: 'kept' });
    const before = await stays();
    await applyBatch(knex, options, created);
    expect(await rm('insight_jobs').where({ job_id: first }).first('tech', 'revision')).toEqual({ tech: 'kept', revision: 0 });
    expect(await stays()).toEqual(before);
    await knex('insight_jobs').withSchema(READ_MODEL_SCHEMA).where({ job_id: first }).update({ tech: 'Tom' });
    const label = (jobId: string, jobNumber: string) => ({ jobId, jobNumber, name: 'Ann Lee' });
    await store.append(
      `job-${first}`,
      [
        jobEvent('JobUpdated', {
          ...label(first, '1'),
          changes: [
            { field: 'quote', oldValue: 1234.5, newValue: null },
            { field: 'name', oldValue: 'Ann Lee', newValue: "Bo O'Neil" },
          ],
        }),
      ],
      { expectedRevision: 0 },
    );
    await store.append(
      `job-${second}`,
      [jobEvent('JobUpdated', { ...label(second, '2'), changes: [{ field: 'notes', oldValue: '', newValue: 'x' }] })],
      {
        expectedRevision: 0,
      },
    );
    const updates = (await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 4)).slice(2);
    const recorder = recordStatements();
    const { result, statements: recorded } = await recorder.during(() => applyBatch(knex, options, updates)).finally(() => recorder.stop());
    const statements = ofTheBatch(recorded);
    expect(result).toEqual(updates[1]!.position);
    expect(statements).toHaveLength(1);
    // The UPDATE goes prepared: an EXECUTE in the batch's message (its PREPARE in front, the first time on a connection).
    expect(statements[0]).toMatch(/^(DO \$crm_prepare\$.*?\$crm_prepare\$;\n)*BEGIN;\n.*EXECUTE crm_\w+\(.*COMMIT$/s);
    expect(statements[0]).not.toMatch(/^UPDATE "rm".insight_jobs/m);
    const rows = await rm('insight_jobs')
      .whereIn('job_id', [first, second])
      .orderBy('job_number')
      .select('job_number', 'name', 'tech', 'quote', 'revision');
    expect(rows).toEqual([
      { job_number: '1', name: "Bo O'Neil", tech: 'Tom', quote: null, revision: 1 },
      { job_number: '2', name: 'Ann Lee', tech: 'Tom', quote: '1234.50', revision: 1 },
    ]);
    // Applied again over rows already at those revisions (a replay): nothing changes.
    await knex('projection_checkpoints').where({ name: options.checkpointName }).update({ position_commit: '-1', position_prepare: '-1' });
    await knex('insight_jobs').withSchema(READ_MODEL_SCHEMA).where({ job_id: second }).update({ tech: 'kept' });
    await applyBatch(knex, options, updates);
    expect(await rm('insight_jobs').where({ job_id: second }).first('tech', 'revision')).toEqual({ tech: 'kept', revision: 1 });
    // As the events have it again: this file's rebuild test compares every live table with a rebuild of the log.
    await knex('insight_jobs').withSchema(READ_MODEL_SCHEMA).where({ job_id: second }).update({ tech: 'Tom' });
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

describe('reactors', () => {
  async function reached(name: string, position: GlobalPosition) {
    const checkpoint = await readCheckpoint(knex, name);
    return checkpoint !== null && comparePositions(checkpoint, position) >= 0;
  }

  test('a reactor stores its checkpoint at once for events it takes, and soon after for events it has nothing to do for', async () => {
    const { instanceId } = await createInstance('reacting');
    const taken: string[] = [];
    const checkpointName = `reactor:quiet-${instanceId}`;
    const reactor = new Projector({
      store,
      knex,
      connectionString: db.url,
      projections: [
        {
          name: 'takes-one-user',
          eventTypes: ['UserCreated'],
          takes: (event) => event.type === 'UserCreated' && event.data.username === 'wanted',
          async apply(event) {
            if (event.metadata.instanceId === instanceId) taken.push(event.id);
          },
        },
      ],
      schema: READ_MODEL_SCHEMA,
      checkpointName,
      kind: 'reactor',
    });
    reactor.start();
    try {
      const wanted = await createUser(instanceId, 'wanted');
      await expect.poll(() => reached(checkpointName, wanted.position), { timeout: 10_000 }).toBe(true);
      expect(taken).toHaveLength(1);
      const ignored = await createUser(instanceId, 'ignored');
      // Nothing to do for it: the checkpoint still gets past it (within about a second), and it is not applied.
      await expect.poll(() => reached(checkpointName, ignored.position), { timeout: 10_000 }).toBe(true);
      expect(taken).toHaveLength(1);
    } finally {
      await reactor.stop();
    }
  });
  test('a batch with a time budget commits after the event that spends it; the rest goes in the next transactions, each once', async () => {
    const { instanceId } = await createInstance('budgeted');
    for (let i = 0; i < 3; i++) await createUser(instanceId, `budget${i}`);
    const events = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 4);
    const applied: string[] = [];
    const checkpointName = `reactor:budget-${instanceId}`;
    await knex('projection_checkpoints').insert({ name: checkpointName, position_commit: '-1', position_prepare: '-1' });
    const options = {
      schema: READ_MODEL_SCHEMA,
      checkpointName,
      budgetMs: 0,
      projections: [
        {
          name: 'records',
          async apply(event: { id: string }) {
            applied.push(event.id);
          },
        },
      ],
    };
    // A spent budget still applies one event per transaction, and the checkpoint says which.
    expect(await applyBatch(knex, options, events)).toEqual(events[0]!.position);
    expect(await readCheckpoint(knex, checkpointName)).toEqual(events[0]!.position);
    expect(await applyBatch(knex, options, events)).toEqual(events[1]!.position);
    // A budget not spent takes the whole batch.
    expect(await applyBatch(knex, { ...options, budgetMs: 60_000 }, events)).toEqual(events[3]!.position);
    expect(await applyBatch(knex, options, events)).toBeNull();
    expect(applied).toEqual(events.map((e) => e.id));
  });

  test("a reactor whose handlers read before they act sends its checkpoint's lock with its first read; another writer's events it does not act on", async () => {
    const { instanceId } = await createInstance('reads-first');
    await createUser(instanceId, 'reads-first');
    const events = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 2);
    const checkpointName = `reactor:reads-first-${instanceId}`;
    await knex('projection_checkpoints').insert({ name: checkpointName, position_commit: '-1', position_prepare: '-1' });
    const acted: string[] = [];
    const readsFirst: Projection = {
      name: 'reads-then-acts',
      readsBeforeActing: true,
      async apply(event, { trx }) {
        const { rows } = await trx.raw<{ rows: Array<{ id: string }> }>('SELECT ?::text AS id', [event.id]);
        // Stands for a command sent from another connection: not taken back by a rollback.
        acted.push(rows[0]!.id);
      },
    };
    const options = { schema: READ_MODEL_SCHEMA, checkpointName, budgetMs: 60_000, projections: [readsFirst] };
    const recorder = recordStatements();
    try {
      const { result, statements } = await recorder.during(() => applyBatch(knex, options, events));
      expect(result).toEqual(events[1]!.position);
      const sent = ofTheBatch(statements);
      // One message per read, the lock with the first, and the checkpoint with the COMMIT.
      expect(sent).toHaveLength(3);
      expect(sent[0]).toMatch(
        /^BEGIN;\nSET LOCAL synchronous_commit TO off;\nSELECT public.lock_checkpoint_before\([^)]+\);\nSELECT '[^']+'::text AS id$/,
      );
      expect(sent.filter((text) => /FOR UPDATE/.test(text))).toHaveLength(0);
      expect(sent[2]).toMatch(/pg_notify\('projection_checkpoints', [^)]+\);\nCOMMIT$/);
      // Again, as a writer that lost the race: its first read fails on the lock, so it acts on nothing.
      expect(await applyBatch(knex, options, events)).toBeNull();
    } finally {
      recorder.stop();
    }
    expect(acted).toEqual(events.map((e) => e.id));
    expect(await readCheckpoint(knex, checkpointName)).toEqual(events[1]!.position);
  });
});

describe('failures: retried, or parked when the event is the cause', () => {
  /** A fresh read-model set, so these tests' own projectors write nowhere else. */
  async function freshSchema(name: string) {
    const schema = `rm_${name}_${randomUUID().slice(0, 8)}`;
    await migrateReadModels(knex, schema);
    return { schema, table: (t: string) => knex.withSchema(schema).from(t) };
  }

  async function checkpointOf(name: string) {
    return await readCheckpoint(knex, name);
  }

  async function reached(name: string, position: GlobalPosition) {
    const checkpoint = await checkpointOf(name);
    return checkpoint !== null && comparePositions(checkpoint, position) >= 0;
  }

  /** Runs a projector of the read models plus `extra` until its checkpoint has passed `position`, then `check`s, then stops it. */
  async function withProjectorPast(
    schema: string,
    checkpointName: string,
    extra: Projection,
    position: GlobalPosition,
    check: (projector: Projector) => Promise<void>,
  ): Promise<void> {
    const projector = new Projector({
      store,
      knex,
      connectionString: db.url,
      projections: [...projections, extra],
      schema,
      checkpointName,
      retry: { initialDelayMs: 10, maxDelayMs: 40 },
    });
    projector.start();
    try {
      await expect.poll(() => reached(checkpointName, position), { timeout: 10_000 }).toBe(true);
      await check(projector);
    } finally {
      await projector.stop();
    }
  }

  test('a batch that throws halfway rolls back: none of its rows, no checkpoint', async () => {
    const { schema, table } = await freshSchema('halfway');
    const { instanceId } = await createInstance('halfway');
    await createUser(instanceId, 'first');
    await createUser(instanceId, 'second');
    const events = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 3);
    expect(events.map((e) => e.type)).toEqual(['CrmInstanceCreated', 'UserCreated', 'UserCreated']);
    const failing: Projection = {
      name: 'fails-on-the-last',
      async apply(event) {
        if (event.id === events[2]!.id) throw new Error('boom');
      },
    };
    const checkpointName = `halfway-${instanceId}`;
    await expect(applyBatch(knex, { schema, checkpointName, projections: [...projections, failing] }, events)).rejects.toThrow('boom');
    expect(await table('crm_instances').where({ id: instanceId }).count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await table('users').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await table('activity').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await checkpointOf(checkpointName)).toBeNull();
  });

  test('a failing batch is retried with backoff until the failure goes away, then takes effect once', async () => {
    const { schema, table } = await freshSchema('retried');
    const { instanceId } = await createInstance('retried');
    const users: AppendResult[] = [];
    for (let i = 0; i < 4; i++) users.push(await createUser(instanceId, `retry${i}`));
    const instanceEvents = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 5);
    const poisoned = instanceEvents[2]!;
    let failing = true;
    const flaky: Projection = {
      name: 'flaky',
      async apply(event) {
        // A database hiccup: the server went away under this batch.
        if (failing && event.id === poisoned.id)
          throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      },
    };
    const checkpointName = `retried-${instanceId}`;
    const projector = new Projector({
      store,
      knex,
      connectionString: db.url,
      projections: [...projections, flaky],
      schema,
      checkpointName,
      retry: { initialDelayMs: 10, maxDelayMs: 40 },
    });
    projector.start();
    try {
      await expect.poll(() => projector.batchFailures, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      // Never past the failing event, and a transient failure parks nothing.
      const stuck = await checkpointOf(checkpointName);
      expect(stuck === null || comparePositions(stuck, poisoned.position) < 0).toBe(true);
      expect(await table('users').where({ username: 'retry1' }).count({ n: '*' })).toEqual([{ n: '0' }]);
      expect(projector.eventsParked).toBe(0);

      failing = false;
      await expect.poll(() => reached(checkpointName, users[3]!.position), { timeout: 10_000 }).toBe(true);
      await expect
        .poll(async () => await table('users').where({ instance_id: instanceId }).orderBy('username').pluck('username'), {
          timeout: 10_000,
        })
        .toEqual(['retry0', 'retry1', 'retry2', 'retry3']);
      expect(await table('activity').where({ instance_id: instanceId }).count({ n: '*' })).toEqual([{ n: '5' }]);
      expect((await listParkedEvents(knex, 1000)).filter((p) => p.checkpoint === checkpointName)).toEqual([]);
    } finally {
      await projector.stop();
    }
  });

  test('a subscription that fails while a batch is being retried is taken up again: the process never sees an unhandled rejection', async () => {
    const { schema, table } = await freshSchema('subfail');
    const { instanceId } = await createInstance('subfail');
    const users: AppendResult[] = [];
    for (let i = 0; i < 3; i++) users.push(await createUser(instanceId, `subfail${i}`));
    const instanceEvents = await visibleEvents(store, (e) => e.metadata.instanceId === instanceId, 4);
    const slow = instanceEvents[1]!;
    // The database goes away: the batch fails (and is retried after a pause) and the
    // subscription's next read fails too, while the projector is still busy with the batch.
    let outage = true;
    let subscriptionFailed = false;
    const failing: EventStore = {
      ...store,
      async *subscribeAll(options) {
        for await (const event of store.subscribeAll(options)) {
          yield event;
          if (outage && event.id === slow.id) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            subscriptionFailed = true;
            throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
          }
        }
      },
    };
    const flaky: Projection = {
      name: 'down-for-a-while',
      async apply(event) {
        if (outage && event.id === slow.id)
          throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      },
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const checkpointName = `subfail-${instanceId}`;
    const projector = new Projector({
      store: failing,
      knex,
      connectionString: db.url,
      projections: [...projections, flaky],
      schema,
      checkpointName,
      batchSize: 1,
      retry: { initialDelayMs: 300, maxDelayMs: 300 },
    });
    projector.start();
    try {
      await expect.poll(() => subscriptionFailed, { timeout: 10_000 }).toBe(true);
      await expect.poll(() => projector.batchFailures, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      outage = false;
      await expect.poll(() => reached(checkpointName, users[2]!.position), { timeout: 10_000 }).toBe(true);
      expect(await table('users').where({ instance_id: instanceId }).orderBy('username').pluck('username')).toEqual([
        'subfail0',
        'subfail1',
        'subfail2',
      ]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await projector.stop();
    }
  });

  test('a poison event is parked with its error, and the events after it still reach the read models', async () => {
    const { schema, table } = await freshSchema('poison');
    const { instanceId } = await createInstance('poisoned');
    await createUser(instanceId, 'before');
    // Recorded, but not a UserCreated its schema accepts.
    const bad: NewEvent = {
      id: randomUUID(),
      type: 'UserCreated',
      data: { userId: randomUUID(), username: 42 },
      metadata: testEventMetadata(instanceId),
    };
    const badStream = `user-${randomUUID()}`;
    await store.append(badStream, [bad], { expectedRevision: 'no_stream' });
    // And one a handler cannot apply, whatever it is retried with.
    const unlucky = await createUser(instanceId, 'unlucky');
    const [unluckyEvent] = await visibleEvents(store, (e) => comparePositions(e.position, unlucky.position) === 0, 1, {
      commit: unlucky.position.commit,
      prepare: unlucky.position.prepare - 1n,
    });
    const after = await createUser(instanceId, 'after');
    const refuses: Projection = {
      name: 'refuses-one',
      async apply(event) {
        if (event.id === unluckyEvent!.id) throw new TypeError('cannot read properties of undefined');
      },
    };
    const checkpointName = `poison-${instanceId}`;
    await withProjectorPast(schema, checkpointName, refuses, after.position, async (projector) => {
      expect(await table('users').where({ instance_id: instanceId }).orderBy('username').pluck('username')).toEqual(['after', 'before']);
      const parked = (await listParkedEvents(knex, 1000)).filter((p) => p.checkpoint === checkpointName);
      expect(parked).toHaveLength(2);
      expect(parked).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            eventId: bad.id,
            streamId: badStream,
            type: 'UserCreated',
            error: expect.stringContaining('ZodError'),
          }),
          expect.objectContaining({
            eventId: unluckyEvent!.id,
            position: positionToString(unlucky.position),
            type: 'UserCreated',
            error: 'TypeError: cannot read properties of undefined',
          }),
        ]),
      );
      expect(projector.eventsParked).toBe(2);
    });
  });

  test("a write held for the batch's COMMIT that fails there: nothing of the batch is recorded, the event is parked, the rest goes on", async () => {
    const { schema, table } = await freshSchema('heldwrite');
    const { instanceId } = await createInstance('held-write');
    await createUser(instanceId, 'before');
    const unlucky = await createUser(instanceId, 'unlucky');
    const after = await createUser(instanceId, 'after');
    const [unluckyEvent] = await visibleEvents(store, (e) => comparePositions(e.position, unlucky.position) === 0, 1, {
      commit: unlucky.position.commit,
      prepare: unlucky.position.prepare - 1n,
    });
    // ctx.write is held back and sent with the COMMIT: its failure (a data error, not a
    // transient one) shows only there.
    const failsAtCommit: Projection = {
      name: 'fails-at-commit',
      async apply(event, ctx) {
        if (event.id === unluckyEvent!.id) await ctx.write({ sql: 'SELECT (?::text)::integer', bindings: ['not a number'] });
      },
    };
    const checkpointName = `held-write-${instanceId}`;
    await withProjectorPast(schema, checkpointName, failsAtCommit, after.position, async () => {
      // The unlucky event's own row went with its failed transaction; the others are there once.
      expect(await table('users').where({ instance_id: instanceId }).orderBy('username').pluck('username')).toEqual(['after', 'before']);
      const parked = (await listParkedEvents(knex, 1000)).filter((p) => p.checkpoint === checkpointName);
      // (The log is shared: another test's poison event may be parked here too.)
      expect(parked).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ eventId: unluckyEvent!.id, error: expect.stringContaining('invalid input syntax for type integer') }),
        ]),
      );
    });
  });

  test('transient: connection and lock failures and TransientError; the event: data errors and anything else', () => {
    expect(isTransientFailure(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isTransientFailure(Object.assign(new Error('x'), { code: '40P01' }))).toBe(true);
    expect(isTransientFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransientFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientFailure(new TransientError('later'))).toBe(true);
    expect(isTransientFailure(Object.assign(new Error('x'), { code: '23505' }))).toBe(false);
    expect(isTransientFailure(Object.assign(new Error('x'), { code: '22P02' }))).toBe(false);
    expect(isTransientFailure(new TypeError('undefined'))).toBe(false);
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
      // Every table the same. An event another test of this file parked (the poison one) is
      // skipped by the rebuild too, and reported: then, and only then, the report is no "identical".
      expect(report.tables.filter((t) => !t.identical)).toEqual([]);
      expect(report.identical).toBe(report.parked.length === 0);
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
