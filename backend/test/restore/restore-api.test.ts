import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/** Deleted records for admins, and their restore (a customer brings back the jobs its deletion removed). */

let server: TestServer;
let admin: ApiClient;
let writer: ApiClient;
let stranger: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  const shop = await createTestInstance(server, 'restoreshop');
  admin = await signInUser(server, shop.subdomain, 'owner', '1234');
  expect((await admin.post('/api/admin/users', { username: 'writer', displayName: 'Wendy Writer', pin: '2222' })).status).toBe(201);
  writer = await signInUser(server, shop.subdomain, 'writer', '2222');
  const other = await createTestInstance(server, 'restoreother');
  stranger = await signInUser(server, other.subdomain, 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

const deleted = '/api/restoreshop/deleted-records';
const jobs = '/api/restoreshop/pipeline';

interface Deleted {
  kind: string;
  id: string;
  number: string;
  name: string;
  deletedAt: string;
  deletedBy: string;
  withCustomerId: string | null;
}

async function deletedList(kind?: string): Promise<Deleted[]> {
  const res = await admin.get(kind ? `${deleted}?kind=${kind}` : deleted);
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

async function newCustomer(name: string): Promise<string> {
  const res = await admin.post('/api/customers', { name, phone: '5550001111' });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function newJob(fields: Record<string, unknown>): Promise<{ id: string; jobNumber: string }> {
  const res = await admin.post(jobs, { part: 'Bumper', ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('a deleted job', () => {
  test('is listed with who deleted it and when, and comes back with its history and number', async () => {
    const job = await newJob({ name: 'Ann Lee', quote: 420, tech: 'Sam' });
    expect((await admin.put(`${jobs}/${job.id}`, { tech: 'Kim' })).status).toBe(200);
    const before = Date.now();
    expect((await admin.delete(`${jobs}/${job.id}`)).status).toBe(204);

    const row = (await deletedList('job')).find((r) => r.id === job.id);
    expect(row).toMatchObject({ kind: 'job', number: job.jobNumber, name: 'Ann Lee', deletedBy: 'Owner', withCustomerId: null });
    expect(new Date(row!.deletedAt).getTime()).toBeGreaterThanOrEqual(before - 5000);

    const res = await admin.post(`${deleted}/job/${job.id}/restore`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ restored: true, kind: 'job', id: job.id, jobsRestored: 0, vehiclesRestored: 0, vinsNotRestored: [] });
    const back = await admin.get(`${jobs}/${job.id}`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ jobNumber: job.jobNumber, name: 'Ann Lee', quote: '420', tech: 'Kim' });
    const history = (await admin.get(`${jobs}/${job.id}/history`)).body as Array<{ action: string; userDisplayName: string }>;
    expect(history.map((h) => h.action)).toEqual(['restored', 'deleted', 'updated', 'created']);
    expect(history[0]!.userDisplayName).toBe('Owner');
    expect((await deletedList()).some((r) => r.id === job.id)).toBe(false);
    // Restoring again: it is not deleted.
    const again = await admin.post(`${deleted}/job/${job.id}/restore`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('This record is not deleted');
  });

  test('whose number another job took meanwhile comes back under a new number', async () => {
    const job = await newJob({ name: 'Bo Park', jobNumber: 'R-100' });
    expect((await admin.delete(`${jobs}/${job.id}`)).status).toBe(204);
    const taker = await newJob({ name: 'Cy Taker', jobNumber: 'R-100' });
    expect(taker.jobNumber).toBe('R-100');
    const res = await admin.post(`${deleted}/job/${job.id}/restore`);
    expect(res.status, res.text).toBe(200);
    const back = await admin.get(`${jobs}/${job.id}`);
    expect(back.body.jobNumber).not.toBe('R-100');
    expect(back.body.jobNumber).toMatch(/^\d+$/);
    expect((await admin.get(`${jobs}/${taker.id}`)).body.jobNumber).toBe('R-100');
  });
});

describe('a deleted customer', () => {
  test('comes back with the jobs its deletion removed (not a job deleted before on its own)', async () => {
    const customerId = await newCustomer('Dana Cruz');
    const first = await newJob({ name: 'Dana Cruz', customerId, part: 'Door' });
    const second = await newJob({ name: 'Dana Cruz', customerId, part: 'Hood' });
    const earlier = await newJob({ name: 'Dana Cruz', customerId, part: 'Mirror' });
    expect((await admin.delete(`${jobs}/${earlier.id}`)).status).toBe(204);

    const removed = await admin.delete(`/api/customers/${customerId}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.jobsDeleted).toBe(2);

    const list = await deletedList();
    expect(list.find((r) => r.id === customerId)).toMatchObject({ kind: 'customer', name: 'Dana Cruz', withCustomerId: null });
    for (const job of [first, second]) expect(list.find((r) => r.id === job.id)?.withCustomerId).toBe(customerId);
    expect(list.find((r) => r.id === earlier.id)?.withCustomerId).toBeNull();
    expect((await deletedList('customer')).every((r) => r.kind === 'customer')).toBe(true);

    // A job of a deleted customer cannot come back on its own.
    const alone = await admin.post(`${deleted}/job/${first.id}/restore`);
    expect(alone.status).toBe(409);
    expect(alone.body.detail).toBe("This job's customer is deleted: restore the customer first");

    const res = await admin.post(`${deleted}/customer/${customerId}/restore`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      restored: true,
      kind: 'customer',
      id: customerId,
      jobsRestored: 2,
      vehiclesRestored: 0,
      vinsNotRestored: [],
    });
    // Read-your-writes: the answer waited for the reactor and the projector.
    const customer = await admin.get(`/api/customers/${customerId}`);
    expect(customer.status).toBe(200);
    expect(customer.body.name).toBe('Dana Cruz');
    for (const job of [first, second]) {
      const back = await admin.get(`${jobs}/${job.id}`);
      expect(back.status).toBe(200);
      expect(back.body.customerId).toBe(customerId);
    }
    expect((await admin.get(`${jobs}/${earlier.id}`)).status).toBe(404);
    const history = (await admin.get(`/api/customers/${customerId}/history`)).body as Array<{ action: string }>;
    expect(history.map((h) => h.action)).toEqual(['restored', 'deleted', 'created']);
    const after = await deletedList();
    expect(after.map((r) => r.id)).not.toContain(customerId);
    expect(after.map((r) => r.id)).toContain(earlier.id);

    // Deleted again, the cascade takes the restored jobs again.
    const again = await admin.delete(`/api/customers/${customerId}`);
    expect(again.body.jobsDeleted).toBe(2);
  });
});

describe('access', () => {
  test('only admins list and restore; another instance gets 404; bad input is a 400', async () => {
    const job = await newJob({ name: 'Eve Stone' });
    expect((await admin.delete(`${jobs}/${job.id}`)).status).toBe(204);
    expect((await writer.get(deleted)).status).toBe(403);
    expect((await writer.post(`${deleted}/job/${job.id}/restore`)).status).toBe(403);
    expect((await stranger.get(deleted)).status).toBe(404);
    const theirs = await stranger.get('/api/restoreother/deleted-records');
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
    expect((await stranger.post(`/api/restoreother/deleted-records/job/${job.id}/restore`)).status).toBe(404);
    expect((await admin.post(`${deleted}/invoice/${job.id}/restore`)).status).toBe(400);
    expect((await admin.get(`${deleted}?kind=invoice`)).status).toBe(400);
    expect((await admin.post(`${deleted}/job/not-an-id/restore`)).status).toBe(404);
    expect((await admin.post(`${deleted}/customer/00000000-0000-4000-8000-000000000000/restore`)).status).toBe(404);
    expect((await admin.get(`${jobs}/${job.id}`)).status).toBe(404);
  });
});
