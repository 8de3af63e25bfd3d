import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import { parseStoredEvent } from '../src/events.ts';
import { EVENT_COLUMNS, recordedEvent, type EventRow } from '../src/eventstore/event-rows.ts';
import { positionToString, type EventMetadata, type EventStore, type RecordedEvent } from '../src/eventstore/port.ts';
import { EMPTY_JOB_FIELDS, isJobStreamEvent } from '../src/pipeline/index.ts';
import { jobHistoryFromLog } from '../src/pipeline/history-sql.ts';
import { HISTORY_COLUMNS, jobHistoryRow, type StoredJobEvent } from '../src/pipeline/job-rows.ts';
import { tableRows } from '../src/runtime/bulk-rows.ts';
import { copyRows } from '../src/runtime/copy.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';

/**
 * A rebuild has PostgreSQL make the job events' `job_history` rows from the events table
 * (jobHistoryFromLog); the projector makes them in TypeScript (jobHistoryRow). Every job
 * event type, with the values that read differently (quotes with and without cents, as
 * numbers and as text, no quote, no appointment, a revert, fields a schema drops), must give
 * the same row, column for column, as text.
 */

let knex: Knex;
let store: EventStore;
let env: StoreDatabase | undefined;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 3 });
  ({ knex, store } = env);
});

afterAll(() => env?.close());

let second = 0;
const metadata = (instanceId: string | undefined): EventMetadata =>
  ({
    ...(instanceId === undefined ? {} : { instanceId }),
    actor: { kind: 'user', id: randomUUID(), displayName: `Writer ${second % 3}` },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date(Date.UTC(2025, 2, 1, 9, 0, (second += 1), 123)).toISOString(),
    schemaVersion: 1,
  }) as EventMetadata;

const instanceId = randomUUID();

async function append(jobId: string, events: Array<{ type: string; data: unknown }>, instance: string | undefined = instanceId) {
  const before = await store.readStream(`job-${jobId}`);
  await store.append(
    `job-${jobId}`,
    events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata: metadata(instance) })),
    { expectedRevision: before.length ? before[before.length - 1]!.revision : 'no_stream' },
  );
}

const label = (jobId: string) => ({ jobId, jobNumber: '7', name: 'Ann Lee' });

async function writeLog(): Promise<void> {
  const full = randomUUID();
  await append(full, [
    {
      type: 'JobCreated',
      data: {
        jobId: full,
        instanceId,
        ...EMPTY_JOB_FIELDS,
        jobNumber: '7',
        name: 'Ann "Lee"\ttab',
        phone: '5551234567',
        quote: 1234.5,
        appointment: '2025-03-04T09:30:00.000Z',
        duration: 90,
        notes: 'new\nline and back\\slash, ünïcode',
        customerId: randomUUID(),
        vehicleId: randomUUID(),
        mileageIn: 0,
        mileageOut: 120000,
      },
    },
    {
      type: 'JobUpdated',
      data: {
        ...label(full),
        changes: [
          { field: 'quote', oldValue: 1234.5, newValue: 1.005 },
          { field: 'quote', oldValue: 0.30000000000000004, newValue: null },
          { field: 'quote', oldValue: '12.5', newValue: '' },
          { field: 'quote', oldValue: ' 99 ', newValue: 'not a number' },
          { field: 'quote', oldValue: 0, newValue: 1e6 },
          { field: 'notes', oldValue: '', newValue: 'x', dropped: 'by the schema' },
          { field: 'mileageIn', oldValue: null, newValue: 15.25 },
          { field: 'customerId', oldValue: null, newValue: randomUUID() },
        ],
        revertOf: randomUUID(),
      },
    },
    { type: 'JobStageChanged', data: { ...label(full), from: 'Quote', to: 'Scheduled', revertOf: randomUUID() } },
    { type: 'JobRescheduled', data: { ...label(full), from: '2025-03-04T09:30:00.000Z', to: null, fromDuration: 90, toDuration: 90 } },
    { type: 'JobRescheduled', data: { ...label(full), from: null, to: null, fromDuration: 60, toDuration: 30 } },
    { type: 'JobRescheduled', data: { ...label(full), from: null, to: '2025-03-05T08:00:00.000Z', fromDuration: null, toDuration: 45 } },
    { type: 'JobCanceled', data: { ...label(full), previousStage: 'Scheduled' } },
    { type: 'JobReopened', data: { ...label(full), stage: 'Quote', revertOf: randomUUID() } },
    { type: 'JobDeleted', data: { ...label(full), reason: 'customer-deleted' } },
    {
      type: 'JobRestored',
      data: {
        jobId: full,
        instanceId,
        ...EMPTY_JOB_FIELDS,
        jobNumber: '7',
        createdAt: '2025-03-01T09:00:00.000Z',
        createdBy: 'Sam',
        revertOf: 'dropped',
      },
    },
  ]);
  // An older job event: no vehicle or mileage fields at all, no quote.
  const old = randomUUID();
  const { vehicleId: _v, mileageIn: _i, mileageOut: _o, ...before } = { ...EMPTY_JOB_FIELDS, jobNumber: '8', name: 'Bo' };
  await append(old, [{ type: 'JobCreated', data: { jobId: old, instanceId, ...before, quote: 0 } }]);
  // Outside an instance: no history row on either side.
  const outside = randomUUID();
  await append(outside, [{ type: 'JobCreated', data: { jobId: outside, instanceId, ...EMPTY_JOB_FIELDS } }], undefined);
  await append(outside, [{ type: 'JobStageChanged', data: { ...label(outside), from: 'Quote', to: 'Scheduled' } }], '');
}

/** The whole log as its readers map it, read straight (readAll waits for other tests' transactions to end). */
async function allEvents(): Promise<RecordedEvent[]> {
  const { rows } = await knex.raw<{ rows: EventRow[] }>(`SELECT ${EVENT_COLUMNS} FROM events ORDER BY tx_id, seq`);
  return rows.map(recordedEvent);
}

async function historyTable(schema: string): Promise<void> {
  await knex.raw('CREATE SCHEMA ??', [schema]);
  await knex.raw('CREATE TABLE ??.job_history (LIKE ??.job_history)', [schema, READ_MODEL_SCHEMA]);
}

const rowsAsText = async (schema: string) =>
  (await knex.raw<{ rows: Array<{ row: string }> }>('SELECT t::text AS row FROM ??.job_history t ORDER BY 1', [schema])).rows.map(
    (r) => r.row,
  );

test('PostgreSQL makes every job event type into the job_history row jobHistoryRow gives, a parked event left out', async () => {
  await writeLog();
  // Recorded times with microseconds, which the process's Date drops.
  const fractions = ['00.291', '00.000999', '59.999999', '01.5', '02.58'];
  const events = await allEvents();
  await knex.transaction(async (trx) => {
    await trx.raw('ALTER TABLE events DISABLE TRIGGER USER');
    for (const [i, event] of events.entries())
      await trx.raw(`UPDATE events SET recorded_at = ?::timestamptz WHERE event_id = ?`, [
        `2025-03-01 10:00:${fractions[i % fractions.length]}+00`,
        event.id,
      ]);
    await trx.raw('ALTER TABLE events ENABLE TRIGGER USER');
  });
  const recorded = await allEvents();
  const jobEvents = recorded
    .map((event) => parseStoredEvent(event)!)
    .filter((event): event is StoredJobEvent => isJobStreamEvent(event) && Boolean(event.metadata.instanceId));
  expect(new Set(jobEvents.map((event) => event.type)).size).toBe(8);
  const parked = jobEvents[3]!;
  const upTo = recorded[recorded.length - 1]!.position;

  await historyTable('history_ts');
  await knex.transaction((trx) =>
    copyRows(trx, 'history_ts', tableRows('job_history', HISTORY_COLUMNS, jobEvents.filter((e) => e !== parked).map(jobHistoryRow))),
  );
  await historyTable('history_sql');
  const { sql, bindings } = jobHistoryFromLog('history_sql', upTo, [positionToString(parked.position)]);
  await knex.raw(sql, bindings);

  const made = await rowsAsText('history_sql');
  expect(made).toHaveLength(jobEvents.length - 1);
  expect(made).toEqual(await rowsAsText('history_ts'));
});
