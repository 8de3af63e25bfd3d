import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { activityChangesSql, fieldChangeFromStored, storedFieldChange, type StoredFieldChange } from '../src/audit/index.ts';
import { READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import type { DomainEvent } from '../src/events.ts';
import { EMPTY_JOB_FIELDS, type JobFields } from '../src/pipeline/index.ts';
import { type EventMetadata, type EventStore, type RecordedEvent } from '../src/eventstore/port.ts';
import { projections } from '../src/read-models.ts';
import { readModelMigrations } from '../src/db/migrate.ts';
import { MAIN_CHECKPOINT, readCheckpoint } from '../src/runtime/checkpoints.ts';
import { applyBatch, Projector } from '../src/runtime/projector.ts';
import { rebuildReadModels } from '../src/runtime/rebuild.ts';
import type { TestDatabase } from '../src/testing/database.ts';
import { reachedLastCommitted } from '../src/testing/events.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';

let db: TestDatabase;
let knex: Knex;
let store: EventStore;
let env: StoreDatabase | undefined;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 10 });
  ({ db, knex, store } = env);
});

afterAll(() => env?.close());

const rm = (table: string) => env!.rm(table);

function metadata(instanceId: string, occurredAt: string, displayName = 'Sam Writer'): EventMetadata {
  return {
    instanceId,
    actor: { kind: 'user', id: randomUUID(), displayName },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt,
    schemaVersion: 1,
  };
}

/** Appends to a job's stream and projects what it appended, like the projector would. */
async function appendJob(jobId: string, instanceId: string, events: DomainEvent[], occurredAt: string): Promise<RecordedEvent[]> {
  const before = await store.readStream(`job-${jobId}`);
  await store.append(
    `job-${jobId}`,
    events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata: metadata(instanceId, occurredAt) })),
    { expectedRevision: before.length ? before[before.length - 1]!.revision : 'no_stream' },
  );
  const recorded = (await store.readStream(`job-${jobId}`)).slice(before.length);
  await project(recorded);
  return recorded;
}

let checkpoint = 0;
async function project(events: RecordedEvent[]) {
  const name = `jobs-test-${checkpoint++}`;
  await knex('projection_checkpoints').insert({ name, position_commit: '-1', position_prepare: '-1' });
  await applyBatch(knex, { schema: READ_MODEL_SCHEMA, checkpointName: name, projections }, events);
}

const fields: JobFields = {
  ...EMPTY_JOB_FIELDS,
  jobNumber: '12',
  name: 'Ann Lee',
  phone: '5551234567',
  part: 'Brake pads',
  makeModel: '2015 Honda Civic',
  quote: 1234,
  vin: '1HGCM82633A004352',
  csr: 'Sam',
  jobType: 'In Shop',
  tech: 'Tom',
  notes: 'Rear axle',
};

describe('jobs read model', () => {
  test('a job is projected with every column, its history and its timeline entry', async () => {
    const instanceId = randomUUID();
    const jobId = randomUUID();
    const label = { jobId, jobNumber: '12', name: 'Ann Lee' };
    const [created] = await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobCreated', data: { jobId, instanceId, ...fields } }],
      '2025-03-01T09:00:00.000Z',
    );
    const changed = await appendJob(
      jobId,
      instanceId,
      [
        { type: 'JobUpdated', data: { ...label, changes: [{ field: 'quote', oldValue: 1234, newValue: 1500 }] } },
        {
          type: 'JobRescheduled',
          data: { ...label, from: null, to: '2025-03-03T14:30:00.000Z', fromDuration: null, toDuration: 90 },
        },
        { type: 'JobStageChanged', data: { ...label, from: 'Quote', to: 'Scheduled' } },
      ],
      '2025-03-01T10:00:00.000Z',
    );

    const row = await rm('jobs').where({ id: jobId }).first();
    expect(row).toMatchObject({
      instance_id: instanceId,
      job_number: '12',
      number: 12,
      name: 'Ann Lee',
      phone: '5551234567',
      quote: '1500.00', // numeric(14, 2): cents kept exactly
      stage: 'Scheduled',
      stage_order: 3,
      duration: 90,
      job_type: 'In Shop',
      created_by: 'Sam Writer',
      revision: 3,
    });
    expect(new Date(row.appointment).toISOString()).toBe('2025-03-03T14:30:00.000Z');
    // Times are the event store's (the clock history and time travel go by), not the metadata's.
    expect(new Date(row.created_at).toISOString()).toBe(created!.recordedAt.toISOString());
    expect(new Date(row.updated_at).toISOString()).toBe(changed.at(-1)!.recordedAt.toISOString());
    // Search text: every searchable field, the phone formatted too, the quote as digits and dollars.
    expect(row.search).toContain('555-123-4567');
    expect(row.search).toContain('$1,500');
    expect(row.search).toContain('1hgcm82633a004352');
    expect(row.search).toContain('scheduled');

    const history = await rm('job_history')
      .where({ job_id: jobId })
      .orderBy('revision')
      .select('action', 'changes', 'user_display_name', 'occurred_at', 'recorded_at')
      .then((rows) => rows.map((row) => ({ ...row, changes: (row.changes as StoredFieldChange[]).map(fieldChangeFromStored) })));
    expect(history.map((h) => h.action)).toEqual(['created', 'updated', 'rescheduled', 'stage-changed']);
    // Each row keeps the command's time and the time the store recorded it (which history shows).
    expect(history.map((h) => new Date(h.occurred_at).toISOString())).toEqual([
      '2025-03-01T09:00:00.000Z',
      ...Array(3).fill('2025-03-01T10:00:00.000Z'),
    ]);
    expect(history.map((h) => new Date(h.recorded_at).toISOString())).toEqual(
      [created!, ...changed].map((e) => e.recordedAt.toISOString()),
    );
    expect(history[0].changes).toContainEqual({ field: 'quote', oldValue: null, newValue: '1234' });
    expect(history[1].changes).toEqual([{ field: 'quote', oldValue: '1234', newValue: '1500' }]);
    expect(history[2].changes).toEqual([
      { field: 'appointment', oldValue: '', newValue: '2025-03-03T14:30:00.000Z' },
      { field: 'duration', oldValue: null, newValue: 90 },
    ]);
    expect(history[3].changes).toEqual([{ field: 'stage', oldValue: 'Quote', newValue: 'Scheduled' }]);
    expect(history[0].user_display_name).toBe('Sam Writer');

    const activity = await rm('activity').where({ entity_id: jobId }).orderBy('position_prepare').pluck('summary');
    expect(activity).toEqual([
      'Created job #12 (Ann Lee) in Quote',
      'Updated job #12 (Ann Lee): Quote',
      'Scheduled job #12 (Ann Lee) for 2025-03-03 14:30 UTC',
      'Moved job #12 (Ann Lee) from Quote to Scheduled',
    ]);
  });

  test('cancel, reopen and delete: the row leaves the lists, the history stays', async () => {
    const instanceId = randomUUID();
    const jobId = randomUUID();
    const label = { jobId, jobNumber: 'A-7', name: '' };
    await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobCreated', data: { jobId, instanceId, ...fields, jobNumber: 'A-7', name: '' } }],
      '2025-03-01T09:00:00.000Z',
    );
    await appendJob(jobId, instanceId, [{ type: 'JobCanceled', data: { ...label, previousStage: 'Quote' } }], '2025-03-01T09:01:00.000Z');
    expect(await rm('jobs').where({ id: jobId }).first('stage', 'stage_order', 'number')).toEqual({
      stage: 'Canceled',
      stage_order: 8,
      number: null,
    });
    await appendJob(jobId, instanceId, [{ type: 'JobReopened', data: { ...label, stage: 'Quote' } }], '2025-03-01T09:02:00.000Z');
    expect(await rm('jobs').where({ id: jobId }).first('stage')).toEqual({ stage: 'Quote' });
    await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobDeleted', data: { ...label, reason: 'customer-deleted' } }],
      '2025-03-01T09:03:00.000Z',
    );
    expect(await rm('jobs').where({ id: jobId }).first()).toBeUndefined();
    expect(await rm('job_history').where({ job_id: jobId }).orderBy('revision').pluck('action')).toEqual([
      'created',
      'canceled',
      'reopened',
      'deleted',
    ]);
    expect(await rm('activity').where({ entity_id: jobId }).orderBy('position_prepare').pluck('summary')).toEqual([
      'Created job #A-7 in Quote',
      'Canceled job #A-7 (it was in Quote)',
      'Reopened job #A-7 in Quote',
      'Deleted job #A-7 together with its customer',
    ]);
  });

  test('a batch replayed after a crash changes nothing', async () => {
    const instanceId = randomUUID();
    const jobId = randomUUID();
    const label = { jobId, jobNumber: '99', name: 'Bo' };
    await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobCreated', data: { jobId, instanceId, ...fields, jobNumber: '99', name: 'Bo' } }],
      '2025-03-01T09:00:00.000Z',
    );
    const updates = await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobUpdated', data: { ...label, changes: [{ field: 'notes', oldValue: 'Rear axle', newValue: 'Front' }] } }],
      '2025-03-01T09:05:00.000Z',
    );
    await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobUpdated', data: { ...label, changes: [{ field: 'notes', oldValue: 'Front', newValue: 'Both' }] } }],
      '2025-03-01T09:06:00.000Z',
    );
    // The older update again, as after a crash between apply and acknowledgement.
    await project(updates);
    expect(await rm('jobs').where({ id: jobId }).first('notes', 'revision')).toEqual({ notes: 'Both', revision: 2 });
    expect(await rm('job_history').where({ job_id: jobId }).count({ n: '*' })).toEqual([{ n: '3' }]);
  });

  test('row-level security: the API role sees only its instance', async () => {
    const mine = randomUUID();
    const theirs = randomUUID();
    for (const instanceId of [mine, theirs]) {
      const jobId = randomUUID();
      await appendJob(jobId, instanceId, [{ type: 'JobCreated', data: { jobId, instanceId, ...fields } }], '2025-03-01T09:00:00.000Z');
    }
    const seen = await knex.transaction(async (trx) => {
      await trx.raw('SET LOCAL ROLE crm_api');
      await trx.raw(`SELECT set_config('app.instance_id', ?, true)`, [mine]);
      return {
        jobs: await trx.withSchema(READ_MODEL_SCHEMA).from('jobs').pluck('instance_id'),
        history: await trx.withSchema(READ_MODEL_SCHEMA).from('job_history').pluck('instance_id'),
      };
    });
    expect(seen.jobs).toEqual([mine]);
    expect(seen.history).toEqual([mine]);
  });

  test("the timeline masks the phone like a customer's; the job's own history keeps it whole", async () => {
    const instanceId = randomUUID();
    const jobId = randomUUID();
    const label = { jobId, jobNumber: '12', name: 'Ann Lee' };
    await appendJob(jobId, instanceId, [{ type: 'JobCreated', data: { jobId, instanceId, ...fields } }], '2025-03-01T09:00:00.000Z');
    await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobUpdated', data: { ...label, changes: [{ field: 'phone', oldValue: '5551234567', newValue: '5559876543' }] } }],
      '2025-03-01T09:05:00.000Z',
    );
    const storedHistory: StoredFieldChange[][] = await rm('job_history').where({ job_id: jobId }).orderBy('revision').pluck('changes');
    const history = storedHistory.map((changes) => changes.map(fieldChangeFromStored));
    expect(history[0]).toContainEqual({ field: 'phone', oldValue: null, newValue: '5551234567' });
    expect(history[1]).toEqual([{ field: 'phone', oldValue: '5551234567', newValue: '5559876543' }]);
    // The job's entries keep no list of their own: the timeline reads the history's, masked.
    expect(await rm('activity').where({ entity_id: jobId }).pluck('changes')).toEqual([null, null]);
    const timeline = (await timelineChanges(jobId)).map((changes) => changes.map(fieldChangeFromStored));
    expect(timeline[0]).toContainEqual({ field: 'phone', oldValue: null, newValue: '•••-•••-4567' });
    expect(timeline[1]).toEqual([{ field: 'phone', oldValue: '•••-•••-4567', newValue: '•••-•••-6543' }]);
    expect(JSON.stringify(timeline)).not.toMatch(/555\d{7}/);
  });

  /** A job's timeline change lists, oldest first, read as the audit log reads them. */
  async function timelineChanges(jobId: string): Promise<StoredFieldChange[][]> {
    const { rows } = await knex.raw<{ rows: Array<{ changes: StoredFieldChange[] }> }>(
      `SELECT ${activityChangesSql('a', READ_MODEL_SCHEMA)} AS changes FROM ??.activity a WHERE a.entity_id = ? ORDER BY a.position_prepare`,
      [READ_MODEL_SCHEMA, jobId],
    );
    return rows.map((row) => row.changes);
  }

  test('timeline entries of job events written with their own change list keep it only where the history holds the same, masked', async () => {
    const instanceId = randomUUID();
    const jobId = randomUUID();
    const label = { jobId, jobNumber: '14', name: 'Ann Lee' };
    await appendJob(jobId, instanceId, [{ type: 'JobCreated', data: { jobId, instanceId, ...fields } }], '2025-03-02T09:00:00.000Z');
    await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobUpdated', data: { ...label, changes: [{ field: 'phone', oldValue: '5551234567', newValue: '(555) 987-6543' }] } }],
      '2025-03-02T09:05:00.000Z',
    );
    const shown = await timelineChanges(jobId);
    const [created, updated] = (await rm('activity').where({ entity_id: jobId }).orderBy('position_prepare').pluck('event_id')) as string[];
    // As an older version wrote them: the masked list in the activity row itself; the second
    // one differs from its history (as a row of a bug fixed since would), so it stays.
    await rm('activity')
      .where({ event_id: created })
      .update({ changes: JSON.stringify(shown[0]) });
    const different = [['phone', '•••-•••-0000', '•••-•••-6543']];
    await rm('activity')
      .where({ event_id: updated })
      .update({ changes: JSON.stringify(different) });
    const migration = readModelMigrations.find((m) => m.name === '0081_audit_job_changes_in_history')!;
    await migration.up(knex, READ_MODEL_SCHEMA);
    expect((await rm('activity').where({ event_id: created }).first()).changes).toBeNull();
    expect((await rm('activity').where({ event_id: updated }).first()).changes).toEqual(different);
    expect(await timelineChanges(jobId)).toEqual([shown[0], different]);
    // Again: nothing more changes.
    await migration.up(knex, READ_MODEL_SCHEMA);
    expect(await timelineChanges(jobId)).toEqual([shown[0], different]);
    expect(shown[1]).toEqual([['phone', '•••-•••-4567', '•••-•••-6543']]);
    // Put back as the projection writes it: the rebuild below compares the tables.
    await rm('activity').where({ event_id: updated }).update({ changes: null });
  });

  /** A job's timeline entry as an older version wrote it (no event behind it: the test deletes it). */
  async function insertOldTimelineEntry(eventId: string, summary: string, changes: unknown[]) {
    await rm('activity').insert({
      event_id: eventId,
      instance_id: randomUUID(),
      position_commit: '0',
      position_prepare: '0',
      stream_id: `job-${randomUUID()}`,
      event_type: 'JobUpdated',
      entity_type: 'job',
      entity_id: randomUUID(),
      actor_kind: 'user',
      actor_id: randomUUID(),
      actor_name: 'Sam Writer',
      summary,
      changes: JSON.stringify(changes),
      occurred_at: '2025-03-01T09:00:00.000Z',
    });
  }

  test('timeline entries projected before phones were masked get the mask from the migration', async () => {
    const eventId = randomUUID();
    const whole = [
      { field: 'name', oldValue: null, newValue: 'Ann Lee' },
      { field: 'phone', oldValue: '5551234567', newValue: '5559876543' },
    ];
    await insertOldTimelineEntry(eventId, 'Updated job #12 (Ann Lee): Name, Phone', whole);
    const migration = readModelMigrations.find((m) => m.name === '0005_activity_masked_phones')!;
    const masked = [whole[0], { field: 'phone', oldValue: '•••-•••-4567', newValue: '•••-•••-6543' }];
    try {
      await migration.up(knex, READ_MODEL_SCHEMA);
      expect((await rm('activity').where({ event_id: eventId }).first()).changes).toEqual(masked);
      // Again: a masked phone stays as it is.
      await migration.up(knex, READ_MODEL_SCHEMA);
      expect((await rm('activity').where({ event_id: eventId }).first()).changes).toEqual(masked);
    } finally {
      // The row has no event behind it; the rebuild below must not meet it.
      await rm('activity').where({ event_id: eventId }).delete();
    }
  });

  test('timeline entries written before compact change lists get the compact form; read back they are the same changes', async () => {
    const eventId = randomUUID();
    const before = [
      { field: 'name', oldValue: null, newValue: 'Ann Lee' },
      // A value left out (undefined): JSON leaves out its key.
      { field: 'csr', oldValue: undefined, newValue: 'Terry' },
      { field: 'quote', oldValue: { cents: 1 }, newValue: '12.50' },
    ];
    await insertOldTimelineEntry(eventId, 'Updated job #12 (Ann Lee): Name, CSR, Quote', before);
    const migration = readModelMigrations.find((m) => m.name === '0077_audit_compact_changes')!;
    try {
      await migration.up(knex, READ_MODEL_SCHEMA);
      const stored: StoredFieldChange[] = (await rm('activity').where({ event_id: eventId }).first()).changes;
      // What the projection writes for the same changes, a change without all three keys as it was.
      expect(stored).toEqual(before.map(storedFieldChange));
      expect(stored).toEqual([['name', null, 'Ann Lee'], { field: 'csr', newValue: 'Terry' }, ['quote', { cents: 1 }, '12.50']]);
      expect(stored.map(fieldChangeFromStored)).toEqual(before);
    } finally {
      await rm('activity').where({ event_id: eventId }).delete();
    }
  });

  test('job history rows written before compact change lists get the compact form; read back they are the same changes', async () => {
    const eventId = randomUUID();
    const before = [
      { field: 'name', oldValue: null, newValue: 'Ann Lee' },
      // A value left out (undefined): JSON leaves out its key.
      { field: 'csr', oldValue: undefined, newValue: 'Terry' },
      { field: 'quote', oldValue: '12.00', newValue: '12.50' },
    ];
    await rm('job_history').insert({
      event_id: eventId,
      instance_id: randomUUID(),
      job_id: randomUUID(),
      revision: 1,
      action: 'updated',
      user_display_name: 'Sam Writer',
      occurred_at: '2025-03-01T09:00:00.000Z',
      changes: JSON.stringify(before),
    });
    const migration = readModelMigrations.find((m) => m.name === '0078_job_history_compact_changes')!;
    try {
      await migration.up(knex, READ_MODEL_SCHEMA);
      const stored: StoredFieldChange[] = (await rm('job_history').where({ event_id: eventId }).first()).changes;
      // What the projection writes for the same changes, a change without all three keys as it was.
      expect(stored).toEqual(before.map(storedFieldChange));
      expect(stored).toEqual([['name', null, 'Ann Lee'], { field: 'csr', newValue: 'Terry' }, ['quote', '12.00', '12.50']]);
      expect(stored.map(fieldChangeFromStored)).toEqual(before);
      // Again: a compact row stays as it is.
      await migration.up(knex, READ_MODEL_SCHEMA);
      expect((await rm('job_history').where({ event_id: eventId }).first()).changes).toEqual(stored);
    } finally {
      // The row has no event behind it; the rebuild below must not meet it.
      await rm('job_history').where({ event_id: eventId }).delete();
    }
  });

  test('rows projected before recorded times get them from the events; running it again changes nothing', async () => {
    const instanceId = randomUUID();
    const jobId = randomUUID();
    const label = { jobId, jobNumber: '77', name: 'Ann Lee' };
    const [created] = await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobCreated', data: { jobId, instanceId, ...fields, jobNumber: '77' } }],
      '2024-01-01T00:00:00.000Z',
    );
    const [updated] = await appendJob(
      jobId,
      instanceId,
      [{ type: 'JobUpdated', data: { ...label, changes: [{ field: 'notes', oldValue: 'Rear axle', newValue: 'Front' }] } }],
      '2024-01-02T00:00:00.000Z',
    );
    // As a projection from before wrote them: the commands' times, no recorded time in history.
    await rm('jobs').where({ id: jobId }).update({ created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-02T00:00:00.000Z' });
    await rm('job_history').where({ job_id: jobId }).update({ recorded_at: null });
    const migration = readModelMigrations.find((m) => m.name === '0007_recorded_times')!;
    for (let run = 0; run < 2; run++) {
      await migration.up(knex, READ_MODEL_SCHEMA);
      const row = await rm('jobs').where({ id: jobId }).first();
      expect(new Date(row.created_at).toISOString()).toBe(created!.recordedAt.toISOString());
      expect(new Date(row.updated_at).toISOString()).toBe(updated!.recordedAt.toISOString());
      const history = await rm('job_history').where({ job_id: jobId }).orderBy('revision').pluck('recorded_at');
      expect(history.map((t: Date) => t.toISOString())).toEqual([created!, updated!].map((e) => e.recordedAt.toISOString()));
    }
  });

  test('a rebuild produces the same jobs and history', async () => {
    // Everything appended above, replayed from position 0 into fresh tables.
    const projector = new Projector({ store, knex, connectionString: db.url, projections, schema: READ_MODEL_SCHEMA });
    projector.start();
    try {
      // Catching up from position 0 with every projection: on a loaded two-core machine that took over 10 s.
      await expect
        .poll(async () => reachedLastCommitted(knex, await readCheckpoint(knex, MAIN_CHECKPOINT)), { timeout: 45_000 })
        .toBe(true);
      const report = await rebuildReadModels({ store, knex, projections });
      for (const table of ['jobs', 'job_history', 'activity']) {
        expect(report.tables.find((t) => t.table === table)).toMatchObject({ identical: true });
      }
    } finally {
      await projector.stop();
    }
  });
});
