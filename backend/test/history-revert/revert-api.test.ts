import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestInstance, signInSuperAdmin, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/** Undo from history: POST …/history/{eventId}/revert for jobs and customers. */

let server: TestServer;
let admin: ApiClient;
let writer: ApiClient;
let otherWriter: ApiClient;
let reader: ApiClient;
let stranger: ApiClient;
let offsetMs = 0;

beforeAll(async () => {
  server = await startTestServer({}, { now: () => new Date(Date.now() + offsetMs) });
  const shop = await createTestInstance(server, 'revertshop');
  admin = await signInUser(server, shop.subdomain, 'owner', '1234');
  expect((await admin.post('/api/admin/users', { username: 'writer', displayName: 'Wendy Writer', pin: '2222' })).status).toBe(201);
  expect((await admin.post('/api/admin/users', { username: 'writer2', displayName: 'Will Writer', pin: '4444' })).status).toBe(201);
  const readerUser = await admin.post('/api/admin/users', { username: 'reader', displayName: 'Rita Reader', pin: '3333' });
  expect((await admin.patch(`/api/admin/users/${readerUser.body.id}/permissions`, { canWrite: false })).status).toBe(200);
  writer = await signInUser(server, shop.subdomain, 'writer', '2222');
  otherWriter = await signInUser(server, shop.subdomain, 'writer2', '4444');
  reader = await signInUser(server, shop.subdomain, 'reader', '3333');
  const other = await createTestInstance(server, 'revertother');
  stranger = await signInUser(server, other.subdomain, 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

const jobs = '/api/revertshop/pipeline';

async function newJob(client: ApiClient, fields: Record<string, unknown>) {
  const res = await client.post(jobs, { name: 'Ann Lee', part: 'Bumper', ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; revision: number };
}

async function history(client: ApiClient, jobId: string) {
  const res = await client.get(`${jobs}/${jobId}/history`);
  expect(res.status, res.text).toBe(200);
  return res.body as Array<{
    id: string;
    action: string;
    changes: Array<{ field: string }>;
    revertOf?: string | null;
    canRevert?: boolean;
  }>;
}

const etag = (revision: number) => ({ 'if-match': `"${revision}"` });

describe('reverting a job change', () => {
  test('sets the fields back, recorded as a revert of that change with who and when', async () => {
    const job = await newJob(writer, { quote: 100, tech: 'Sam' });
    const updated = await writer.put(`${jobs}/${job.id}`, { quote: 250, tech: 'Kim' }, etag(job.revision));
    expect(updated.status, updated.text).toBe(200);
    const change = (await history(writer, job.id)).find((entry) => entry.action === 'updated')!;
    expect(change.canRevert).toBe(true);

    const res = await writer.post(`${jobs}/${job.id}/history/${change.id}/revert`, {}, etag(updated.body.revision));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ quote: '100', tech: 'Sam' });
    expect(res.headers.get('etag')).toBe(`"${res.body.revision}"`);

    const rows = await history(writer, job.id);
    expect(rows[0]).toMatchObject({ action: 'updated', userDisplayName: 'Wendy Writer', revertOf: change.id });
    expect(rows[0]!.changes.map((c) => c.field).sort()).toEqual(['quote', 'tech']);
    // The activity log says it too.
    await expect
      .poll(async () => JSON.stringify((await admin.get('/api/admin/audit')).body), { timeout: 10_000 })
      .toContain('Reverted a change of job #');
  });

  test('a stage move and a cancellation are reverted to where the job was', async () => {
    const job = await newJob(admin, {});
    const moved = await admin.patch(`${jobs}/${job.id}/stage`, { stage: 'Scheduled' });
    expect(moved.status).toBe(200);
    const canceled = await admin.post(`${jobs}/${job.id}/cancel`);
    expect(canceled.status).toBe(200);
    const rows = await history(admin, job.id);
    const cancel = rows.find((r) => r.action === 'canceled')!;
    const back = await admin.post(`${jobs}/${job.id}/history/${cancel.id}/revert`);
    expect(back.status, back.text).toBe(200);
    expect(back.body.stage).toBe('Scheduled');
  });

  test('a reschedule is reverted to the appointment and duration it had', async () => {
    const job = await newJob(admin, { appointment: '2026-03-02T09:00:00Z', duration: 60 });
    const moved = await admin.put(`${jobs}/${job.id}`, { appointment: '2026-03-04T13:30:00Z', duration: 120 });
    expect(moved.status, moved.text).toBe(200);
    const change = (await history(admin, job.id)).find((r) => r.action === 'rescheduled')!;
    const res = await admin.post(`${jobs}/${job.id}/history/${change.id}/revert`, {}, etag(moved.body.revision));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ appointment: '2026-03-02T09:00:00.000Z', duration: 60 });
    expect((await history(admin, job.id))[0]).toMatchObject({ action: 'rescheduled', revertOf: change.id });
  });

  test('refused with 409 when a later change touched the same field, naming it', async () => {
    const job = await newJob(admin, { part: 'Door' });
    const first = await admin.put(`${jobs}/${job.id}`, { part: 'Hood' });
    const second = await admin.put(`${jobs}/${job.id}`, { part: 'Fender', notes: 'x' });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const rows = await history(admin, job.id);
    const older = rows.filter((r) => r.action === 'updated').at(-1)!;
    const res = await admin.post(`${jobs}/${job.id}/history/${older.id}/revert`);
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.detail).toMatch(/Part changed again later \(by Owner at .+\)/);
    // The later change itself can be reverted; then the older one can.
    const newer = rows.find((r) => r.action === 'updated')!;
    expect((await admin.post(`${jobs}/${job.id}/history/${newer.id}/revert`)).status).toBe(200);
    const undone = await admin.post(`${jobs}/${job.id}/history/${older.id}/revert`);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.part).toBe('Door');
  });

  test('a later change of other fields does not stand in the way', async () => {
    const job = await newJob(admin, { part: 'Mirror' });
    expect((await admin.put(`${jobs}/${job.id}`, { part: 'Glass' })).status).toBe(200);
    expect((await admin.put(`${jobs}/${job.id}`, { notes: 'call first' })).status).toBe(200);
    const partChange = (await history(admin, job.id)).find((r) => r.changes.some((c) => c.field === 'part') && r.action === 'updated')!;
    const res = await admin.post(`${jobs}/${job.id}/history/${partChange.id}/revert`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ part: 'Mirror', notes: 'call first' });
  });

  test('If-Match on a stale revision is a 409 carrying the current job', async () => {
    const job = await newJob(admin, { tech: 'A' });
    const updated = await admin.put(`${jobs}/${job.id}`, { tech: 'B' });
    const change = (await history(admin, job.id)).find((r) => r.action === 'updated')!;
    const res = await admin.post(`${jobs}/${job.id}/history/${change.id}/revert`, {}, etag(job.revision));
    expect(res.status).toBe(409);
    expect(res.body.current?.revision ?? res.body.currentRevision ?? updated.body.revision).toBe(updated.body.revision);
  });

  test('a creation cannot be reverted; an unknown change is a 404', async () => {
    const job = await newJob(admin, {});
    const created = (await history(admin, job.id)).find((r) => r.action === 'created')!;
    expect(created.canRevert).toBe(false);
    const res = await admin.post(`${jobs}/${job.id}/history/${created.id}/revert`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('Only a change of fields can be reverted');
    const unknown = await admin.post(`${jobs}/${job.id}/history/00000000-0000-4000-8000-000000000000/revert`);
    expect(unknown.status).toBe(404);
    expect((await admin.post(`${jobs}/not-a-job/history/x/revert`)).status).toBe(404);
  });
});

describe('who may revert', () => {
  test("a writer may not revert someone else's change; an admin may", async () => {
    const job = await newJob(otherWriter, { tech: 'Lee' });
    expect((await otherWriter.put(`${jobs}/${job.id}`, { tech: 'Max' })).status).toBe(200);
    const change = (await history(writer, job.id)).find((r) => r.action === 'updated')!;
    expect(change.canRevert).toBe(false);
    const res = await writer.post(`${jobs}/${job.id}/history/${change.id}/revert`);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('You can revert only your own changes of the last 24 hours');
    expect((await history(admin, job.id)).find((r) => r.id === change.id)!.canRevert).toBe(true);
    expect((await admin.post(`${jobs}/${job.id}/history/${change.id}/revert`)).status).toBe(200);
  });

  test('a reader may not revert at all', async () => {
    const job = await newJob(admin, { tech: 'Ray' });
    expect((await admin.put(`${jobs}/${job.id}`, { tech: 'Ron' })).status).toBe(200);
    const change = (await history(reader, job.id)).find((r) => r.action === 'updated')!;
    expect(change.canRevert).toBe(false);
    expect((await reader.post(`${jobs}/${job.id}/history/${change.id}/revert`)).status).toBe(403);
  });

  test("a writer's own change can be reverted for 24 hours only", async () => {
    const job = await newJob(writer, { tech: 'Old' });
    expect((await writer.put(`${jobs}/${job.id}`, { tech: 'New' })).status).toBe(200);
    const change = (await history(writer, job.id)).find((r) => r.action === 'updated')!;
    offsetMs = 25 * 60 * 60 * 1000;
    try {
      expect((await history(writer, job.id)).find((r) => r.id === change.id)!.canRevert).toBe(false);
      expect((await writer.post(`${jobs}/${job.id}/history/${change.id}/revert`)).status).toBe(403);
      expect((await admin.post(`${jobs}/${job.id}/history/${change.id}/revert`)).status).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });

  test('another instance cannot see or revert the job (404)', async () => {
    const job = await newJob(admin, { tech: 'T1' });
    expect((await admin.put(`${jobs}/${job.id}`, { tech: 'T2' })).status).toBe(200);
    const change = (await history(admin, job.id)).find((r) => r.action === 'updated')!;
    expect((await stranger.post(`/api/revertother/pipeline/${job.id}/history/${change.id}/revert`)).status).toBe(404);
    expect((await stranger.post(`${jobs}/${job.id}/history/${change.id}/revert`)).status).toBe(404);
    expect((await admin.get(`${jobs}/${job.id}`)).body.tech).toBe('T2');
  });
});

describe('reverting a customer change', () => {
  test('sets the fields back, shows the revert in history; a later change of the field refuses it', async () => {
    const created = await writer.post('/api/customers', { name: 'Cara Diaz', email: 'cara@example.com', phone: '5551112222' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const first = await writer.put(`/api/customers/${id}`, { email: 'c@example.org', phone: '5553334444' }, etag(created.body.revision));
    expect(first.status, first.text).toBe(200);
    const second = await otherWriter.put(`/api/customers/${id}`, { phone: '5559990000' });
    expect(second.status).toBe(200);
    type Row = { id: string; action: string; canRevert: boolean; revertRefused?: string };
    const rows = (await writer.get(`/api/customers/${id}/history`)).body as Row[];
    const firstChange = rows.filter((r) => r.action === 'updated').at(-1)!;
    // The history offers no revert the command would refuse, and says why.
    expect(firstChange.canRevert).toBe(false);
    expect(firstChange.revertRefused).toMatch(/Phone changed again later \(by Will Writer/);

    const refused = await writer.post(`/api/customers/${id}/history/${firstChange.id}/revert`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/Phone changed again later \(by Will Writer/);

    // Will's change is not Wendy's to revert; the admin may, and then Wendy's goes back too.
    const secondChange = rows.find((r) => r.action === 'updated')!;
    expect((await writer.post(`/api/customers/${id}/history/${secondChange.id}/revert`)).status).toBe(403);
    expect((await admin.post(`/api/revertshop/customers/${id}/history/${secondChange.id}/revert`)).status).toBe(200);
    const offered = ((await writer.get(`/api/customers/${id}/history`)).body as Row[]).find((r) => r.id === firstChange.id)!;
    expect(offered).toMatchObject({ canRevert: true });
    const res = await writer.post(`/api/customers/${id}/history/${firstChange.id}/revert`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ email: 'cara@example.com', phone: '555-111-2222' });
    const after = (await writer.get(`/api/customers/${id}/history`)).body as Array<{ revertOf: string | null }>;
    expect(after[0]!.revertOf).toBe(firstChange.id);
    expect((await stranger.post(`/api/customers/${id}/history/${firstChange.id}/revert`)).status).toBe(404);
  });
});

describe('a switched-off feature', () => {
  test('with Customers off, a customer change can no more be reverted than its history read (404), and nothing is recorded', async () => {
    const created = await writer.post('/api/customers', { name: 'Fay Off', email: 'fay@example.com' });
    expect((await writer.put(`/api/customers/${created.body.id}`, { email: 'fay@example.org' })).status).toBe(200);
    const change = ((await writer.get(`/api/customers/${created.body.id}/history`)).body as Array<{ id: string }>)[0]!;
    const superAdmin = await signInSuperAdmin(server);
    const shop = ((await superAdmin.get('/api/crm-instances')).body as Array<{ id: string; subdomain: string }>).find(
      (instance) => instance.subdomain === 'revertshop',
    )!;
    const customersOff = async (off: boolean) =>
      expect((await superAdmin.put(`/api/crm-instances/${shop.id}`, { features: { customers: !off } })).status).toBe(200);
    await customersOff(true);
    try {
      for (const base of ['/api/customers', '/api/revertshop/customers']) {
        expect((await writer.get(`${base}/${created.body.id}/history`)).status).toBe(404);
        const refused = await writer.post(`${base}/${created.body.id}/history/${change.id}/revert`);
        expect(refused.status, refused.text).toBe(404);
        expect(refused.body.detail).toBe('This feature is not enabled for this CRM');
      }
    } finally {
      await customersOff(false);
    }
    const customer = await writer.get(`/api/customers/${created.body.id}`);
    expect(customer.body).toMatchObject({ email: 'fay@example.org', revision: 1 });
  });
});
