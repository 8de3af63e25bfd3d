import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INVALID_STAGE_MESSAGE, type JobView } from '@crm/projections/pipeline';
import { vinCheckDigit } from '@crm/projections/vehicles';
import type { JobRow } from '@crm/projections/pipeline/job-rows';
import { jobMoneyColumn, withListedTotals } from '@crm/projections/repair-orders/list-totals';
import { jobViewOfRow, masked } from '../../src/pipeline/index.ts';
import {
  ApiClient,
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from '../support/server.ts';

// Every command reads the clock once and it moves a second each time: creation order is
// the time order, and a history row's time names exactly the state after it.
let tick = Date.parse('2025-03-01T08:00:00.000Z');
const now = () => new Date((tick += 1000));

let server: TestServer;
let admin: ApiClient;
let writer: ApiClient;
let reader: ApiClient;
let outsider: ApiClient;
const responses: Array<{ res: ApiResponse; method: string; path: string }> = [];

const P = '/api/pipeshop/pipeline';

beforeAll(async () => {
  server = await startTestServer({}, { now });
  ApiClient.observer = (res, method, path) => void responses.push({ res, method, path });
  await createTestInstance(server, 'pipeshop');
  await createTestInstance(server, 'pipeother');
  admin = await signInUser(server, 'pipeshop', 'owner', '1234');
  expect((await admin.post('/api/admin/users', { username: 'writer', displayName: 'Wendy Writer', pin: '2222' })).status).toBe(201);
  const readerUser = await admin.post('/api/admin/users', { username: 'reader', displayName: 'Rita Reader', pin: '3333' });
  expect((await admin.patch(`/api/admin/users/${readerUser.body.id}/permissions`, { canWrite: false })).status).toBe(200);
  writer = await signInUser(server, 'pipeshop', 'writer', '2222');
  reader = await signInUser(server, 'pipeshop', 'reader', '3333');
  outsider = await signInUser(server, 'pipeother', 'owner', '1234');
});
afterAll(async () => {
  ApiClient.observer = null;
  await server?.stop();
});

/** A VIN names one car, and each entry makes a new customer with its vehicle: each its own VIN (check digit computed), typed in lower case. */
let vinSerial = 100000;
function nextVin(): string {
  const draft = `1HGCM82603A${vinSerial++}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`.toLowerCase();
}

const entry = (overrides: Record<string, unknown> = {}) => ({
  jobNumber: '',
  name: 'Ann Lee',
  phone: '555-123-4567',
  part: 'Brake pads',
  makeModel: '2015 Honda Civic',
  quote: '1234',
  stage: 'Quote',
  vin: nextVin(),
  csr: 'Wendy Writer',
  jobType: 'In Shop',
  appointment: '',
  tech: 'Tom',
  notes: 'Rear axle',
  createdAt: new Date().toISOString(),
  ...overrides,
});

async function create(client: ApiClient, overrides: Record<string, unknown> = {}, base = P): Promise<JobView> {
  const res = await client.post(base, entry(overrides));
  expect(res.status, res.text).toBe(201);
  return res.body as JobView;
}

function expectProblem(res: ApiResponse, status: number, message?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  if (message) expect(res.body.message).toBe(message);
}

describe('creating a job', () => {
  test('a quote with cents is kept exactly as typed, in the job, the list, the search and the history', async () => {
    const job = await create(admin, { name: 'Cent Quote', quote: '1,250.50' });
    expect(job.quote).toBe('1250.50');
    const updated = await admin.put(`${P}/${job.id}`, { quote: '89.95' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.quote).toBe('89.95');
    const listed = await admin.get(`${P}?q=${encodeURIComponent('$89.95')}`);
    expect(listed.body.items.map((j: JobView) => [j.id, j.quote])).toEqual([[job.id, '89.95']]);
    const history = await admin.get(`${P}/${job.id}/history`);
    expect(history.body.map((h: { changes: unknown[] }) => h.changes).flat()).toContainEqual({
      field: 'quote',
      oldValue: '1250.50',
      newValue: '89.95',
    });
  });

  test('answers 201 with the projected job, an ETag, the next number and a new linked customer', async () => {
    const sent = entry();
    const res = await admin.post(P, sent);
    expect(res.status, res.text).toBe(201);
    const job = res.body as JobView;
    expect(job).toEqual({
      id: expect.any(String),
      jobNumber: expect.stringMatching(/^\d+$/),
      name: 'Ann Lee',
      phone: '5551234567',
      part: 'Brake pads',
      makeModel: '2015 Honda Civic',
      quote: '1234',
      stage: 'Quote',
      vin: sent.vin.toUpperCase(),
      csr: 'Wendy Writer',
      jobType: 'In Shop',
      appointment: '',
      duration: null,
      tech: 'Tom',
      notes: 'Rear axle',
      customerId: expect.any(String),
      // The Vehicle and VIN typed became the new customer's vehicle record.
      vehicleId: expect.any(String),
      mileageIn: null,
      mileageOut: null,
      createdAt: expect.any(String),
      createdBy: 'Owner',
      updatedAt: job.createdAt,
      revision: 0,
    });
    expect(res.headers.get('etag')).toBe('"0"');
    // The customer was created in the same request, from the job's name, phone and vehicle.
    const customer = await admin.get(`/api/customers/${job.customerId}`);
    expect(customer.status).toBe(200);
    expect(customer.body).toMatchObject({ name: 'Ann Lee', vehicles: '2015 Honda Civic' });
    expect(customer.body.phone).toContain('4567');
  });

  test('blank numbers count up per instance; another instance counts on its own', async () => {
    const a = await create(admin, { name: '', part: 'Wipers' });
    const b = await create(admin, { name: '', part: 'Bulbs' });
    expect(Number(b.jobNumber)).toBe(Number(a.jobNumber) + 1);
    const elsewhere = await create(outsider, { name: '', part: 'Oil' }, '/api/pipeother/pipeline');
    expect(elsewhere.jobNumber).toBe('1');
  });

  test('a typed number is unique per instance (any case), skipped by the counter, and free again after a delete', async () => {
    const typed = await create(admin, { jobNumber: 'J-100', name: '' });
    expect(typed.jobNumber).toBe('J-100');
    expectProblem(await admin.post(P, entry({ jobNumber: 'j-100', name: '' })), 409, 'Job number j-100 is already in use');
    // Another instance may use it.
    await create(outsider, { jobNumber: 'J-100', name: '' }, '/api/pipeother/pipeline');

    const last = await create(admin, { name: '', part: 'probe' });
    const next = String(Number(last.jobNumber) + 1);
    await create(admin, { jobNumber: next, name: '' });
    const after = await create(admin, { name: '', part: 'after the typed one' });
    expect(after.jobNumber).toBe(String(Number(next) + 1));

    expect((await admin.delete(`${P}/${typed.id}`)).status).toBe(204);
    expect((await create(admin, { jobNumber: 'J-100', name: '' })).jobNumber).toBe('J-100');
  });

  test('two creations at once never share a number', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => admin.post(P, entry({ name: '', part: `race ${i}` }))));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const numbers = results.map((r) => r.body.jobNumber);
    expect(new Set(numbers).size).toBe(6);
  });

  test('a chosen customer is linked, no new one is made; a customer of another instance is not found', async () => {
    const customer = await admin.post('/api/customers', { name: 'Existing Customer', phone: '5550001111' });
    expect(customer.status).toBe(201);
    const before = (await admin.get('/api/customers')).body.total;
    const job = await create(admin, { name: 'Existing Customer', customerId: customer.body.id });
    expect(job.customerId).toBe(customer.body.id);
    expect((await admin.get('/api/customers')).body.total).toBe(before);

    const foreign = await outsider.post('/api/customers', { name: 'Foreign' });
    expectProblem(await admin.post(P, entry({ customerId: foreign.body.id })), 404, 'Customer not found');

    // A deleted customer is not found either, and the refused create leaves no job behind.
    const gone = await admin.post('/api/customers', { name: 'Gone Customer' });
    expect((await admin.delete(`/api/customers/${gone.body.id}`)).status).toBe(200);
    const total = (await admin.get(P)).body.total;
    expectProblem(await admin.post(P, entry({ customerId: gone.body.id })), 404, 'Customer not found');
    expect((await admin.get(P)).body.total).toBe(total);
  });

  test("the list filters by customer: only that customer's jobs, canceled ones too when asked", async () => {
    const customer = await admin.post('/api/customers', { name: 'Filter Customer' });
    const first = await create(admin, { name: 'Filter Customer', customerId: customer.body.id });
    const second = await create(admin, { name: 'Renamed On The Job', customerId: customer.body.id });
    await create(admin, { name: 'Filter Customer' });
    await admin.post(`${P}/${second.id}/cancel`);
    const open = await admin.get(`${P}?customerId=${customer.body.id}`);
    expect(open.body.items.map((j: { id: string }) => j.id)).toEqual([first.id]);
    const all = await admin.get(`${P}?customerId=${customer.body.id}&canceled=include&sort=newest`);
    expect(all.body.items.map((j: { id: string }) => j.id)).toEqual([second.id, first.id]);
    expectProblem(await admin.get(`${P}?customerId=nope`), 400, 'customerId must be a customer id');
  });

  test.each([
    [{ stage: 'Shipped' }, INVALID_STAGE_MESSAGE],
    [{ name: 42 }, 'Name must be text'],
    [{ quote: '12.505' }, 'Quote must be an amount in dollars, like 1250, 1,250.50 or 89.95 (at most 2 decimals)'],
    [{ quote: '1,25' }, 'Quote must be an amount in dollars, like 1250, 1,250.50 or 89.95 (at most 2 decimals)'],
    [{ phone: '555-123-45678' }, 'Phone number must be at most 10 digits'],
    [{ appointment: '2025-03-01T09:00' }, 'Appointment must be an ISO date and time with a time zone, e.g. 2025-03-01T09:00:00Z'],
    [{ jobType: 'Teleport' }, 'Job type must be one of: In Shop, Floating Shop, Mobile, Floating Mobile, Pickup, Delivery'],
    [{ customerId: 'not-an-id' }, 'customerId must be the id of a customer'],
    [
      { name: '', phone: '', part: '', makeModel: '', quote: '', vin: '', csr: '', jobType: '', tech: '', notes: '' },
      'At least one field must be filled out',
    ],
  ])('bad input %j is a 400 with a clear message', async (overrides, message) => {
    const res = await admin.post(P, entry(overrides));
    expectProblem(res, 400, message);
  });

  test('malformed JSON, an array and a string body are 400, never 500', async () => {
    expectProblem(
      await admin.request('POST', P, '{"name": ', { 'content-type': 'application/json' }),
      400,
      'Malformed JSON in request body',
    );
    expectProblem(await admin.post(P, [1, 2]), 400);
    expectProblem(await admin.request('POST', P, '"text"', { 'content-type': 'application/json' }), 400);
  });
});

describe('listing', () => {
  let ids: Record<string, string>;

  beforeAll(async () => {
    const make = async (name: string, stage: string, extra: Record<string, unknown> = {}) =>
      (await create(writer, { name, stage, phone: '', makeModel: '', jobNumber: `L-${name}`, ...extra })).id;
    ids = {
      zed: await make('Zed Listing', 'Paid'),
      amy: await make('amy listing', 'Quote', { phone: '6175550123', notes: 'Needs a loaner' }),
      bob: await make('Bob Listing', 'Scheduled', { quote: '98765', vin: 'WVWZZZ1JZXW000001' }),
      cat: await make('Cat Listing', 'Cancelled'),
      dan: await make('Dan Listing', 'Quote', { tech: 'Tex Mechanic', part: 'Timing belt' }),
    };
  });

  const listNames = async (query: string) => {
    const res = await admin.get(`${P}?q=listing&limit=200${query}`);
    expect(res.status, res.text).toBe(200);
    return (res.body.items as JobView[]).map((j) => j.name);
  };

  test('default: Canceled hidden, board order then newest first', async () => {
    expect(await listNames('')).toEqual(['Dan Listing', 'amy listing', 'Bob Listing', 'Zed Listing']);
  });

  test('sorts: newest, oldest, name A-Z and Z-A', async () => {
    expect(await listNames('&sort=newest')).toEqual(['Dan Listing', 'Bob Listing', 'amy listing', 'Zed Listing']);
    expect(await listNames('&sort=oldest')).toEqual(['Zed Listing', 'amy listing', 'Bob Listing', 'Dan Listing']);
    expect(await listNames('&sort=name-asc')).toEqual(['amy listing', 'Bob Listing', 'Dan Listing', 'Zed Listing']);
    expect(await listNames('&sort=name-desc')).toEqual(['Zed Listing', 'Dan Listing', 'Bob Listing', 'amy listing']);
  });

  test('the Canceled toggle shows only Canceled; a stage filter takes aliases', async () => {
    expect(await listNames('&canceled=only')).toEqual(['Cat Listing']);
    expect(await listNames('&canceled=include')).toHaveLength(5);
    expect(await listNames('&stage=Quoted')).toEqual(['Dan Listing', 'amy listing']);
    expect(await listNames('&stage=Cancelled')).toEqual(['Cat Listing']);
    expectProblem(await admin.get(`${P}?stage=Shipped`), 400, INVALID_STAGE_MESSAGE);
  });

  test.each([
    ['loaner', ['amy listing']],
    ['LOANER', ['amy listing']],
    ['617-555', ['amy listing']],
    ['6175550123', ['amy listing']],
    ['98765', ['Bob Listing']],
    ['$98,765', ['Bob Listing']],
    ['wvwzzz', ['Bob Listing']],
    ['tex mech', ['Dan Listing']],
    ['timing', ['Dan Listing']],
    ['l-zed', ['Zed Listing']],
    ['scheduled', ['Bob Listing']],
    ['100%_', []],
  ])('search %j finds %j', async (q, names) => {
    const res = await admin.get(`${P}?q=${encodeURIComponent(q)}&limit=200`);
    expect(res.status).toBe(200);
    const found = (res.body.items as JobView[]).map((j) => j.name).filter((n) => n.endsWith('isting'));
    expect(found).toEqual(names);
    expect(res.body.total).toBe(res.body.items.length);
  });

  test('lists mask phones; the single job shows the whole number', async () => {
    const res = await admin.get(`${P}?q=loaner`);
    expect(res.body.items[0].phone).toBe('•••-•••-0123');
    expect(res.text).not.toContain('6175550123');
    const one = await admin.get(`${P}/${ids.amy}`);
    expect(one.body.phone).toBe('6175550123');
  });

  test.each(['stage', 'newest', 'oldest', 'name-asc', 'name-desc'])(
    'pages by %s: every job once, in order, with the total',
    async (sort) => {
      const all = (await admin.get(`${P}?sort=${sort}&canceled=include&limit=200`)).body;
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ApiResponse = await admin.get(`${P}?sort=${sort}&canceled=include&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status, page.text).toBe(200);
        expect(page.body.items.length).toBeLessThanOrEqual(3);
        expect(page.body.total).toBe(all.total);
        seen.push(...page.body.items.map((j: JobView) => j.id));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all.items.map((j: JobView) => j.id));
      expect(all.total).toBe(all.items.length);
    },
  );

  test('limits and cursors are checked', async () => {
    expect((await admin.get(P)).body.items.length).toBeLessThanOrEqual(50);
    expectProblem(await admin.get(`${P}?limit=201`), 400, 'limit must be at most 200');
    expectProblem(await admin.get(`${P}?limit=abc`), 400);
    expectProblem(await admin.get(`${P}?cursor=garbage`), 400, 'The cursor is not valid for this list; start again without it');
    const page = await admin.get(`${P}?limit=1&sort=newest`);
    expectProblem(await admin.get(`${P}?limit=1&sort=oldest&cursor=${page.body.nextCursor}`), 400);
    expectProblem(await admin.get(`${P}?sort=price`), 400, 'sort must be one of: stage, newest, oldest, name-asc, name-desc');
    expectProblem(await admin.get(`${P}?q=a&q=b`), 400, 'q must be given once');
  });
});

describe('editing', () => {
  test('PUT takes the whole entry, records only what changed, and answers with the new ETag', async () => {
    const job = await create(admin, { name: 'Edit Me' });
    const res = await admin.put(`${P}/${job.id}`, { ...job, quote: '2000', notes: 'Changed' }, { 'if-match': `"${job.revision}"` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ quote: '2000', notes: 'Changed', revision: 1, phone: '5551234567' });
    expect(res.headers.get('etag')).toBe('"1"');
    // The same entry again changes nothing, and keeps the revision.
    const again = await admin.put(`${P}/${job.id}`, res.body);
    expect(again.body.revision).toBe(1);
    // Only the stage (the Maven inline changer) leaves the rest as it is.
    const staged = await admin.put(`${P}/${job.id}`, { stage: 'approved' });
    expect(staged.body).toMatchObject({ stage: 'Parts Ordered', quote: '2000', name: 'Edit Me', revision: 2 });
  });

  test('a stale If-Match is a 409 that carries the current job', async () => {
    const job = await create(admin, { name: 'Contested' });
    expect((await writer.put(`${P}/${job.id}`, { notes: 'first' }, { 'if-match': '"0"' })).status).toBe(200);
    const stale = await admin.put(`${P}/${job.id}`, { ...job, notes: 'second' }, { 'if-match': `"${job.revision}"` });
    expectProblem(stale, 409, 'This job was changed by someone else. Reload it and try again.');
    expect(stale.body.current).toMatchObject({ id: job.id, notes: 'first', revision: 1 });
    expect((await admin.get(`${P}/${job.id}`)).body.notes).toBe('first');
    expectProblem(
      await admin.put(`${P}/${job.id}`, { notes: 'x' }, { 'if-match': 'yesterday' }),
      400,
      'If-Match must be the ETag this API gave out, like "3"',
    );
    // W/"1" and * are understood.
    expect((await admin.put(`${P}/${job.id}`, { notes: 'third' }, { 'if-match': 'W/"1"' })).status).toBe(200);
    expect((await admin.put(`${P}/${job.id}`, { notes: 'fourth' }, { 'if-match': '*' })).status).toBe(200);
  });

  test('the stage, cancel and reopen take If-Match too; without it they work as before', async () => {
    const job = await create(admin, { name: 'Pinned' });
    expect((await writer.put(`${P}/${job.id}`, { notes: 'moved on' })).status).toBe(200);
    const staleStage = await admin.patch(`${P}/${job.id}/stage`, { stage: 'Scheduled' }, { 'if-match': '"0"' });
    expectProblem(staleStage, 409, 'This job was changed by someone else. Reload it and try again.');
    expect(staleStage.body.current).toMatchObject({ id: job.id, stage: 'Quote', notes: 'moved on', revision: 1 });
    expectProblem(await admin.post(`${P}/${job.id}/cancel`, undefined, { 'if-match': '"0"' }), 409, staleStage.body.message);
    const staged = await admin.patch(`${P}/${job.id}/stage`, { stage: 'Scheduled' }, { 'if-match': '"1"' });
    expect(staged.status, staged.text).toBe(200);
    expect(staged.headers.get('etag')).toBe('"2"');
    const canceled = await admin.post(`${P}/${job.id}/cancel`, undefined, { 'if-match': '"2"' });
    expect(canceled.status, canceled.text).toBe(200);
    expectProblem(await admin.post(`${P}/${job.id}/reopen`, undefined, { 'if-match': '"2"' }), 409, staleStage.body.message);
    // A refusal of the job's own is not about versions: reopening an open job stays what it was.
    const reopened = await admin.post(`${P}/${job.id}/reopen`, undefined, { 'if-match': canceled.headers.get('etag')! });
    expect(reopened.status, reopened.text).toBe(200);
    const again = await admin.post(`${P}/${job.id}/reopen`, undefined, { 'if-match': reopened.headers.get('etag')! });
    expect(again.status).toBe(409);
    expect(again.body.message).not.toBe(staleStage.body.message);
    expect((await admin.patch(`${P}/${job.id}/stage`, { stage: 'Paid' })).status).toBe(200);
  });

  test('changing the job number moves the reservation', async () => {
    const job = await create(admin, { jobNumber: 'MOVE-1', name: '' });
    await create(admin, { jobNumber: 'TAKEN-1', name: '' });
    expectProblem(await admin.put(`${P}/${job.id}`, { jobNumber: 'taken-1' }), 409, 'Job number taken-1 is already in use');
    expect((await admin.put(`${P}/${job.id}`, { jobNumber: 'MOVE-2' })).body.jobNumber).toBe('MOVE-2');
    // The old number is free, the new one taken.
    await create(admin, { jobNumber: 'MOVE-1', name: '' });
    expect((await admin.post(P, entry({ jobNumber: 'MOVE-2' }))).status).toBe(409);
    // A blank number keeps the number.
    expect((await admin.put(`${P}/${job.id}`, { jobNumber: '' })).body.jobNumber).toBe('MOVE-2');
  });

  test('stage: aliases normalise, unknown stages are a 400 listing the valid ones', async () => {
    const job = await create(admin, { name: 'Stagey' });
    const patched = await admin.patch(`${P}/${job.id}/stage`, { stage: 'Delivered' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.stage).toBe('Completed');
    expect(patched.headers.get('etag')).toBe('"1"');
    expect((await admin.put(`${P}/${job.id}`, { stage: 'complete' })).body.stage).toBe('Completed');
    const bad = await admin.patch(`${P}/${job.id}/stage`, { stage: 'Shipped' });
    expectProblem(bad, 400, INVALID_STAGE_MESSAGE);
    expect(bad.body.message).toContain('Quote, Parts Ordered, Parts In, Scheduled, In Progress, Completed, Invoiced, Paid, Canceled');
    expectProblem(await admin.patch(`${P}/${job.id}/stage`, {}), 400, INVALID_STAGE_MESSAGE);
    expectProblem(await admin.put(`${P}/${job.id}`, { stage: 'Lost' }), 400, INVALID_STAGE_MESSAGE);
  });

  test('cancel and reopen', async () => {
    const job = await create(admin, { name: 'Flaky', stage: 'Scheduled' });
    const canceled = await admin.post(`${P}/${job.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.stage).toBe('Canceled');
    expect((await admin.post(`${P}/${job.id}/cancel`)).body.revision).toBe(canceled.body.revision);
    const reopened = await admin.post(`${P}/${job.id}/reopen`);
    expect(reopened.body.stage).toBe('Quote');
    expectProblem(await admin.post(`${P}/${job.id}/reopen`), 409, 'Only a canceled job can be reopened');
    const history = (await admin.get(`${P}/${job.id}/history`)).body;
    expect(history.map((h: { action: string }) => h.action)).toEqual(['reopened', 'canceled', 'created']);
    expect(history[1].changes).toEqual([{ field: 'stage', oldValue: 'Scheduled', newValue: 'Canceled' }]);
  });

  test('delete: 204, then gone from every read; its history stays for the record', async () => {
    const job = await create(admin, { name: 'Doomed' });
    expect((await admin.delete(`${P}/${job.id}`)).status).toBe(204);
    expectProblem(await admin.get(`${P}/${job.id}`), 404, 'Job not found');
    expectProblem(await admin.put(`${P}/${job.id}`, { notes: 'x' }), 404, 'Job not found');
    expectProblem(await admin.delete(`${P}/${job.id}`), 404, 'Job not found');
    expect((await admin.get(`${P}?q=doomed`)).body.items).toEqual([]);
    const history = await admin.get(`${P}/${job.id}/history`);
    expect(history.body.map((h: { action: string }) => h.action)).toEqual(['deleted', 'created']);
  });

  test('deleting a customer deletes its jobs', async () => {
    const job = await create(admin, { name: 'Cascade Customer' });
    const second = await create(admin, { name: 'Cascade Customer', customerId: job.customerId });
    const res = await admin.delete(`/api/customers/${job.customerId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, jobsDeleted: 2 });
    expect((await admin.get(`${P}/${job.id}`)).status).toBe(404);
    expect((await admin.get(`${P}/${second.id}`)).status).toBe(404);
  });
});

describe('history and time travel', () => {
  test('newest first, who and when, each changed field with old and new value; any row can be revisited', async () => {
    const job = await create(writer, { name: 'Timeline', quote: '100' });
    await admin.put(`${P}/${job.id}`, { quote: '150', phone: '6175550000' });
    await admin.put(`${P}/${job.id}`, { appointment: '2025-04-02T15:00:00Z', duration: 90, stage: 'Scheduled' });

    const res = await admin.get(`${P}/${job.id}/history`);
    expect(res.status).toBe(200);
    const history = res.body as Array<{
      id: string;
      action: string;
      userDisplayName: string;
      timestamp: string;
      revision: number;
      changes: unknown[];
    }>;
    expect(history.map((h) => h.action)).toEqual(['stage-changed', 'rescheduled', 'updated', 'created']);
    expect(history.map((h) => h.userDisplayName)).toEqual(['Owner', 'Owner', 'Owner', 'Wendy Writer']);
    expect(history[2]!.changes).toEqual([
      { field: 'phone', oldValue: '5551234567', newValue: '6175550000' },
      { field: 'quote', oldValue: '100', newValue: '150' },
    ]);
    expect(history[1]!.changes).toEqual([
      { field: 'appointment', oldValue: '', newValue: '2025-04-02T15:00:00.000Z' },
      { field: 'duration', oldValue: null, newValue: 90 },
    ]);
    expect(history[3]!.changes).toContainEqual({ field: 'name', oldValue: null, newValue: 'Timeline' });

    const asOf = async (time: string) => admin.get(`${P}/${job.id}?asOf=${encodeURIComponent(time)}`);
    const created = await asOf(history[3]!.timestamp);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ quote: '100', phone: '5551234567', stage: 'Quote', revision: 0 });
    expect(created.headers.get('etag')).toBeNull();
    expect((await asOf(history[2]!.timestamp)).body).toMatchObject({ quote: '150', phone: '6175550000', appointment: '', revision: 1 });
    expect((await asOf(history[0]!.timestamp)).body).toMatchObject({
      stage: 'Scheduled',
      appointment: '2025-04-02T15:00:00.000Z',
      duration: 90,
    });
    // Before it existed: nothing.
    expectProblem(await asOf(new Date(Date.parse(history[3]!.timestamp) - 1).toISOString()), 404, 'Job not found');
    expectProblem(
      await asOf('last tuesday'),
      400,
      'asOf must be an ISO 8601 date and time with a time zone offset, e.g. 2025-01-31T14:00:00Z or 2025-01-31T16:00:00+02:00',
    );

    // By revision, as the history rows give it: the job right after that change.
    expect(history.map((h) => h.revision)).toEqual([3, 2, 1, 0]);
    const atRevision = async (revision: string) => admin.get(`${P}/${job.id}?asOfRevision=${revision}`);
    expect((await atRevision('1')).body).toMatchObject({ quote: '150', appointment: '', stage: 'Quote', revision: 1 });
    expect((await atRevision('1')).headers.get('etag')).toBeNull();
    expect((await atRevision('99')).body).toMatchObject({ stage: 'Scheduled', revision: 3 });
    // Past the safe integers too (zod's own "Too big: expected int" came through).
    for (const bad of ['-1', 'one', '1.5', '99999999999', '100000000000000000000'])
      expectProblem(await atRevision(bad), 400, "asOfRevision must be a whole number from 0 (a revision from the record's history)");
    // Both: whichever comes first.
    expect((await admin.get(`${P}/${job.id}?asOfRevision=1&asOf=${encodeURIComponent(history[0]!.timestamp)}`)).body.revision).toBe(1);
    expect((await admin.get(`${P}/${job.id}?asOfRevision=3&asOf=${encodeURIComponent(history[3]!.timestamp)}`)).body.revision).toBe(0);

    // A deleted job can still be looked at as it was.
    await admin.delete(`${P}/${job.id}`);
    expect((await asOf(history[0]!.timestamp)).body.stage).toBe('Scheduled');
  });

  test('one save that records two changes in one instant: each history row shows its own version by revision', async () => {
    const job = await create(admin, { name: 'Two At Once', quote: '100' });
    const saved = await admin.put(`${P}/${job.id}`, { quote: '200', stage: 'Scheduled' });
    expect(saved.status, saved.text).toBe(200);
    const history = (await admin.get(`${P}/${job.id}/history`)).body as Array<{ action: string; revision: number }>;
    expect(history.map((h) => [h.action, h.revision])).toEqual([
      ['stage-changed', 2],
      ['updated', 1],
      ['created', 0],
    ]);
    // The edit's row: the new quote, the stage not yet changed (the next row's change).
    expect((await admin.get(`${P}/${job.id}?asOfRevision=1`)).body).toMatchObject({ quote: '200', stage: 'Quote' });
    expect((await admin.get(`${P}/${job.id}?asOfRevision=2`)).body).toMatchObject({ quote: '200', stage: 'Scheduled' });
  });
});

describe('path families', () => {
  test('the legacy /api/user-info paths are the same pipeline, on the session instance', async () => {
    const job = await create(admin, { name: 'Legacy Path' }, '/api/user-info');
    expect((await admin.get(`${P}/${job.id}`)).body.name).toBe('Legacy Path');
    const list = await admin.get('/api/user-info?q=legacy%20path');
    expect(list.body.items.map((j: JobView) => j.id)).toEqual([job.id]);
    expect((await admin.get(`/api/user-info/${job.id}`)).body.phone).toBe('5551234567');
    expect((await admin.put(`/api/user-info/${job.id}`, { ...job, stage: 'Cancelled' })).body.stage).toBe('Canceled');
    expect((await admin.get(`/api/user-info/${job.id}/history`)).body).toHaveLength(2);
    expect((await admin.delete(`/api/user-info/${job.id}`)).status).toBe(204);
    // Another instance's session sees its own pipeline there.
    expect((await outsider.get('/api/user-info?q=legacy%20path')).body.items).toEqual([]);
  });

  test('the Maven paths belong to the maven instance: its users use them, others get 404', async () => {
    const superAdmin = await signInSuperAdmin(server);
    const maven = (await superAdmin.get('/api/crm-instances')).body.find((i: { subdomain: string }) => i.subdomain === 'maven');
    expect(
      (await superAdmin.post(`/api/crm-instances/${maven.id}/users`, { username: 'mavenboss', pin: '4321', role: 'admin' })).status,
    ).toBe(201);
    const mavenAdmin = await signInUser(server, 'maven', 'mavenboss', '4321');
    const job = await create(mavenAdmin, { name: 'Maven Job', stage: 'Parts In' }, '/api/crm/maven/user-info');
    expect((await mavenAdmin.get('/api/crm/maven/user-info')).body.items.map((j: JobView) => j.id)).toContain(job.id);
    expect((await mavenAdmin.put(`/api/crm/maven/user-info/${job.id}`, { stage: 'Complete' })).body.stage).toBe('Completed');
    expect((await mavenAdmin.get(`/api/crm/maven/user-info/${job.id}/history`)).body[0].action).toBe('stage-changed');
    expect((await mavenAdmin.get(`/api/maven/pipeline/${job.id}`)).status).toBe(200);

    expectProblem(await admin.get('/api/crm/maven/user-info'), 404);
    expectProblem(await admin.get(`/api/crm/maven/user-info/${job.id}`), 404);
    expectProblem(await admin.post('/api/crm/maven/user-info', entry()), 404);
    expectProblem(await admin.get(`${P}/${job.id}`), 404, 'Job not found');
    expect((await mavenAdmin.delete(`/api/crm/maven/user-info/${job.id}`)).status).toBe(204);
  });
});

describe('permissions and tenants', () => {
  test('reading needs canRead, writing canWrite, deleting canDelete', async () => {
    const job = await create(writer, { name: 'Guarded' });
    expect((await reader.get(`${P}/${job.id}`)).status).toBe(200);
    expect((await reader.get(P)).status).toBe(200);
    expect((await reader.get(`${P}/${job.id}/history`)).status).toBe(200);
    expectProblem(await reader.post(P, entry()), 403);
    expectProblem(await reader.put(`${P}/${job.id}`, { notes: 'x' }), 403);
    expectProblem(await reader.patch(`${P}/${job.id}/stage`, { stage: 'Paid' }), 403);
    expectProblem(await reader.post(`${P}/${job.id}/cancel`), 403);
    expectProblem(await writer.delete(`${P}/${job.id}`), 403);
    expect((await writer.put(`${P}/${job.id}`, { notes: 'ok' })).status).toBe(200);
    expectProblem(await new ApiClient(server.url).get(P), 401, 'Not authenticated');
    expectProblem(await new ApiClient(server.url).get('/api/user-info'), 401);
  });

  test('another instance sees none of it, by id or by slug, in any family', async () => {
    const job = await create(admin, { name: 'Private Job', phone: '6179998888' });
    for (const path of [`/api/pipeother/pipeline/${job.id}`, `/api/user-info/${job.id}`, `/api/pipeother/pipeline/${job.id}/history`]) {
      expectProblem(await outsider.get(path), 404);
    }
    expectProblem(await outsider.get(`/api/user-info/${job.id}?asOf=2030-01-01T00:00:00Z`), 404);
    expectProblem(await outsider.put(`/api/user-info/${job.id}`, { notes: 'hijack' }), 404);
    expectProblem(await outsider.patch(`/api/user-info/${job.id}/stage`, { stage: 'Paid' }), 404);
    expectProblem(await outsider.post(`/api/user-info/${job.id}/cancel`), 404);
    expectProblem(await outsider.delete(`/api/user-info/${job.id}`), 404);
    // Naming the other slug: 404 whatever the id.
    expectProblem(await outsider.get(`${P}/${job.id}`), 404);
    expectProblem(await outsider.get(P), 404);
    const theirs = await outsider.get('/api/pipeother/pipeline?canceled=include&limit=200');
    expect(theirs.text).not.toContain(job.id);
    expect(theirs.text).not.toContain('Private Job');
    expect((await admin.get(`${P}/${job.id}`)).body.notes).toBe('Rear axle');
  });

  test('ids that are not ids are 404, never 500', async () => {
    for (const path of [`${P}/not-a-uuid`, `${P}/not-a-uuid/history`, `${P}/123`, `/api/user-info/0`]) {
      expectProblem(await admin.get(path), 404, 'Job not found');
    }
    expectProblem(await admin.put(`${P}/nope`, { notes: 'x' }), 404);
    expectProblem(await admin.delete(`${P}/00000000-0000-4000-8000-000000000000`), 404);
  });
});

describe('choices', () => {
  // The calendar's feeds (and their feature rule) are tested in test/calendar/calendar-api.test.ts.
  test('CSR and Tech choices are the active, unlocked users who may change jobs (not a read-only user)', async () => {
    const extra = await admin.post('/api/admin/users', { username: 'lockedtech', displayName: 'Locked Tech', pin: '5555' });
    expect((await admin.patch(`/api/admin/users/${extra.body.id}/lock`, { isLocked: true })).status).toBe(200);
    const res = await reader.get('/api/users/choices');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: expect.any(String), username: 'owner', displayName: 'Owner' },
      { id: expect.any(String), username: 'writer', displayName: 'Wendy Writer' },
    ]);
    expect((await admin.get('/api/pipeshop/users/choices')).body).toEqual(res.body);
    expect((await outsider.get('/api/users/choices')).body.map((u: { username: string }) => u.username)).toEqual(['owner']);
    expectProblem(await outsider.get('/api/pipeshop/users/choices'), 404);
  });
});

describe('the JSON PostgreSQL builds', () => {
  test('the list answers, byte for byte, what its rows mapped in JS gave, with repair-order totals, on every sort and page', async () => {
    await createTestInstance(server, 'pipejson');
    const owner = await signInUser(server, 'pipejson', 'owner', '1234');
    const create = async (fields: Record<string, unknown>) => {
      const res = await owner.post('/api/pipejson/pipeline', fields);
      expect(res.status, res.text).toBe(201);
      return res.body as JobView;
    };
    const odd = await create({ name: 'Zed "Odd"', quote: '1250', appointment: '2031-07-01T09:00:00Z', notes: '' });
    const cents = await create({ name: 'amy cents', quote: '89.5', stage: 'Scheduled' });
    const none = await create({ name: 'Bo None' });
    const priced = await create({ name: 'Cy Priced', quote: '100' });
    await create({ name: 'Di Canceled', stage: 'Canceled' });
    const line = await owner.post(
      `/api/pipejson/pipeline/${priced.id}/lines`,
      { kind: 'part', description: 'Pads', partNumber: 'P-1', quantity: '2', unitPrice: '45.50' },
      { 'if-match': `"${priced.revision}"` },
    );
    expect(line.status, line.text).toBe(201);
    // Values no form writes, straight into the read model: quotes, a new line, control
    // characters, non-ASCII text, a phone without digits, a quote of cents only, a negative
    // one, times with microseconds, a vehicle and mileages.
    const knex = server.runtime.deps.knex;
    await knex('rm.jobs').where({ id: odd.id }).update({
      name: 'Zed "Odd"\n\t\u0001 é 😀 \u2028',
      phone: 'none',
      notes: '\\ back\\slash',
      created_at: '2031-01-01T07:00:00.123999Z',
    });
    await knex('rm.jobs').where({ id: cents.id }).update({ quote: '0.05', mileage_in: 12, mileage_out: 0, vehicle_id: odd.id });
    await knex('rm.jobs').where({ id: none.id }).update({ quote: '-40.10', updated_at: '2031-02-02T02:02:02.999999Z' });
    const instanceId = (await knex('rm.jobs').where({ id: odd.id }).first('instance_id')).instance_id as string;
    const rows = (await knex('rm.jobs as j')
      .where('j.instance_id', instanceId)
      .whereNot('j.stage', 'Canceled')
      .select('j.*', knex.raw(jobMoneyColumn('j')))
      .orderBy([
        { column: 'j.stage_order', order: 'asc' },
        { column: 'j.created_at', order: 'desc' },
        { column: 'j.id', order: 'desc' },
      ])) as Array<JobRow & Record<string, unknown>>;
    const items = rows.map((row) => withListedTotals(masked(jobViewOfRow(row)), row));
    expect(items.filter((item) => 'totals' in item)).toHaveLength(1);
    expect(items.map((item) => item.quote).sort()).toEqual(['-40.10', '0.05', '1250', '91'].sort());

    const list = await owner.get('/api/pipejson/pipeline');
    expect(list.status, list.text).toBe(200);
    expect(list.headers.get('content-type')).toContain('application/json');
    expect(list.text).toBe(JSON.stringify({ items, nextCursor: null, total: 4 }));
    for (const q of ['priced', 'ZED']) {
      const searched = await owner.get(`/api/pipejson/pipeline?q=${q}`);
      const found = items.filter((item) => item.name.toLowerCase().includes(q.toLowerCase()));
      expect(searched.text).toBe(JSON.stringify({ items: found, nextCursor: null, total: 1 }));
    }
    expect((await owner.get('/api/pipejson/pipeline?q=nobody-at-all')).text).toBe('{"items":[],"nextCursor":null,"total":0}');

    // Every sort, paged two at a time, gives its whole order once.
    for (const sort of ['stage', 'newest', 'oldest', 'name-asc', 'name-desc']) {
      const whole = await owner.get(`/api/pipejson/pipeline?sort=${sort}&canceled=include`);
      expect(whole.body.total, sort).toBe(5);
      const paged: JobView[] = [];
      let cursor: string | null = null;
      do {
        const page: ApiResponse = await owner.get(
          `/api/pipejson/pipeline?sort=${sort}&canceled=include&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.status, page.text).toBe(200);
        paged.push(...(page.body.items as JobView[]));
        cursor = page.body.nextCursor as string | null;
      } while (cursor && paged.length < 10);
      expect(paged, sort).toEqual(whole.body.items);
    }
  });
});

describe('the whole file', () => {
  test('no response was a 500, and every one said no-store', () => {
    const failures = responses
      .filter(({ res }) => res.status >= 500)
      .map(({ method, path, res }) => `${method} ${path} ${res.status} ${res.text}`);
    expect(failures).toEqual([]);
    expect(
      responses.filter(({ path }) => path.startsWith('/api/')).every(({ res }) => res.headers.get('cache-control') === 'no-store'),
    ).toBe(true);
  });
});
