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
  test('a job update: its row read, then its append and its rows in one transaction of two round trips, answered from the row written', async () => {
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
    // The decider's state is the job's row: the stream is not read (nor folded), and the
    // row's own read in the append (the projection's prefetch) is not sent again.
    expect(statements[0], show(statements)).toMatch(/from "rm"\."jobs"/);
    expect(
      statements.filter((s) => /from events/i.test(s)),
      show(statements),
    ).toHaveLength(0);
    expect(
      statements.filter((s) => /from "rm"\."jobs"/.test(s)),
      show(statements),
    ).toHaveLength(1);
    // The answer is the row the append's transaction wrote (RETURNING), not read back afterwards;
    // the append, the history and the row go in one message with BEGIN and COMMIT, the row
    // statement as a statement prepared on the connection (planned once per connection; on a
    // connection that has not prepared it yet, the DO that prepares it opens the message).
    expect(statements.at(-1), show(statements)).toMatch(
      /^(?:DO \$crm_prepare\$[\s\S]*?\$crm_prepare\$;\n)*BEGIN;[\s\S]*append_events[\s\S]*EXECUTE crm_\w+\('[\s\S]*COMMIT$/,
    );
    expect(statements.length, show(statements)).toBeLessThanOrEqual(UPDATE_ROUND_TRIPS);
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
 * The wake-up NOTIFY left out (see the README's Performance section). An update: the job's
 * row read (the decider's state), then one message: BEGIN, the append, the history and row
 * writes (the row's RETURNING is the answer) and COMMIT (was 3). A create: one message of
 * BEGIN, the customer's row required (require_row), both appends, the history, the row
 * insert and the counts of the rows it made (one statement, its RETURNING the answer) and
 * COMMIT (was 2: the customer's stream was read first).
 */
const UPDATE_ROUND_TRIPS = 2;
const CREATE_ROUND_TRIPS = 1;
/** The stream read, then the write in one message, its row's RETURNING the answer (was 3). */
const CUSTOMER_UPDATE_ROUND_TRIPS = 2;
