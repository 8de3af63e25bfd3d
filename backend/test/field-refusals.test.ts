import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient, createTestInstance, signInUser, startTestServer, type ApiResponse, type TestServer } from './support/server.ts';

/**
 * A 400 about a field lists it in `errors: [{ field, message }]`, whichever check refused it
 * (the request's schema or a rule against the stored record): one shape for clients.
 */

let server: TestServer;
let admin: ApiClient;
const P = '/api/refshop/pipeline';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'refshop');
  admin = await signInUser(server, 'refshop', 'owner', '1234');
});

afterAll(async () => {
  await server?.stop();
});

function expectFieldRefusal(res: ApiResponse, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.errors, res.text).toContainEqual({ field, message: expect.any(String) });
  expect(res.body.field, 'a bare field beside the message is not the shape').toBeUndefined();
}

test("a line's position past the job's lines is refused with the rule and the field; at the end it is stored there", async () => {
  const job = await admin.post(P, { name: 'Position Test' });
  expect(job.status).toBe(201);
  const lines = `${P}/${job.body.id}/lines`;
  expect((await admin.post(lines, { kind: 'part', description: 'First', unitPrice: '10' })).status).toBe(201);

  const past = await admin.post(lines, { kind: 'part', description: 'Far', unitPrice: '1', position: 5 });
  expectFieldRefusal(past, 'position');
  expect(past.body.detail).toBe("position must be from 0 to the job's number of lines (1 now; 1 puts the line last)");

  const tooBig = await admin.post(lines, { kind: 'part', unitPrice: '1', position: 201 });
  expectFieldRefusal(tooBig, 'position');
  expect(tooBig.body.detail).toMatch(/^position must be a whole number from 0 \(first\) to 200/);

  const last = await admin.post(lines, { kind: 'part', description: 'Second', unitPrice: '2', position: 1 });
  expect(last.status, last.text).toBe(201);
  const front = await admin.post(lines, { kind: 'part', description: 'Zeroth', unitPrice: '3', position: 0 });
  expect(front.status, front.text).toBe(201);
  const read = await admin.get(`${P}/${job.body.id}`);
  expect(read.body.lines.map((line: { description: string }) => line.description)).toEqual(['Zeroth', 'First', 'Second']);
});

test('refusals against the stored job (reorder, a line kind, a payment) list their field', async () => {
  const job = await admin.post(P, { name: 'Refusal Test', quote: '50' });
  const lines = `${P}/${job.body.id}/lines`;
  const part = await admin.post(lines, { kind: 'part', description: 'Pads', unitPrice: '20' });
  expect(part.status, part.text).toBe(201);
  const lineId = part.body.lines[0].id as string;

  expectFieldRefusal(await admin.post(`${lines}/reorder`, { lineIds: [lineId, lineId] }), 'lineIds');
  expectFieldRefusal(await admin.put(`${lines}/${lineId}`, { hours: '1' }), 'hours');
  expectFieldRefusal(await admin.put(`${lines}/${lineId}`, { unitPrice: null }), 'unitPrice');
  expectFieldRefusal(await admin.post(`${P}/${job.body.id}/payments`, { amount: '400', method: 'cash' }), 'amount');
  expectFieldRefusal(await admin.post(`${P}/${job.body.id}/payments`, { amount: '-1', method: 'cash', reason: 'Goodwill' }), 'amount');
});

test('other refusals that concern one field list it: a blank job, a cursor not from the server', async () => {
  expectFieldRefusal(await admin.post(P, { name: '' }), 'name');
  expectFieldRefusal(await admin.get(`${P}?cursor=not-from-the-server`), 'cursor');
  expectFieldRefusal(await admin.get('/api/customers?cursor=not-from-the-server'), 'cursor');
});

test('a missing required query parameter says it is required; a list where one is expected says what it must be', async () => {
  const missing = await new ApiClient(server.url).post('/api/public/messages/unsubscribe', {});
  expectFieldRefusal(missing, 'token');
  expect(missing.body.detail).toBe('token is required');
  const notAList = await admin.put('/api/refshop/message-templates', { templates: {} });
  expectFieldRefusal(notAList, 'templates');
  expect(notAList.body.detail).toBe('templates must be a list of templates, each with its kind');
});

test("a payment's when that is no time at all gets one message, naming the format", async () => {
  const job = await admin.post(P, { name: 'When Test', quote: '50' });
  const res = await admin.post(`${P}/${job.body.id}/payments`, { amount: '1', method: 'cash', when: 'yesterday' });
  expectFieldRefusal(res, 'when');
  expect(res.body.errors).toEqual([{ field: 'when', message: 'when must be an ISO date and time with a time zone' }]);
});
