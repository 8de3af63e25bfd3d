import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { READ_MODEL_SCHEMA } from '../src/db/migrate.ts';
import type { DomainEvent } from '../src/events.ts';
import { START, type EventMetadata, type EventStore, type RecordedEvent } from '../src/eventstore/port.ts';
import { EMPTY_JOB_FIELDS, type JobFields } from '../src/pipeline/index.ts';
import { projections } from '../src/read-models.ts';
import { ensureCheckpoint, MAIN_CHECKPOINT } from '../src/runtime/checkpoints.ts';
import { copyMessages, copyText } from '../src/runtime/copy.ts';
import { applyBatch, parkEvent } from '../src/runtime/projector.ts';
import { rebuildReadModels, REBUILD_STATISTICS_TARGET } from '../src/runtime/rebuild.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';

/**
 * A rebuild fills the identity, audit, pipeline, customers, vehicles and insights tables through their bulk
 * paths (rows folded in memory, written with COPY); the live projector applies the same
 * events one at a time. Over a log with creations, updates, deletions, restores, merges and
 * their undo, vehicle records renamed, moved, deleted and restored, repair-order events on a job's stream, and a parked event, both must give the
 * same rows.
 */

let knex: Knex;
let store: EventStore;
let env: StoreDatabase | undefined;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 6 });
  ({ knex, store } = env);
});

afterAll(() => env?.close());

const rm = (table: string) => env!.rm(table);

let minute = 0;
function metadata(instanceId: string): EventMetadata {
  minute += 1;
  return {
    instanceId,
    actor: { kind: 'user', id: randomUUID(), displayName: `Writer ${minute % 3}` },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date(Date.UTC(2025, 2, 1, 9, minute)).toISOString(),
    schemaVersion: 1,
  };
}

async function append(streamId: string, instanceId: string, events: DomainEvent[]): Promise<void> {
  const before = await store.readStream(streamId);
  await store.append(
    streamId,
    events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata: metadata(instanceId) })),
    { expectedRevision: before.length ? before[before.length - 1]!.revision : 'no_stream' },
  );
}

const customerFields = {
  name: 'Ann Lee',
  phone: '5551234567',
  email: 'ann@example.com',
  address: '1 Main St',
  vehicles: '2015 Honda Civic',
  pastAppointments: '',
  invoices: '',
  notes: 'tab\there, new\nline and back\\slash',
};

const jobFields = (jobNumber: string, customerId: string): JobFields => ({
  ...EMPTY_JOB_FIELDS,
  jobNumber,
  name: 'Ann Lee',
  phone: '5551234567',
  part: 'Brake pads',
  makeModel: '2015 Honda Civic',
  quote: 1234.5,
  csr: 'Sam',
  jobType: 'In Shop',
  tech: 'Tom',
  customerId,
});

/** A shop's log: every kind of change the bulk paths fold. */
async function writeMixedLog(instanceId: string): Promise<void> {
  const customers = [randomUUID(), randomUUID(), randomUUID()] as const;
  for (const [i, customerId] of customers.entries()) {
    await append(`customer-${customerId}`, instanceId, [
      { type: 'CustomerCreated', data: { customerId, instanceId, number: i + 1, ...customerFields, name: `Customer ${i}` } },
    ]);
  }
  const [kept, deleted, mergedAway] = customers;
  await append(`customer-${kept}`, instanceId, [
    {
      type: 'CustomerUpdated',
      data: {
        customerId: kept,
        number: 1,
        name: 'Customer 0',
        changes: [{ field: 'phone', oldValue: '5551234567', newValue: '5550000000' }],
      },
    },
  ]);
  await append(`customer-${deleted}`, instanceId, [
    { type: 'CustomerDeleted', data: { customerId: deleted, number: 2, name: 'Customer 1' } },
  ]);
  await append(`customer-${deleted}`, instanceId, [
    {
      type: 'CustomerRestored',
      data: {
        customerId: deleted,
        instanceId,
        number: 2,
        ...customerFields,
        name: 'Customer 1',
        createdAt: '2025-01-01T00:00:00.000Z',
        createdBy: 'Old',
      },
    },
  ]);
  const merge = {
    mergeId: randomUUID(),
    fromId: mergedAway,
    fromName: 'Customer 2',
    intoId: kept,
    intoName: 'Customer 0',
    jobIds: [],
    renamedJobIds: [],
    vehicleIds: [],
  };
  await append(`customer-${mergedAway}`, instanceId, [
    { type: 'CustomerMerged', data: { customerId: mergedAway, number: 3, name: 'Customer 2', role: 'from', ...merge } },
  ]);
  await append(`customer-${kept}`, instanceId, [
    { type: 'CustomerMerged', data: { customerId: kept, number: 1, name: 'Customer 0', role: 'into', ...merge } },
  ]);
  await append(`customer-${mergedAway}`, instanceId, [
    {
      type: 'CustomerMergeUndone',
      data: {
        customerId: mergedAway,
        number: 3,
        name: 'Customer 2',
        role: 'from',
        ...merge,
        restored: { instanceId, ...customerFields, name: 'Customer 2', createdAt: '2025-01-02T00:00:00.000Z', createdBy: 'Old' },
      },
    },
  ]);
  await append(`customer-${kept}`, instanceId, [
    { type: 'CustomerMergeUndone', data: { customerId: kept, number: 1, name: 'Customer 0', role: 'into', ...merge } },
  ]);

  const vehicles = [randomUUID(), randomUUID(), randomUUID(), randomUUID()] as const;
  const [renamed, movedAway, scrapped, returned] = vehicles;
  const vehicle = { year: 2015, make: 'Honda', model: 'Civic', trim: '', vin: '', plate: '', plateState: '', color: '', notes: '' };
  for (const [i, vehicleId] of vehicles.entries()) {
    await append(`vehicle-${vehicleId}`, instanceId, [
      {
        type: 'VehicleCreated',
        data: {
          vehicleId,
          instanceId,
          customerId: i === 3 ? deleted : kept,
          ...vehicle,
          plate: `AB-${i}`,
          // The first made from the customer's typed text, which reads as its label: one label row.
          ...(i === 0 ? { migratedFrom: { source: 'customer-vehicles' as const, text: '2015 Honda Civic', jobId: null } } : {}),
          ...(i === 1 ? { migratedFrom: { source: 'customer-vehicles' as const, text: 'the old civic', jobId: null } } : {}),
        },
      },
    ]);
  }
  await append(`vehicle-${renamed}`, instanceId, [
    {
      type: 'VehicleUpdated',
      data: { vehicleId: renamed, label: '2015 Honda Accord', changes: [{ field: 'model', oldValue: 'Civic', newValue: 'Accord' }] },
    },
    {
      type: 'VehicleMileageRecorded',
      data: { vehicleId: renamed, label: '2015 Honda Accord', mileage: 42_000, previous: null, jobId: randomUUID() },
    },
  ]);
  await append(`vehicle-${movedAway}`, instanceId, [
    {
      type: 'VehicleMoved',
      data: { vehicleId: movedAway, label: '2015 Honda Civic', fromCustomerId: kept, toCustomerId: deleted, mergeId: randomUUID() },
    },
  ]);
  await append(`vehicle-${scrapped}`, instanceId, [
    { type: 'VehicleDeleted', data: { vehicleId: scrapped, label: '2015 Honda Civic', customerId: kept } },
  ]);
  await append(`vehicle-${returned}`, instanceId, [
    { type: 'VehicleDeleted', data: { vehicleId: returned, label: '2015 Honda Civic', customerId: deleted, reason: 'customer-deleted' } },
    {
      type: 'VehicleRestored',
      data: {
        vehicleId: returned,
        label: '2015 Honda Civic',
        instanceId,
        customerId: deleted,
        ...vehicle,
        plate: 'AB-3',
        lastMileage: 1234,
        createdAt: '2025-01-03T00:00:00.000Z',
        createdBy: 'Old',
      },
    },
  ]);

  const users = [randomUUID(), randomUUID(), randomUUID()] as const;
  const some = { canRead: true, canWrite: true, canDelete: false, canManageUsers: false };
  const all = { canRead: true, canWrite: true, canDelete: true, canManageUsers: true };
  for (const [i, userId] of users.entries()) {
    await append(`user-${userId}`, instanceId, [
      {
        type: 'UserCreated',
        data: { userId, instanceId, username: `user${i}`, displayName: `User ${i}`, role: 'user', permissions: some, pinHash: 'x' },
      },
    ]);
  }
  const [promoted, locked, removed] = users;
  await append(`user-${promoted}`, instanceId, [
    {
      type: 'UserRoleChanged',
      data: { userId: promoted, username: 'user0', oldRole: 'user', newRole: 'admin', oldPermissions: some, permissions: all },
    },
    { type: 'UserPermissionsChanged', data: { userId: promoted, username: 'user0', old: all, new: { ...all, canDelete: false } } },
    { type: 'UserSignedIn', data: { userId: promoted, username: 'user0' } },
  ]);
  await append(`user-${locked}`, instanceId, [
    { type: 'UserSignInThrottled', data: { userId: locked, username: 'user1', lockedUntil: '2025-03-01T10:00:00.000Z' } },
    { type: 'UserLocked', data: { userId: locked, username: 'user1' } },
    { type: 'UserUnlocked', data: { userId: locked, username: 'user1' } },
    { type: 'UserSignInThrottled', data: { userId: locked, username: 'user1', lockedUntil: '2025-03-01T11:00:00.000Z' } },
    { type: 'UserPinChanged', data: { userId: locked, username: 'user1', pinHash: 'y' } },
    { type: 'UserSignInThrottled', data: { userId: locked, username: 'user1', lockedUntil: '2025-03-01T12:00:00.000Z' } },
  ]);
  await append(`user-${removed}`, instanceId, [
    { type: 'UserSignedIn', data: { userId: removed, username: 'user2' } },
    { type: 'UserDeleted', data: { userId: removed, instanceId, username: 'user2' } },
  ]);

  const jobs = [randomUUID(), randomUUID(), randomUUID()] as const;
  for (const [i, jobId] of jobs.entries()) {
    await append(`job-${jobId}`, instanceId, [{ type: 'JobCreated', data: { jobId, instanceId, ...jobFields(String(i + 1), kept) } }]);
  }
  const [moved, gone, back] = jobs;
  const label = (jobId: string, jobNumber: string) => ({ jobId, jobNumber, name: 'Ann Lee' });
  await append(`job-${moved}`, instanceId, [
    { type: 'JobUpdated', data: { ...label(moved, '1'), changes: [{ field: 'quote', oldValue: 1234.5, newValue: 1500 }] } },
    {
      type: 'JobRescheduled',
      data: { ...label(moved, '1'), from: null, to: '2025-03-03T14:30:00.000Z', fromDuration: null, toDuration: 90 },
    },
    { type: 'JobStageChanged', data: { ...label(moved, '1'), from: 'Quote', to: 'Scheduled' } },
    { type: 'JobCanceled', data: { ...label(moved, '1'), previousStage: 'Scheduled' } },
    { type: 'JobReopened', data: { ...label(moved, '1'), stage: 'Scheduled' } },
    {
      type: 'PaymentRecorded',
      data: {
        ...label(moved, '1'),
        paymentId: randomUUID(),
        amount: 5000,
        method: 'cash',
        reference: '',
        receivedAt: '2025-03-04T10:00:00.000Z',
      },
    },
  ]);
  await append(`job-${gone}`, instanceId, [
    { type: 'JobStageChanged', data: { ...label(gone, '2'), from: 'Quote', to: 'Scheduled' } },
    { type: 'JobDeleted', data: { ...label(gone, '2') } },
  ]);
  await append(`job-${back}`, instanceId, [
    { type: 'JobDeleted', data: { ...label(back, '3') } },
    {
      type: 'JobRestored',
      data: { jobId: back, instanceId, ...jobFields('3', kept), createdAt: '2025-02-01T00:00:00.000Z', createdBy: 'Old' },
    },
    { type: 'JobUpdated', data: { ...label(back, '3'), changes: [{ field: 'notes', oldValue: '', newValue: 'Back again' }] } },
    { type: 'JobStageChanged', data: { ...label(back, '3'), from: 'Quote', to: 'Completed' } },
  ]);
}

/** The schema's constraints and indexes (names and definitions), in a fixed order. */
async function catalogOf(schema: string) {
  const constraints = await knex.raw<{ rows: Array<{ table: string; name: string; definition: string }> }>(
    `SELECT t.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
      WHERE k.connamespace = ?::regnamespace AND t.relname NOT LIKE 'knex_migrations%'
      ORDER BY 1, 2`,
    [schema],
  );
  const indexes = await knex.raw<{ rows: Array<{ table: string; name: string; definition: string }> }>(
    `SELECT tablename AS table, indexname AS name, indexdef AS definition
       FROM pg_indexes WHERE schemaname = ? AND tablename NOT LIKE 'knex_migrations%' ORDER BY 1, 2`,
    [schema],
  );
  return { constraints: constraints.rows, indexes: indexes.rows };
}

describe('rebuild through the bulk paths', () => {
  test('COPY text escapes its separators and writes null, booleans, dates and JSON as an INSERT would', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText('a\tb\nc\\d\re')).toBe('a\\tb\\nc\\\\d\\re');
    expect(copyText(true)).toBe('t');
    expect(copyText(12.5)).toBe('12.5');
    expect(copyText(new Date('2025-03-01T09:00:00.000Z'))).toBe('2025-03-01T09:00:00.000Z');
    expect(copyText([{ field: 'notes', newValue: 'x\ty' }])).toBe('[{"field":"notes","newValue":"x\\\\ty"}]');
  });

  test('COPY text of many rows: every row, tab-separated and newline-ended, in CopyData messages split anywhere but whole as UTF-8', () => {
    const long = 'é€'.repeat(400_000); // 2.8 MB of UTF-8: more than one chunk on its own
    const columns = ['n', 'name', 'none', 'even', 'changes'];
    const values: unknown[][] = [];
    for (let i = 0; i < 30_000; i++) values.push([i, `név ${i}\t€`, null, i % 2 === 0, [{ field: 'name', newValue: `ü${i}` }]]);
    values.push([1, long, null, false, []]);
    // Each row an object keyed by column, as the projections build them, its keys in another
    // order: the values go out in the order of `columns`.
    const rows = values.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]]).reverse()));
    const messages = copyMessages(columns, rows);
    expect(messages.length).toBeGreaterThan(2);
    // Each message: 'd', its length (itself included, not the 'd'), then its part of the text.
    for (const message of messages) {
      expect(message[0]).toBe(0x64);
      expect(message.readInt32BE(1)).toBe(message.length - 1);
    }
    const expected = values.map((row) => `${row.map(copyText).join('\t')}\n`).join('');
    expect(Buffer.concat(messages.map((message) => message.subarray(5))).toString('utf8')).toBe(expected);
    expect(copyMessages(columns, [])).toEqual([]);
  });

  test('gives the rows the live projector gives event by event, a parked event reported as a difference', async () => {
    const instanceId = randomUUID();
    await writeMixedLog(instanceId);
    // A reader sees committed events once no older transaction (of any test file on this
    // cluster) holds the visibility horizon back.
    let events: RecordedEvent[] = [];
    await expect.poll(async () => (events = await store.readAll(START, 10_000)).length, { timeout: 60_000 }).toBe(49);
    // The per-event path: each event alone, as the projector applies one it isolates. One
    // job update is parked instead (as a poison event would be): the live tables never show it.
    const poisoned = events.find(
      (event) => event.type === 'JobUpdated' && (event.data as { changes: { field: string }[] }).changes[0]!.field === 'notes',
    );
    expect(poisoned).toBeDefined();
    await ensureCheckpoint(knex, MAIN_CHECKPOINT);
    for (const event of events) {
      if (event.id === poisoned!.id) await parkEvent(knex, MAIN_CHECKPOINT, event, new Error('poison for the test'));
      else await applyBatch(knex, { schema: READ_MODEL_SCHEMA, checkpointName: MAIN_CHECKPOINT, projections }, [event]);
    }
    const live = {
      customers: await rm('customers').orderBy('id').select(),
      jobs: await rm('jobs').orderBy('id').select(),
      intervals: await rm('insight_stage_intervals').orderBy('event_id').select(),
      vehicles: await rm('vehicles').orderBy('id').select(),
      labels: await rm('customer_vehicle_labels').orderBy(['customer_id', 'vehicle_id', 'label']).select(),
    };
    // Not vacuous: the log's changes are in the live tables.
    expect(live.customers).toHaveLength(3);
    expect(live.jobs.map((job: { job_number: string }) => job.job_number).sort()).toEqual(['1', '3']);
    expect(await rm('customer_counts').where({ instance_id: instanceId }).first('total')).toEqual({ total: 3 });
    expect(live.intervals.length).toBeGreaterThan(5);
    expect(live.vehicles.map((v: { model: string; last_mileage: number | null }) => [v.model, v.last_mileage]).sort()).toEqual([
      ['Accord', 42_000],
      ['Civic', null],
      ['Civic', 1234],
    ]);
    expect(live.labels).toHaveLength(5);
    expect(live.customers.flatMap((c: { vehicle_list: string[] }) => c.vehicle_list)).toContain('2015 Honda Accord');
    expect(
      await rm('users').where({ instance_id: instanceId }).orderBy('username').select('username', 'role', 'sign_in_locked_until'),
    ).toEqual([
      { username: 'user0', role: 'admin', sign_in_locked_until: null },
      { username: 'user1', role: 'user', sign_in_locked_until: new Date('2025-03-01T12:00:00.000Z') },
    ]);

    const catalogBefore = await catalogOf(READ_MODEL_SCHEMA);
    const progress: number[] = [];
    const report = await rebuildReadModels({ store, knex, projections, onProgress: ({ replayed }) => progress.push(replayed) });
    expect(report.tables.filter((t) => !t.identical)).toEqual([]);
    for (const table of [
      'activity',
      'customers',
      'customer_counts',
      'jobs',
      'job_counts',
      'job_history',
      'insight_jobs',
      'insight_stage_intervals',
      'vehicles',
      'customer_vehicle_labels',
    ]) {
      expect(report.tables.find((t) => t.table === table)).toMatchObject({ identical: true });
      expect(report.tables.find((t) => t.table === table)!.liveRows).toBeGreaterThan(0);
    }
    expect(report.parked.map((p) => p.eventId)).toEqual([poisoned!.id]);
    expect(report.identical).toBe(false);
    expect(progress.at(-1)).toBe(events.length);
    // The swapped-in tables are the rebuilt ones, row for row what the live path made.
    expect(await rm('customers').orderBy('id').select()).toEqual(live.customers);
    expect(await rm('jobs').orderBy('id').select()).toEqual(live.jobs);
    expect(await rm('insight_stage_intervals').orderBy('event_id').select()).toEqual(live.intervals);
    expect(await rm('vehicles').orderBy('id').select()).toEqual(live.vehicles);
    expect(await rm('customer_vehicle_labels').orderBy(['customer_id', 'vehicle_id', 'label']).select()).toEqual(live.labels);
    // The swapped-in tables have planner statistics at once (ANALYZE, not autovacuum a minute
    // later): every table with rows has them.
    const withStatistics = await knex('pg_stats').where({ schemaname: READ_MODEL_SCHEMA }).distinct().pluck('tablename');
    const filled = report.tables.filter((t) => t.rebuiltRows > 0).map((t) => t.table);
    expect(filled.length).toBeGreaterThan(8);
    expect(filled.filter((table) => !withStatistics.includes(table))).toEqual([]);
    // On the rebuild's smaller sample: the longest histogram as long as its target allows (at
    // the default target this store's longest lists 36 values).
    const { longest } = await knex('pg_stats')
      .where({ schemaname: READ_MODEL_SCHEMA })
      .first(knex.raw('max(array_length(histogram_bounds::text::text[], 1)) AS longest'));
    expect(longest).toBe(REBUILD_STATISTICS_TARGET + 1);
    // Keys and indexes dropped for the load are all back, under the same names.
    const catalogAfter = await catalogOf(READ_MODEL_SCHEMA);
    expect(catalogAfter.constraints).toEqual(catalogBefore.constraints);
    expect(catalogAfter.indexes).toEqual(catalogBefore.indexes);
    expect(catalogAfter.constraints).toContainEqual({ table: 'activity', name: 'activity_pkey', definition: 'PRIMARY KEY (event_id)' });
    expect(catalogAfter.constraints).toContainEqual({
      table: 'job_history',
      name: 'job_history_pkey',
      definition: 'PRIMARY KEY (event_id)',
    });
  });
});
