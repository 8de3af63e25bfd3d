import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EventStore } from '@crm/projections/eventstore/port';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/**
 * A job with repair-order lines takes its quote from their total: the job dialog shows the
 * quote read-only, and the server holds every save to the same (a PUT with another quote was
 * stored, leaving the quote the board sums at $5 for a $108.25 job).
 */

let server: TestServer;
let admin: ApiClient;
const P = '/api/quoteshop/pipeline';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'quoteshop');
  admin = await signInUser(server, 'quoteshop', 'owner', '1234');
  expect((await admin.put('/api/quoteshop/settings', { partsTaxRate: '8.25', laborTaxRate: '0' })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('the quote of a job with lines', () => {
  test('a save may not set another quote; the same quote, other fields and a job without lines are saved as before', async () => {
    const created = await admin.post(P, { name: 'Quincy Quote', quote: '40' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    // Without lines the quote is the job's own.
    const typed = await admin.put(`${P}/${id}`, { quote: '50.00' });
    expect(typed.status, typed.text).toBe(200);
    expect(typed.body.quote).toBe('50');

    const line = await admin.post(`${P}/${id}/lines`, { kind: 'part', description: 'Battery', unitPrice: '100' });
    expect(line.status, line.text).toBe(201);
    expect(line.body.quote).toBe('108.25');
    const revision = line.body.revision as number;

    for (const quote of ['5.00', '', null]) {
      const refused = await admin.put(`${P}/${id}`, { quote });
      expect(refused.status, `${quote}: ${refused.text}`).toBe(409);
      expect(refused.body.message).toBe("This job's quote is its lines' total: change its lines instead");
    }
    const job = await admin.get(`${P}/${id}`);
    expect(job.body.quote).toBe('108.25');
    expect(job.body.revision).toBe(revision);
    expect((await admin.get(`/api/quoteshop/pipeline/board/summary`)).body).toEqual(
      expect.objectContaining({ stages: expect.arrayContaining([expect.objectContaining({ stage: 'Quote', quoteTotal: 108.25 })]) }),
    );

    // The dialog sends the quote it shows (the lines' total) with its other fields: saved.
    const saved = await admin.put(`${P}/${id}`, { quote: '108.25', notes: 'Check the terminals' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.notes).toBe('Check the terminals');
    expect(saved.body.quote).toBe('108.25');

    // Once the last line is gone the quote is the job's own again.
    const removed = await admin.delete(`${P}/${id}/lines/${line.body.lines[0].id}`);
    expect(removed.status, removed.text).toBe(200);
    const retyped = await admin.put(`${P}/${id}`, { quote: '75' });
    expect(retyped.status, retyped.text).toBe(200);
    expect(retyped.body.quote).toBe('75');
  }, 60_000);

  test('a line added while a save is on its way is seen: the save is refused, not stored over the lines', async () => {
    const created = await admin.post(P, { name: 'Rita Race', quote: '40' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const { deps } = server.runtime;
    const store = deps.store;
    let raced = false;
    // The save has read the job (no lines yet) and decided; just before its append, a line
    // comes in (pinned with If-Match, so it does not wait for the save's turn on the stream).
    const raceBeforeSave: EventStore['append'] = async (streamId, events, options) => {
      if (!raced && streamId === `job-${id}` && events.some((event) => event.type === 'JobUpdated')) {
        raced = true;
        const line = await admin.post(
          `${P}/${id}/lines`,
          { kind: 'part', description: 'Alternator', unitPrice: '100' },
          { 'If-Match': `"${options?.expectedRevision as number}"` },
        );
        expect(line.status, line.text).toBe(201);
      }
      return await store.append(streamId, events, options);
    };
    deps.store = new Proxy(store, { get: (target, property) => (property === 'append' ? raceBeforeSave : Reflect.get(target, property)) });
    try {
      const saved = await admin.put(`${P}/${id}`, { quote: '5' });
      expect(raced).toBe(true);
      expect(saved.status, saved.text).toBe(409);
      expect(saved.body.message).toBe("This job's quote is its lines' total: change its lines instead");
    } finally {
      deps.store = store;
    }
    const job = await admin.get(`${P}/${id}`);
    expect(job.body.quote).toBe('108.25');
    expect(job.body.lines).toHaveLength(1);
  }, 60_000);
});
