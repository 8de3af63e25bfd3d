/**
 * Round trips to PostgreSQL of a command from the API process, once the session is cached:
 * counted by wrapping pg.Client#query (every statement knex, the event store or the app
 * sends goes through it), from the request until its answer. The counts are the ones the
 * README's Performance section states; a change that adds a round trip to a command shows
 * here. (The write counterpart of read-round-trips.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';
import { recordStatements, type StatementRecorder } from '@crm/projections/testing/statement-recorder';
import { systemContext, toNewEvents } from '../../src/shared/commands.ts';
import type { JobEvent } from '../../src/pipeline/job-decider.ts';

let server: TestServer;
let owner: ApiClient;
let subdomain: string;
let customerId: string;
let recorder: StatementRecorder | undefined;

beforeAll(async () => {
  // No projector, reactors or message sender: their polling would be counted as the
  // command's statements. What a command writes inline is written with its events.
  server = await startTestServer({ RUN_PROJECTOR: 'false' });
  const shop = await createTestInstance(server, 'wtrips');
  subdomain = shop.subdomain;
  owner = await signInUser(server, shop.subdomain, shop.admin.username, shop.admin.pin);
  const created = await owner.post('/api/customers', { name: 'Write Trip Wanda', phone: '5550003333' });
  expect(created.status).toBe(201);
  customerId = created.body.id;
  recorder = recordStatements();
}, 120_000);

afterAll(async () => {
  recorder?.stop();
  await server?.stop();
});

/** The statements one request sent before its answer, and its body. */
async function statementsOf(
  request: () => Promise<{ status: number; body: { id?: string } }>,
  status: number,
): Promise<{ statements: string[]; body: { id?: string } }> {
  const { result: response, statements } = await recorder!.during(request);
  expect(response.status).toBe(status);
  // The wake-up NOTIFY after an append's commit is sent and not waited for (eventstore/postgres.ts).
  // The session query is the cache's, not the command's: on a loaded machine the cached
  // session can outlive its time-to-live (5 s) between the warm-up and the counted request.
  return {
    statements: statements.filter((s) => !/pg_notify\('events'/.test(s) && !/FROM sessions s/.test(s)),
    body: response.body,
  };
}

const show = (statements: string[]) => statements.map((s, i) => `${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n');

describe('a command', () => {
  test('a job update: its append and its rows in one transaction of one round trip, decided on the row this process wrote, answered from the row written', async () => {
    const job = await owner.post(`/api/${subdomain}/pipeline`, { name: 'Write Trip Wanda', customerId, part: 'Brake pads' });
    expect(job.status).toBe(201);
    // Warm: the session is cached.
    await statementsOf(() => owner.put(`/api/${subdomain}/pipeline/${job.body.id}`, { part: 'Rotors' }), 200);
    const { statements, body } = await statementsOf(
      () => owner.put(`/api/${subdomain}/pipeline/${job.body.id}`, { part: 'Calipers' }),
      200,
    );
    console.log(`job update: ${statements.length} round trips\n${show(statements)}`);
    // The answer is the job as a GET reads it (the same row, the same mapping; the GET adds
    // the record's other parts, such as its repair order's totals).
    const read = await owner.get(`/api/${subdomain}/pipeline/${job.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(body);
    expect(body).toMatchObject({ part: 'Calipers', revision: 2 });
    expect(
      statements.filter((s) => /append_events/.test(s)),
      show(statements),
    ).toHaveLength(1);
    // The decider's state is the row the last save wrote (its RETURNING): neither the stream
    // nor the row is read, and the append expects the row's revision.
    expect(
      statements.filter((s) => /from events/i.test(s) || /from "rm"\."jobs"/.test(s)),
      show(statements),
    ).toHaveLength(0);
    // The answer is the row the append's transaction wrote (RETURNING), not read back afterwards;
    // the append, the history and the row go in one message with BEGIN and COMMIT, the row
    // statement as a statement prepared on the connection (planned once per connection; on a
    // connection that has not prepared it yet, the DO that prepares it opens the message).
    expect(statements.at(-1), show(statements)).toMatch(
      /^(?:DO \$crm_prepare\$[\s\S]*?\$crm_prepare\$;\n)*BEGIN;[\s\S]*append_events[\s\S]*EXECUTE crm_\w+\('[\s\S]*COMMIT$/,
    );
    expect(statements.length, show(statements)).toBeLessThanOrEqual(UPDATE_ROUND_TRIPS);
  }, 60_000);

  test('a job another writer moved on since this process wrote its row: the stale decision is not stored, the save goes again on the job as stored', async () => {
    const job = await owner.post(`/api/${subdomain}/pipeline`, { name: 'Write Trip Wanda', customerId, part: 'Hoses', mileageIn: 100 });
    expect(job.status).toBe(201);
    const { deps } = server.runtime;
    const streamId = `job-${job.body.id}`;
    const row = (await deps.knex('rm.jobs').where({ id: job.body.id }).first()) as { instance_id: string; job_number: string };
    // Another process's save: appended past this process's commands (their known row stays at revision 0).
    const otherWriter = async (
      change: { field: 'mileageIn' | 'notes'; oldValue: string | number | null; newValue: string | number | null },
      expectedRevision: number,
    ) =>
      await deps.store.append(
        streamId,
        toNewEvents(
          [{ type: 'JobUpdated', data: { jobId: job.body.id, jobNumber: row.job_number, name: 'Write Trip Wanda', changes: [change] } }],
          { ...systemContext(new Date(), 'other-process'), instanceId: row.instance_id },
        ),
        { expectedRevision },
      );
    await otherWriter({ field: 'mileageIn', oldValue: 100, newValue: 50 }, 0);
    // Refused on the row known here (out 80 below in 100), accepted on the job as stored (in 50).
    const first = await owner.put(`/api/${subdomain}/pipeline/${job.body.id}`, { mileageOut: 80 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ mileageIn: 50, mileageOut: 80, revision: 2 });
    await otherWriter({ field: 'notes', oldValue: '', newValue: 'Squeaks' }, 2);
    // Decided on the row known here (revision 2): the append expecting it is refused, and the
    // save is decided again on the stream.
    const second = await owner.put(`/api/${subdomain}/pipeline/${job.body.id}`, { part: 'Belts' });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ part: 'Belts', notes: 'Squeaks', mileageIn: 50, mileageOut: 80, revision: 4 });
    // With If-Match at the revision known here, once the job has moved on: a 409 with the job as it is.
    await otherWriter({ field: 'notes', oldValue: 'Squeaks', newValue: 'Rattles' }, 4);
    const stale = await owner.put(`/api/${subdomain}/pipeline/${job.body.id}`, { part: 'Chains' }, { 'If-Match': '"4"' });
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    // Each change recorded once, none lost.
    const events = await deps.store.readStream(streamId);
    expect(
      events.map((event) => [event.type, (event.data as { changes?: Array<{ field: string }> }).changes?.map((c) => c.field)]),
    ).toEqual([
      ['JobCreated', undefined],
      ['JobUpdated', ['mileageIn']],
      ['JobUpdated', ['mileageOut']],
      ['JobUpdated', ['notes']],
      ['JobUpdated', ['part']],
      ['JobUpdated', ['notes']],
    ]);
    const read = await owner.get(`/api/${subdomain}/pipeline/${job.body.id}`);
    expect(read.body).toMatchObject({ part: 'Belts', notes: 'Rattles', mileageIn: 50, mileageOut: 80, revision: 5 });
  }, 60_000);

  test('a job stage change, cancel, reopen and delete: decided on the row this process wrote, without reading it first', async () => {
    const job = await owner.post(`/api/${subdomain}/pipeline`, { name: 'Write Trip Wanda', customerId, part: 'Wipers' });
    expect(job.status).toBe(201);
    const path = `/api/${subdomain}/pipeline/${job.body.id}`;
    // Neither the job's stream nor its row is read: the append expects the revision of the row this process wrote.
    const readsTheJob = (statements: string[]) =>
      statements.filter((s) => /from "rm"\."jobs"/.test(s) || /read_stream|from events/i.test(s));
    const steps: Array<[string, () => Promise<{ status: number; body: { id?: string } }>, number, Record<string, unknown>]> = [
      ['stage change', () => owner.patch(`${path}/stage`, { stage: 'Parts Ordered' }), 200, { stage: 'Parts Ordered', revision: 1 }],
      ['cancel', () => owner.post(`${path}/cancel`, {}), 200, { stage: 'Canceled', revision: 2 }],
      ['reopen', () => owner.post(`${path}/reopen`, {}, { 'If-Match': '"2"' }), 200, { stage: 'Quote', revision: 3 }],
    ];
    for (const [name, request, status, expected] of steps) {
      const { statements, body } = await statementsOf(request, status);
      console.log(`job ${name}: ${statements.length} round trips\n${show(statements)}`);
      expect(body).toMatchObject(expected);
      expect(readsTheJob(statements), show(statements)).toHaveLength(0);
      expect(statements.at(-1), show(statements)).toMatch(
        /^(?:DO \$crm_prepare\$[\s\S]*?\$crm_prepare\$;\n)*BEGIN;[\s\S]*append_events[\s\S]*COMMIT$/,
      );
      expect(statements.length, show(statements)).toBeLessThanOrEqual(STATE_CHANGE_ROUND_TRIPS);
    }
    // A deletion also reads its number's stream (to free the number in the same append).
    const { statements } = await statementsOf(() => owner.delete(path), 204);
    console.log(`job delete: ${statements.length} round trips\n${show(statements)}`);
    expect(
      statements.filter((s) => /(?<!delete )from "rm"\."jobs"/i.test(s)),
      show(statements),
    ).toHaveLength(0);
    expect(statements.length, show(statements)).toBeLessThanOrEqual(DELETE_ROUND_TRIPS);
    expect((await owner.get(path)).status).toBe(404);
  }, 60_000);

  test('a stage change, cancel and reopen on a job another writer moved on since this process wrote its row: decided again on the job as stored', async () => {
    const job = await owner.post(`/api/${subdomain}/pipeline`, { name: 'Write Trip Wanda', customerId, part: 'Mirrors' });
    expect(job.status).toBe(201);
    const path = `/api/${subdomain}/pipeline/${job.body.id}`;
    const { deps } = server.runtime;
    const streamId = `job-${job.body.id}`;
    const row = (await deps.knex('rm.jobs').where({ id: job.body.id }).first()) as { instance_id: string; job_number: string };
    const label = { jobId: job.body.id, jobNumber: row.job_number, name: 'Write Trip Wanda' };
    // Another process's changes, appended past this process's commands (its known row stays where it wrote it).
    const otherWriter = async (event: JobEvent, expectedRevision: number) =>
      await deps.store.append(
        streamId,
        toNewEvents([event], { ...systemContext(new Date(), 'other-process'), instanceId: row.instance_id }),
        { expectedRevision },
      );
    await otherWriter({ type: 'JobStageChanged', data: { ...label, from: 'Quote', to: 'Parts In' } }, 0);
    // Decided on the row known here (Quote): the append expecting revision 0 is refused and
    // the change is decided again on the stream (Parts In → Scheduled).
    const moved = await owner.patch(`${path}/stage`, { stage: 'Scheduled' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ stage: 'Scheduled', revision: 2 });
    // The other writer cancels: a cancel decided on the row known here (Scheduled) would be
    // appended, but the job is already canceled; a reopen decided on it would be refused (not
    // canceled) and is decided again on the job as stored.
    await otherWriter({ type: 'JobCanceled', data: { ...label, previousStage: 'Scheduled' } }, 2);
    const reopened = await owner.post(`${path}/reopen`, {});
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body).toMatchObject({ stage: 'Quote', revision: 4 });
    // The other writer moves it to In Progress; a move to Quote decided on the row known here
    // (Quote) records nothing, so it is decided again on the job as stored and is recorded.
    await otherWriter({ type: 'JobStageChanged', data: { ...label, from: 'Quote', to: 'In Progress' } }, 4);
    const back = await owner.patch(`${path}/stage`, { stage: 'Quote' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ stage: 'Quote', revision: 6 });
    // With If-Match at the revision known here, once the job has moved on: a 409 with the job as it is.
    await otherWriter({ type: 'JobCanceled', data: { ...label, previousStage: 'Quote' } }, 6);
    const stale = await owner.post(`${path}/cancel`, {}, { 'If-Match': '"6"' });
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    expect(stale.body).toMatchObject({ current: { stage: 'Canceled', revision: 7 } });
    // Each change recorded once, none lost.
    const events = await deps.store.readStream(streamId);
    expect(events.map((event) => [event.type, event.metadata.actor.id === 'other-process'])).toEqual([
      ['JobCreated', false],
      ['JobStageChanged', true],
      ['JobStageChanged', false],
      ['JobCanceled', true],
      ['JobReopened', false],
      ['JobStageChanged', true],
      ['JobStageChanged', false],
      ['JobCanceled', true],
    ]);
    const read = await owner.get(path);
    expect(read.body).toMatchObject({ stage: 'Canceled', revision: 7 });
  }, 60_000);

  test('a job create for a chosen customer', async () => {
    await statementsOf(() => owner.post(`/api/${subdomain}/pipeline`, { name: 'Write Trip Wanda', customerId, part: 'Warm-up' }), 201);
    const { statements } = await statementsOf(
      () => owner.post(`/api/${subdomain}/pipeline`, { name: 'Write Trip Wanda', customerId, part: 'Oil filter' }),
      201,
    );
    console.log(`job create: ${statements.length} round trips\n${show(statements)}`);
    // The customer's row is required in the append's message: its stream is not read first.
    expect(statements.at(-1), show(statements)).toMatch(
      /^(?:DO \$crm_prepare\$[\s\S]*?\$crm_prepare\$;\n)*BEGIN;[\s\S]*require_row[\s\S]*append_events[\s\S]*EXECUTE crm_\w+\('[\s\S]*COMMIT$/,
    );
    expect(statements.length, show(statements)).toBeLessThanOrEqual(CREATE_ROUND_TRIPS);
  }, 60_000);

  test('a customer update takes the same path: its row update goes with the COMMIT and its RETURNING is the answer', async () => {
    await statementsOf(() => owner.put(`/api/customers/${customerId}`, { notes: 'Warm-up' }), 200);
    const { statements, body } = await statementsOf(() => owner.put(`/api/customers/${customerId}`, { notes: 'Prefers mornings' }), 200);
    console.log(`customer update: ${statements.length} round trips\n${show(statements)}`);
    expect(
      statements.filter((s) => /append_events/.test(s)),
      show(statements),
    ).toHaveLength(1);
    // The answer is the customer as a GET reads it (the GET adds the record's other parts).
    const read = await owner.get(`/api/customers/${customerId}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(body);
    expect(body).toMatchObject({ notes: 'Prefers mornings' });
    expect(statements.at(-1), show(statements)).toMatch(/^BEGIN;[\s\S]*append_events[\s\S]*returning \*[\s\S]*COMMIT$/i);
    expect(statements.length, show(statements)).toBeLessThanOrEqual(CUSTOMER_UPDATE_ROUND_TRIPS);
  }, 60_000);
});

/**
 * The wake-up NOTIFY left out (see the README's Performance section). An update of a job
 * whose row this process wrote or read last: one message of BEGIN, the append, the history
 * and row writes (the row's RETURNING is the answer) and COMMIT, decided on that row (was 2:
 * the row read first, as it still is for a job this process does not know). A create: one message of
 * BEGIN, the customer's row required (require_row), both appends, the history, the row
 * insert and the counts of the rows it made (one statement, its RETURNING the answer) and
 * COMMIT (was 2: the customer's stream was read first).
 */
const UPDATE_ROUND_TRIPS = 1;
const CREATE_ROUND_TRIPS = 1;
/**
 * A stage change, cancel or reopen of a job whose row this process wrote or read last: the
 * same one message as an update (was 2: the row read first).
 */
const STATE_CHANGE_ROUND_TRIPS = 1;
/**
 * A deletion of such a job: its number's stream read, the append with the number's release
 * and the row's removal, its COMMIT, and the check that the number is free (was 5: the row
 * read first).
 */
const DELETE_ROUND_TRIPS = 4;
/** The stream read, then the write in one message, its row's RETURNING the answer (was 3). */
const CUSTOMER_UPDATE_ROUND_TRIPS = 2;
