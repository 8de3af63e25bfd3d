import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/** The stage board's column heads: counts and quote totals per stage, searched like the list, per instance. */

let server: TestServer;
let owner: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'boardshop');
  await createTestInstance(server, 'boardother');
  owner = await signInUser(server, 'boardshop', 'owner', '1234');
  other = await signInUser(server, 'boardother', 'owner', '1234');
  const jobs = [
    { name: 'Ann Alder', quote: '100', stage: 'Quote' },
    { name: 'Ben Birch', quote: '250.50', stage: 'Quote' },
    { name: 'Cal Cedar', quote: '', stage: 'Quote' },
    { name: 'Dee Alder', quote: '1000', stage: 'Paid' },
    { name: 'Eve Elm', quote: '75', stage: 'Canceled' },
  ];
  for (const job of jobs) expect((await owner.post('/api/boardshop/pipeline', { part: 'Tires', ...job })).status).toBe(201);
  expect((await other.post('/api/boardother/pipeline', { name: 'Olga Other', quote: '999', stage: 'Quote' })).status).toBe(201);
});
afterAll(async () => {
  await server?.stop();
});

test('every stage in board order, with its jobs counted and its quotes added up', async () => {
  const res = await owner.get('/api/boardshop/pipeline/board/summary');
  expect(res.status).toBe(200);
  expect(res.body.stages.map((s: { stage: string }) => s.stage)).toEqual([
    'Quote',
    'Parts Ordered',
    'Parts In',
    'Scheduled',
    'In Progress',
    'Completed',
    'Invoiced',
    'Paid',
    'Canceled',
  ]);
  const of = (stage: string) => res.body.stages.find((s: { stage: string }) => s.stage === stage);
  expect(of('Quote')).toEqual({ stage: 'Quote', count: 3, quoteTotal: 350.5 });
  expect(of('Paid')).toEqual({ stage: 'Paid', count: 1, quoteTotal: 1000 });
  expect(of('Canceled')).toEqual({ stage: 'Canceled', count: 1, quoteTotal: 75 });
  expect(of('Scheduled')).toEqual({ stage: 'Scheduled', count: 0, quoteTotal: 0 });
  // The instance-less family answers the same.
  expect((await owner.get('/api/pipeline/board/summary')).body).toEqual(res.body);
});

test("the list's search narrows it", async () => {
  const res = await owner.get('/api/boardshop/pipeline/board/summary?q=alder');
  expect(res.status).toBe(200);
  const counts = Object.fromEntries(res.body.stages.map((s: { stage: string; count: number }) => [s.stage, s.count]));
  expect(counts).toMatchObject({ Quote: 1, Paid: 1, Canceled: 0 });
  expect((await owner.get(`/api/boardshop/pipeline/board/summary?q=${'x'.repeat(201)}`)).status).toBe(400);
});

test("another instance's jobs are never counted, and its path is not found", async () => {
  const res = await other.get('/api/boardother/pipeline/board/summary');
  expect(res.body.stages[0]).toEqual({ stage: 'Quote', count: 1, quoteTotal: 999 });
  expect((await other.get('/api/boardshop/pipeline/board/summary')).status).toBe(404);
});

test('reading it takes canRead', async () => {
  const created = await owner.post('/api/admin/users', { username: 'noread', pin: '5555' });
  expect((await owner.patch(`/api/admin/users/${created.body.id}/permissions`, { canRead: false })).status).toBe(200);
  const noRead = await signInUser(server, 'boardshop', 'noread', '5555');
  expect((await noRead.get('/api/boardshop/pipeline/board/summary')).status).toBe(403);
});
