import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JobDetail } from '@crm/projections/repair-orders';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/** Undo from a job's history of its lines and payments, over the API. */

let server: TestServer;
let admin: ApiClient;
let reader: ApiClient;
let outsider: ApiClient;
const P = '/api/undoshop/pipeline';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'undoshop');
  await createTestInstance(server, 'undoother');
  admin = await signInUser(server, 'undoshop', 'owner', '1234');
  const readerUser = await admin.post('/api/admin/users', { username: 'reader', displayName: 'Rita Reader', pin: '3333' });
  expect((await admin.patch(`/api/admin/users/${readerUser.body.id}/permissions`, { canWrite: false })).status).toBe(200);
  reader = await signInUser(server, 'undoshop', 'reader', '3333');
  outsider = await signInUser(server, 'undoother', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

interface Row {
  id: string;
  action: string;
  canRevert: boolean;
  revertOf: string | null;
  changes: Array<{ field: string; oldValue: unknown; newValue: unknown }>;
}
const history = async (jobId: string) => (await admin.get(`${P}/${jobId}/history`)).body as Row[];
/** The newest history row of this action (history is newest first). */
const newest = async (jobId: string, action: string) => (await history(jobId)).find((row) => row.action === action)!;
const revert = (jobId: string, row: Row, client = admin) => client.post(`${P}/${jobId}/history/${row.id}/revert`, {});

describe('undo of lines and payments from the history', () => {
  test('a line change, an addition and a removal come back; a later change or an invoice refuses', async () => {
    const created = await admin.post(P, { name: 'Una Undo', makeModel: '2012 Ford Focus' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    let job = (await admin.post(`${P}/${id}/lines`, { kind: 'part', description: 'Filter', unitPrice: '50' })).body as JobDetail;
    const filter = job.lines[0]!;
    job = (await admin.post(`${P}/${id}/lines`, { kind: 'fee', description: 'Disposal', amount: '5' })).body;
    expect(job.quote).toBe('55');

    // A change, undone: the price back, the quote follows, the undo names the change.
    expect((await admin.put(`${P}/${id}/lines/${filter.id}`, { unitPrice: '70' })).status).toBe(200);
    const changed = await newest(id, 'line-changed');
    expect(changed.canRevert).toBe(true);
    let res = await revert(id, changed);
    expect(res.status).toBe(200);
    job = res.body;
    expect(job.lines[0]).toMatchObject({ id: filter.id, unitPrice: '50.00' });
    expect(job.quote).toBe('55');
    expect((await newest(id, 'line-changed')).revertOf).toBe(changed.id);

    // The fee's addition undone removes it; undoing that undo brings it back.
    const feeAdded = await newest(id, 'line-added');
    res = await revert(id, feeAdded);
    expect(res.status).toBe(200);
    expect((res.body as JobDetail).lines.map((line) => line.description)).toEqual(['Filter']);
    const removal = await newest(id, 'line-removed');
    expect(removal.revertOf).toBe(feeAdded.id);
    res = await revert(id, removal);
    expect(res.status).toBe(200);
    expect((res.body as JobDetail).lines.map((line) => line.description)).toEqual(['Filter', 'Disposal']);

    // The quote follows the lines: its own history rows are not undone while the job has lines,
    // and the history offers no undo of them (a button that could only fail).
    const quoteRow = (await history(id)).find((row) => row.action === 'updated' && row.changes.some((c) => c.field === 'quote'))!;
    expect(quoteRow.canRevert).toBe(false);
    res = await revert(id, quoteRow);
    expect(res.status).toBe(409);
    expect(res.text).toContain("lines' total");

    // A later change of the line refuses the undo of its addition, naming it.
    expect((await admin.put(`${P}/${id}/lines/${filter.id}`, { unitPrice: '80' })).status).toBe(200);
    const filterAdded = (await history(id)).filter((row) => row.action === 'line-added' && row.revertOf === null).at(-1)!;
    res = await revert(id, filterAdded);
    expect(res.status).toBe(409);
    expect(res.text).toContain('changed again later');

    // An invoice froze the lines: the change before it cannot be undone.
    const lastChange = await newest(id, 'line-changed');
    expect((await admin.post(`${P}/${id}/invoice`, {})).status).toBe(201);
    res = await revert(id, lastChange);
    expect(res.status).toBe(409);
    expect(res.text).toContain('froze its lines');

    // A reader may not undo; another shop does not find the job.
    expect((await revert(id, lastChange, reader)).status).toBe(403);
    expect((await outsider.post(`/api/undoother/pipeline/${id}/history/${lastChange.id}/revert`, {})).status).toBe(404);
  });

  test('a payment undone is refunded: the balance reopens, Paid goes back to Invoiced, and it is undone once', async () => {
    const created = await admin.post(P, { name: 'Pat Payer', makeModel: '2018 Kia Rio' });
    const id = created.body.id as string;
    expect((await admin.post(`${P}/${id}/lines`, { kind: 'part', description: 'Battery', unitPrice: '120' })).status).toBe(201);
    expect((await admin.post(`${P}/${id}/invoice`, {})).status).toBe(201);
    let res = await admin.post(`${P}/${id}/payments`, { amount: '120', method: 'card', reference: 'VISA 1111' });
    expect(res.status).toBe(201);
    expect(res.body.stage).toBe('Paid');

    const payment = await newest(id, 'payment-recorded');
    expect(payment.canRevert).toBe(true);
    res = await revert(id, payment);
    expect(res.status).toBe(200);
    const job = res.body as JobDetail;
    expect(job.stage).toBe('Invoiced');
    expect(job.totals).toMatchObject({ paid: '0.00', balance: '120.00' });
    expect(job.payments.map((p) => p.amount)).toEqual(['120.00', '-120.00']);
    expect(job.payments[1]).toMatchObject({ kind: 'refund', method: 'card', reason: 'Undo of a payment recorded by mistake' });
    const refund = await newest(id, 'refund-recorded');
    expect(refund).toMatchObject({ revertOf: payment.id, canRevert: false });

    res = await revert(id, payment);
    expect(res.status).toBe(409);
    // The refund is not undone from history (a new payment is how money comes back).
    expect((await revert(id, refund)).status).toBe(409);
    // The pipeline's list rows carry an itemized job's totals and balance; a job without a repair order has none.
    const listed = (await admin.get(`${P}?q=Pat Payer`)).body.items;
    expect(listed).toHaveLength(1);
    expect(listed[0].totals).toMatchObject({ total: '120.00', paid: '0.00', balance: '120.00' });
    const plain = await admin.post(P, { name: 'Quinn Quote', quote: '75' });
    expect((await admin.get(`${P}?q=Quinn Quote`)).body.items[0]).not.toHaveProperty('totals');
    expect(plain.status).toBe(201);
    // The job's history reads the same after the projection caught up: the read model matches the answer.
    expect((await admin.get(`${P}/${id}`)).body).toMatchObject({ stage: 'Invoiced', totals: { balance: '120.00' } });
  });
});
