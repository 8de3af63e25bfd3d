import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JobDetail } from '@crm/projections/repair-orders';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/**
 * The history offers "Revert this change" exactly when the revert is accepted: for each case,
 * the row's `canRevert` as the history reads it, then the revert of that row, in the same
 * state. A refusal the history explains (`revertRefused`) is the refusal the command gives.
 */

let server: TestServer;
let admin: ApiClient;
let writer: ApiClient;
let reader: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  const shop = await createTestInstance(server, 'offershop');
  admin = await signInUser(server, shop.subdomain, 'owner', '1234');
  expect((await admin.post('/api/admin/users', { username: 'writer', displayName: 'Wes Writer', pin: '2222' })).status).toBe(201);
  const readerUser = await admin.post('/api/admin/users', { username: 'reader', displayName: 'Rae Reader', pin: '3333' });
  expect((await admin.patch(`/api/admin/users/${readerUser.body.id}/permissions`, { canWrite: false })).status).toBe(200);
  writer = await signInUser(server, shop.subdomain, 'writer', '2222');
  reader = await signInUser(server, shop.subdomain, 'reader', '3333');
});
afterAll(async () => {
  await server?.stop();
});

const P = '/api/offershop/pipeline';

interface Row {
  id: string;
  action: string;
  canRevert: boolean;
  revertRefused?: string;
  revertOf?: string | null;
  changes: Array<{ field: string }>;
}

interface Case {
  /** The history's path; its rows' reverts are `${path}/{id}/revert`. */
  path: string;
  /** Who reads the history and sends the revert. */
  client: ApiClient;
  pick: (rows: Row[]) => Row | undefined;
}

/** Reads the offer, sends the revert, and holds the two to each other; answers the row and the revert's answer. */
async function offerThenRevert({ path, client, pick }: Case) {
  const read = await client.get(path);
  expect(read.status, read.text).toBe(200);
  const row = pick(read.body as Row[]);
  expect(row, 'the case picks a row').toBeDefined();
  const res = await client.post(`${path}/${row!.id}/revert`, {});
  expect({ offered: row!.canRevert, accepted: res.status === 200 }, res.text).toEqual({
    offered: res.status === 200,
    accepted: row!.canRevert,
  });
  if (row!.revertRefused !== undefined) expect(res.body.detail).toBe(row!.revertRefused);
  return { row: row!, res };
}

async function newJob(client: ApiClient, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await client.post(P, { name: 'Olive Offer', part: 'Bumper', ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function ok<R extends { status: number; text: string }>(res: Promise<R>): Promise<R> {
  const answer = await res;
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer;
}

/** Adds a $50 filter line to the job; answers the line. */
async function addFilter(id: string) {
  const added = await ok(admin.post(`${P}/${id}/lines`, { kind: 'part', description: 'Filter', unitPrice: '50' }));
  return (added.body as JobDetail).lines[0]!;
}

const jobCase = (id: string, client: ApiClient, pick: Case['pick']): Case => ({ path: `${P}/${id}/history`, client, pick });
const newestOf = (action: string) => (rows: Row[]) => rows.find((row) => row.action === action);
const oldestOf = (action: string) => (rows: Row[]) => rows.filter((row) => row.action === action).at(-1);

describe("a job's history offers a revert exactly when it is accepted", () => {
  test("a writer's own change: offered, and accepted", async () => {
    const id = await newJob(writer);
    await ok(writer.put(`${P}/${id}`, { part: 'Hood' }));
    const { row, res } = await offerThenRevert(jobCase(id, writer, newestOf('updated')));
    expect(row.canRevert).toBe(true);
    expect(res.body.part).toBe('Bumper');
  });

  test('a field changed again later: not offered, with the words the 409 gives', async () => {
    const id = await newJob(writer);
    await ok(writer.put(`${P}/${id}`, { part: 'Hood' }));
    await ok(admin.put(`${P}/${id}`, { part: 'Fender' }));
    const { row, res } = await offerThenRevert(jobCase(id, admin, oldestOf('updated')));
    expect(row.canRevert).toBe(false);
    expect(row.revertRefused).toMatch(/^Cannot revert: Part changed again later \(by Owner at .+\)/);
    expect(res.status).toBe(409);
  });

  test('a later change that a later revert undid does not stand in the way', async () => {
    const id = await newJob(admin);
    await ok(admin.put(`${P}/${id}`, { part: 'Hood' }));
    await ok(admin.put(`${P}/${id}`, { part: 'Fender' }));
    const newer = ((await admin.get(`${P}/${id}/history`)).body as Row[]).find((row) => row.action === 'updated')!;
    await ok(admin.post(`${P}/${id}/history/${newer.id}/revert`, {}));
    const pickFirst = (rows: Row[]) => rows.filter((row) => row.action === 'updated' && !row.revertOf).at(-1);
    const { row, res } = await offerThenRevert(jobCase(id, admin, pickFirst));
    expect(row.canRevert).toBe(true);
    expect(res.body.part).toBe('Bumper');
  });

  test("someone else's change, for a writer, and any change, for a reader: not offered, no reason given (403)", async () => {
    const id = await newJob(admin);
    await ok(admin.put(`${P}/${id}`, { part: 'Hood' }));
    for (const client of [writer, reader]) {
      const { row, res } = await offerThenRevert(jobCase(id, client, newestOf('updated')));
      expect(row).toMatchObject({ canRevert: false });
      expect(row.revertRefused).toBeUndefined();
      expect(res.status).toBe(403);
    }
  });

  test('a creation: not offered, no reason given (409)', async () => {
    const id = await newJob(admin);
    const { row, res } = await offerThenRevert(jobCase(id, admin, newestOf('created')));
    expect(row.revertRefused).toBeUndefined();
    expect(res.status).toBe(409);
  });

  test('a cancellation: offered, and the job is back where it was', async () => {
    const id = await newJob(admin);
    await ok(admin.patch(`${P}/${id}/stage`, { stage: 'Scheduled' }));
    await ok(admin.post(`${P}/${id}/cancel`));
    const { row, res } = await offerThenRevert(jobCase(id, admin, newestOf('canceled')));
    expect(row.canRevert).toBe(true);
    expect(res.body.stage).toBe('Scheduled');
  });

  test("a quote change of a job with lines: not offered (its quote is the lines' total)", async () => {
    const id = await newJob(admin, { quote: 80 });
    await ok(admin.put(`${P}/${id}`, { quote: 90 }));
    await ok(admin.post(`${P}/${id}/lines`, { kind: 'part', description: 'Filter', unitPrice: '50' }));
    const quoteChange = (rows: Row[]) =>
      rows.filter((row) => row.action === 'updated' && row.changes.some((c) => c.field === 'quote')).at(-1);
    const { row, res } = await offerThenRevert(jobCase(id, admin, quoteChange));
    expect(row.revertRefused).toContain("lines' total");
    expect(res.status).toBe(409);
  });

  test('a line change: offered, and the line is back', async () => {
    const id = await newJob(admin);
    const line = await addFilter(id);
    await ok(admin.put(`${P}/${id}/lines/${line.id}`, { unitPrice: '70' }));
    const { row, res } = await offerThenRevert(jobCase(id, admin, newestOf('line-changed')));
    expect(row.canRevert).toBe(true);
    expect((res.body as JobDetail).lines[0]).toMatchObject({ id: line.id, unitPrice: '50.00' });
  });

  test('a line added and changed later: its addition is not offered', async () => {
    const id = await newJob(admin);
    const line = await addFilter(id);
    await ok(admin.put(`${P}/${id}/lines/${line.id}`, { unitPrice: '70' }));
    const { row, res } = await offerThenRevert(jobCase(id, admin, newestOf('line-added')));
    expect(row.revertRefused).toContain('changed again later');
    expect(res.status).toBe(409);
  });

  test('a line change an invoice froze: not offered, and the estimate and invoice rows never are', async () => {
    const id = await newJob(admin);
    const line = await addFilter(id);
    await ok(admin.put(`${P}/${id}/lines/${line.id}`, { unitPrice: '70' }));
    await ok(admin.post(`${P}/${id}/estimate/send`, {}));
    await ok(admin.post(`${P}/${id}/invoice`, {}));
    const frozen = await offerThenRevert(jobCase(id, admin, newestOf('line-changed')));
    expect(frozen.row.revertRefused).toContain('froze its lines');
    for (const action of ['estimate-sent', 'invoice-issued']) {
      const { row, res } = await offerThenRevert(jobCase(id, admin, newestOf(action)));
      expect(row.revertRefused).toBeUndefined();
      expect(res.status).toBe(409);
    }
  });

  test('a payment: offered once; after its refund, neither it nor the refund is', async () => {
    const id = await newJob(admin);
    await ok(admin.post(`${P}/${id}/lines`, { kind: 'part', description: 'Battery', unitPrice: '120' }));
    await ok(admin.post(`${P}/${id}/payments`, { amount: '50', method: 'cash' }));
    const paid = await offerThenRevert(jobCase(id, admin, newestOf('payment-recorded')));
    expect(paid.row.canRevert).toBe(true);
    const again = await offerThenRevert(jobCase(id, admin, newestOf('payment-recorded')));
    expect(again.row.canRevert).toBe(false);
    const refund = await offerThenRevert(jobCase(id, admin, newestOf('refund-recorded')));
    expect(refund.row.canRevert).toBe(false);
  });

  test('a change made after the history was read: the revert is refused (409) in words staff understand', async () => {
    const id = await newJob(admin);
    await ok(admin.put(`${P}/${id}`, { part: 'Hood' }));
    const read = await admin.get(`${P}/${id}`);
    const offered = ((await admin.get(`${P}/${id}/history`)).body as Row[]).find((row) => row.action === 'updated')!;
    expect(offered.canRevert).toBe(true);
    await ok(writer.put(`${P}/${id}`, { part: 'Fender' }));
    // The screen sends the revision it showed: someone else changed the job since.
    const stale = await admin.post(`${P}/${id}/history/${offered.id}/revert`, {}, { 'if-match': read.headers.get('etag')! });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toBe('This job was changed by someone else. Reload it and try again.');
    // Without it, the rule on the job as it is now names the later change.
    const refused = await admin.post(`${P}/${id}/history/${offered.id}/revert`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/Part changed again later \(by Wes Writer/);
    expect((await admin.get(`${P}/${id}`)).body.part).toBe('Fender');
  });
});

describe("a customer's history offers a revert exactly when it is accepted", () => {
  async function newCustomer(): Promise<string> {
    const res = await writer.post('/api/customers', {
      name: `Cora Offer ${Math.random().toString(36).slice(2, 8)}`,
      email: 'cora@example.com',
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  }
  const customerCase = (id: string, client: ApiClient, pick: Case['pick']): Case => ({
    path: `/api/customers/${id}/history`,
    client,
    pick,
  });

  test("a writer's own change: offered, and accepted", async () => {
    const id = await newCustomer();
    await ok(writer.put(`/api/customers/${id}`, { email: 'cora@example.org' }));
    const { row, res } = await offerThenRevert(customerCase(id, writer, newestOf('updated')));
    expect(row.canRevert).toBe(true);
    expect(res.body.email).toBe('cora@example.com');
  });

  test('a field changed again later: not offered, with the words the 409 gives', async () => {
    const id = await newCustomer();
    await ok(writer.put(`/api/customers/${id}`, { email: 'cora@example.org' }));
    await ok(admin.put(`/api/customers/${id}`, { email: 'cora@example.net' }));
    const { row, res } = await offerThenRevert(customerCase(id, admin, oldestOf('updated')));
    expect(row.revertRefused).toMatch(/Email changed again later \(by Owner/);
    expect(res.status).toBe(409);
  });

  test('a creation, and any change for a reader: not offered', async () => {
    const id = await newCustomer();
    await ok(writer.put(`/api/customers/${id}`, { email: 'cora@example.org' }));
    expect((await offerThenRevert(customerCase(id, writer, newestOf('created')))).res.status).toBe(409);
    expect((await offerThenRevert(customerCase(id, reader, newestOf('updated')))).res.status).toBe(403);
  });
});
