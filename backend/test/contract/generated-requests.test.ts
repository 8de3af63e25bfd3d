import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { satisfies, SchemaArbitraries, type JsonSchema } from '../support/openapi-arbitraries.ts';
import {
  ApiClient,
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from '../support/server.ts';

/**
 * Requests generated from the API document itself (GET /api/openapi.json), as an instance
 * admin and as the super admin: path parameters from real records (or unknown ids), query
 * parameters, headers and bodies from their published schemas. What the document says is
 * valid, the server must take: for every answer,
 * - its status is one the operation lists (no undocumented status),
 * - it is no 400 (the request fitted the schema, so a refusal means the document allows what
 *   the server refuses),
 * - it is no 5xx.
 *
 * CONTRACT_RUNS sets the cases per operation (default 3; each picks one of the two sessions).
 */

const RUNS = Number(process.env.CONTRACT_RUNS ?? 3);
const SEED = process.env.CONTRACT_SEED ? Number(process.env.CONTRACT_SEED) : undefined;

const SHOP = 'genshop';
const PIN = '1234';

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
  tags?: string[];
}

let server: TestServer;
let document: JsonSchema;
let sessions: { admin: ApiClient; superAdmin: ApiClient };
let pools: Record<string, string[]>;
const findings: string[] = [];
const statusCounts = new Map<number, number>();

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, SHOP, { username: 'owner', pin: PIN });
  const victim = await createTestInstance(server, 'genvictim', { username: 'owner', pin: PIN });
  const superAdmin = await signInSuperAdmin(server);
  const admin = await signInUser(server, SHOP, 'owner', PIN);
  const staff = await admin.post('/api/admin/users', { username: 'staffer', pin: '5555', displayName: 'Staffer' });
  const customer = await admin.post('/api/customers', { name: 'Generated Customer', phone: '5551234567' });
  const edited = await admin.put(`/api/customers/${customer.body.id}`, { notes: 'changed once' });
  const job = await admin.post(`/api/${SHOP}/pipeline`, { name: 'Generated Job', customerId: customer.body.id });
  const deleted = await admin.post('/api/customers', { name: 'Deleted Customer' });
  const request = await admin.post('/api/service-requests', { customerName: 'Generated Request', contactEmail: 'a@b.co' });
  for (const res of [staff, customer, job, deleted, request]) expect(res.status, res.text).toBe(201);
  expect(edited.status, edited.text).toBe(200);
  expect((await admin.delete(`/api/customers/${deleted.body.id}`)).status).toBe(200);
  const history = await admin.get(`/api/customers/${customer.body.id}/history`);
  const eventIds =
    JSON.stringify(history.body)
      .match(/"eventId":"([^"]+)"/g)
      ?.map((m) => m.slice(11, -1)) ?? [];
  const victimUsers = (await superAdmin.get(`/api/crm-instances/${victim.id}/users`)).body as Array<{ id: string }>;
  sessions = { admin, superAdmin };
  const unknownId = '3f0d5a4e-8c1b-4b7e-9a62-0c5e2d7f1a90';
  // Never the shop's own instance id nor its admin: a generated request must not close the
  // shop or demote the admin the other cases run as.
  pools = {
    instance: [SHOP],
    instanceId: [victim.id, unknownId],
    subdomain: [SHOP, 'genvictim', 'nosuchshop'],
    id: [customer.body.id, job.body.id, request.body.id, staff.body.id, deleted.body.id, unknownId],
    userId: [victimUsers[0]!.id, unknownId],
    eventId: [...eventIds.slice(0, 2), unknownId],
  };
  document = (await new ApiClient(server.url).get('/api/openapi.json')).body;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

function operations(): Operation[] {
  const all: Operation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(byMethod)) all.push({ ...operation, method: method.toUpperCase(), path });
  }
  return all;
}

/** A live stream never ends: its answer is checked by the live tests, not here. */
const streams = (operation: Operation) => Object.keys(operation.responses['200']?.content ?? {}).includes('text/event-stream');

interface Generated {
  who: 'admin' | 'superAdmin';
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

function requestArbitrary(operation: Operation, schemas: SchemaArbitraries): fc.Arbitrary<Generated> {
  const path: Record<string, fc.Arbitrary<string>> = {};
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  const headers: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredQuery: string[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') {
      const pool = pools[parameter.name];
      path[parameter.name] =
        pool && !parameter.schema.enum ? fc.constantFrom(...pool) : (schemas.of(parameter.schema) as fc.Arbitrary<string>);
    } else if (parameter.in === 'query') {
      // A cursor is an opaque token only the server makes (the nextCursor of a page before).
      if (parameter.name === 'cursor' && !parameter.required) continue;
      query[parameter.name] = schemas.of(parameter.schema);
      if (parameter.required) requiredQuery.push(parameter.name);
    } else if (parameter.in === 'header') {
      headers[parameter.name] = schemas.of(parameter.schema);
    }
  }
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  return fc.record({
    who: fc.constantFrom('admin' as const, 'superAdmin' as const),
    path: fc.record(path),
    query: fc.record(query, { requiredKeys: requiredQuery }),
    headers: fc.record(headers, { requiredKeys: [] }),
    body: bodySchema ? schemas.of(bodySchema) : fc.constant(undefined),
  });
}

function urlOf(operation: Operation, generated: Generated): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(generated.path[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(generated.query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

async function send(operation: Operation, generated: Generated): Promise<ApiResponse> {
  // Signing out ends the session it is sent with: those get a session of their own.
  const client = /\/logout$/.test(operation.path)
    ? generated.who === 'admin'
      ? await signInUser(server, SHOP, 'owner', PIN)
      : await signInSuperAdmin(server)
    : sessions[generated.who];
  const headers = Object.fromEntries(Object.entries(generated.headers).map(([name, value]) => [name, String(value)]));
  const withBody = operation.method !== 'GET' && operation.method !== 'DELETE';
  return client.request(operation.method, urlOf(operation, generated), withBody ? (generated.body ?? {}) : undefined, headers);
}

/**
 * Refusals of input that fits the schema but breaks a rule between fields or against stored
 * state, which JSON Schema cannot state (each is in the operation's words or its 400's detail).
 */
const NOT_A_SCHEMA_RULE = [
  /^to must be after from/, // a range's two ends
  /^The period /, // insights: a range's length
  /^Current PIN is incorrect/, // the PIN stored, not the request's shape
  /^from must be on or before to/, // a range's two ends
  /^from must not be after to/, // a range's two ends
  /is reserved; choose another$/, // the app's own top-level paths, after the subdomain's normalization
  /VIN check digit is wrong/, // a checksum over the VIN's characters
  /Vehicle not found$/, // a reference to a record that is not stored
  /^Mileage out cannot be lower than mileage in/, // a job's two readings
  /^Give a name, a phone or an email to match/, // one of several query parameters
  /^when must not be in the future$/, // a payment's time against the server's clock
  /^A refund needs a reason$/, // a payment's sign and its reason
  /^Only a refund takes a reason$/, // a payment's sign and its reason
  /does not apply to a (part|labor|fee|discount) line$/, // a change to a stored line: the fields its stored kind takes
  /^A line is named twice$/, // the two lists of a decision between them
  /^lineIds must name every line of the job once$/, // a new order against the job's stored lines
  /^position must be from 0 to the job's number of lines/, // a new line's place against the job's stored lines
  /^appliesTo must be the id of a part, labor or fee line of this job$/, // a discount's target among the job's stored lines
  /^A job's total must be at most /, // the new line's total added to the stored lines'
  /^Approve or decline every line of the estimate$/, // a decision against the estimate's stored lines
  /^(Amount is more than the balance due|Nothing is due on this job|A refund cannot be more than what was paid)/, // a payment against the stored balance
  /^A (part|labor|fee|discount) line needs /, // a change clearing what the stored line's kind needs
  /cannot be assigned: only active users who may change jobs/, // a technician against the stored users
];

/** The refusal of a record left with every field blank (customers, requests and jobs say it one way, vehicles another). */
const ALL_BLANK = /^(At least one field must be filled out|A vehicle needs at least one of)/;

/**
 * An update (or a request's conversion) is checked on the record after the change: a body
 * that blanks only the fields the stored record has filled is refused, which the document
 * can state only in words (the operation's summary). Its schema states the rest: one field
 * left out or sent filled (each alternative of its anyOf names one field). So such a refusal
 * is a finding when the schema says nothing of it or the body itself fills one of those fields.
 */
function storedStateBlank(operation: Operation, body: unknown): boolean {
  const alternatives = operation.requestBody?.content['application/json']?.schema?.anyOf as JsonSchema[] | undefined;
  if (!alternatives) return false;
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return !alternatives.some((alternative) =>
    Object.entries((alternative.properties ?? {}) as Record<string, JsonSchema>).some(
      ([field, filled]) => field in record && satisfies(record[field], filled),
    ),
  );
}

function check(operation: Operation, generated: Generated, res: ApiResponse): string | null {
  statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
  const listed = Object.keys(operation.responses).map(Number);
  const what = `${operation.method} ${urlOf(operation, generated)} as ${generated.who}${generated.body === undefined ? '' : ` body ${JSON.stringify(generated.body)}`}`;
  if (res.status >= 500) return `${what} → ${res.status} ${res.text.slice(0, 300)}`;
  if (!listed.includes(res.status)) return `${what} → ${res.status}, which the document does not list (${listed.join(', ')})`;
  const detail = String(res.body?.detail);
  const storedStateRule = ALL_BLANK.test(detail) && storedStateBlank(operation, generated.body);
  if (res.status === 400 && !storedStateRule && !NOT_A_SCHEMA_RULE.some((rule) => rule.test(detail))) {
    return `${what} → 400 though the document allows it: ${res.body?.detail ?? res.text.slice(0, 300)}`;
  }
  return null;
}

test(
  'requests generated from the API document: only documented statuses, nothing the schema allows is refused, no 5xx',
  async () => {
    const schemas = new SchemaArbitraries(document);
    const all = operations().filter((operation) => !streams(operation));
    expect(all.length).toBeGreaterThan(100);
    for (const operation of all) {
      const property = fc.asyncProperty(requestArbitrary(operation, schemas), async (generated) => {
        if (operation.path === '/api/user/pin' && (generated.body as { currentPin?: string } | undefined)?.currentPin === PIN) return;
        const problem = check(operation, generated, await send(operation, generated));
        if (problem) findings.push(problem);
      });
      await fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
    }
    // Every kind of answer was seen: the requests got past the guards into the handlers.
    expect(statusCounts.get(200) ?? 0).toBeGreaterThan(20);
    expect([...new Set(findings)]).toEqual([]);
    // Ten minutes for the default runs; more runs (CONTRACT_RUNS=50 on a busy machine) take longer.
  },
  Math.max(600_000, RUNS * 30_000),
);
