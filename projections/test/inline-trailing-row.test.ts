/**
 * A job's row follows its stream even when an append meets it trailing: two writers on one
 * job, one that appends without inline projection (a process from before inline projection
 * started, whose events the projector applies) and one that projects inline. The inline
 * writer decides on the row, its append is refused (the row's revision is not the stream's),
 * and its retry on the folded stream appends over a row that still misses the other
 * writer's event. Before the fix the inline projection applied the new event over that row:
 * the row jumped to the new revision without the missed change, and the projector, coming
 * later with that change, skipped it by the revision guard, so the row never followed its
 * stream again.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { createPostgresEventStore } from '../src/eventstore/postgres.ts';
import { WrongExpectedVersionError, type EventStore, type NewEvent, type RecordedEvent } from '../src/eventstore/port.ts';
import { EMPTY_JOB_FIELDS, type JobFields } from '../src/pipeline/index.ts';
import { pipelineProjection } from '../src/pipeline/projection.ts';
import { inlineProjections } from '../src/read-models.ts';
import { applyBatch } from '../src/runtime/projector.ts';
import { ensureInlineSince } from '../src/runtime/inline.ts';
import { testEventMetadata } from '../src/testing/events.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';

let env: StoreDatabase;
/** The second writer: appends with the inline read models, as the API does. */
let inline: EventStore;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 10 });
}, 120_000);

afterAll(async () => {
  await inline?.close();
  await env?.close();
});

const fields: JobFields = { ...EMPTY_JOB_FIELDS, jobNumber: '7', name: 'Tess Trail', part: 'Brake pads', notes: 'Front' };

function event(instanceId: string, type: string, data: unknown): NewEvent {
  return { id: randomUUID(), type, data, metadata: testEventMetadata(instanceId) };
}

/** What the projector does with events from before inline projection started: the pipeline's rows, in one batch. */
let checkpoints = 0;
async function projectLikeTheProjector(events: RecordedEvent[]): Promise<void> {
  const checkpointName = `trailing-${checkpoints++}`;
  await env.knex('projection_checkpoints').insert({ name: checkpointName, position_commit: '-1', position_prepare: '-1' });
  await applyBatch(env.knex, { schema: READ_MODEL_SCHEMA, checkpointName, projections: [pipelineProjection] }, events);
}

describe('an inline append over a row that trails its stream', () => {
  test('the row takes the events it missed first, and the projector coming later changes nothing', async () => {
    const instanceId = randomUUID();
    const jobId = randomUUID();
    const stream = `job-${jobId}`;
    const label = { jobId, jobNumber: '7', name: 'Tess Trail' };

    // Writer one, before inline projection: the job and a change of its part.
    const { store: plain, knex } = env;
    await plain.append(stream, [event(instanceId, 'JobCreated', { jobId, instanceId, ...fields })], { expectedRevision: 'no_stream' });
    await plain.append(
      stream,
      [event(instanceId, 'JobUpdated', { ...label, changes: [{ field: 'part', oldValue: 'Brake pads', newValue: 'Rotors' }] })],
      {
        expectedRevision: 0,
      },
    );
    const [created, partChanged] = await plain.readStream(stream);
    // The projector has applied the creation so far, not the change: the row trails its stream.
    await projectLikeTheProjector([created!]);
    const rm = () => knex.withSchema(READ_MODEL_SCHEMA).from('jobs').where({ id: jobId }).first();
    expect(await rm()).toMatchObject({ revision: 0, part: 'Brake pads' });

    // Writer two projects inline from now on (everything so far is the projector's).
    await ensureInlineSince(knex);
    inline = createPostgresEventStore({
      connectionString: env.db.url,
      pollIntervalMs: 50,
      inline: { knex, schema: READ_MODEL_SCHEMA, projections: inlineProjections },
    });
    const row = (await rm()) as Record<string, unknown>;
    const notes = event(instanceId, 'JobUpdated', {
      ...label,
      changes: [{ field: 'notes', oldValue: 'Front', newValue: 'Front and rear' }],
    });
    // Decided on the row (revision 0), with the row standing in for the projection's read: refused.
    await expect(inline.append(stream, [notes], { expectedRevision: 0, read: new Map([['pipeline', [row]]]) })).rejects.toBeInstanceOf(
      WrongExpectedVersionError,
    );
    // The retry decides on the folded stream (revision 1) and appends.
    await inline.append(stream, [notes], { expectedRevision: 1 });

    // The row follows its stream: both changes, at the stream's revision.
    expect(await rm()).toMatchObject({ revision: 2, part: 'Rotors', notes: 'Front and rear' });
    const history = await knex
      .withSchema(READ_MODEL_SCHEMA)
      .from('job_history')
      .where({ job_id: jobId })
      .orderBy('revision')
      .pluck('revision');
    expect(history).toEqual([0, 1, 2]);

    // The projector then applies the change from before inline projection: nothing moves.
    await projectLikeTheProjector([partChanged!]);
    expect(await rm()).toMatchObject({ revision: 2, part: 'Rotors', notes: 'Front and rear' });
    const counts = await knex.withSchema(READ_MODEL_SCHEMA).from('job_counts').where({ instance_id: instanceId }).pluck('total');
    expect(counts).toEqual([1]);
  }, 60_000);

  test("a job with no row yet (its creation still the projector's) gets its row from the whole stream", async () => {
    const instanceId = randomUUID();
    const jobId = randomUUID();
    const stream = `job-${jobId}`;
    const label = { jobId, jobNumber: '8', name: 'Nora Norow' };
    await env.store.append(
      stream,
      [event(instanceId, 'JobCreated', { jobId, instanceId, ...fields, jobNumber: '8', name: 'Nora Norow' })],
      {
        expectedRevision: 'no_stream',
      },
    );
    await ensureInlineSince(env.knex);
    inline ??= createPostgresEventStore({
      connectionString: env.db.url,
      pollIntervalMs: 50,
      inline: { knex: env.knex, schema: READ_MODEL_SCHEMA, projections: inlineProjections },
    });
    await inline.append(
      stream,
      [event(instanceId, 'JobUpdated', { ...label, changes: [{ field: 'part', oldValue: 'Brake pads', newValue: 'Struts' }] })],
      {
        expectedRevision: 0,
      },
    );
    const row = await env.knex.withSchema(READ_MODEL_SCHEMA).from('jobs').where({ id: jobId }).first();
    expect(row).toMatchObject({ revision: 1, part: 'Struts', job_number: '8' });
    const [created] = await env.store.readStream(stream);
    await projectLikeTheProjector([created!]);
    expect(await env.knex.withSchema(READ_MODEL_SCHEMA).from('jobs').where({ id: jobId }).first()).toMatchObject({
      revision: 1,
      part: 'Struts',
    });
    expect(await env.knex.withSchema(READ_MODEL_SCHEMA).from('job_counts').where({ instance_id: instanceId }).pluck('total')).toEqual([1]);
  }, 60_000);
});
