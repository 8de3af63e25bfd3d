import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ServiceRequestHistoryEntry, ServiceRequestPage, ServiceRequestView } from '@crm/projections/service-requests';
import {
  ApiClient,
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiResponse,
  type TestInstance,
  type TestServer,
} from '../support/server.ts';

let server: TestServer;
let shop: TestInstance;
let other: TestInstance;
/** Role admin of `shop`: every permission. */
let owner: ApiClient;
/** Role admin of `other`. */
let otherOwner: ApiClient;

beforeAll(async () => {
  // X-Forwarded-For is trusted so the rate-limit tests can be many visitors.
  server = await startTestServer({ TRUST_PROXY: 'true' });
  shop = await createTestInstance(server, 'srshop', { username: 'owner', pin: '1234' });
  other = await createTestInstance(server, 'srother', { username: 'owner', pin: '4321' });
  owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  otherOwner = await signInUser(server, other.subdomain, 'owner', '4321');
});
afterAll(async () => {
  await server?.stop();
});

const REQUEST = {
  customerName: 'Jane Doe',
  contactEmail: 'jane@example.com',
  vehicleType: '2019 Honda Civic',
  serviceType: 'Brake Service',
  scheduledDate: '2026-03-14',
  additionalNotes: 'Squeaks when stopping',
};

async function submit(
  client: ApiClient,
  body: Record<string, unknown> = REQUEST,
  base = '/api/service-requests',
): Promise<ServiceRequestView> {
  const res = await client.post(base, body);
  expect(res.status, res.text).toBe(201);
  return res.body as ServiceRequestView;
}

function expectProblem(res: ApiResponse, status: number, message?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  if (message) expect(res.body.message).toBe(message);
}

/** A fresh instance with its owner signed in (lists and numbers start from nothing); features as given. */
async function freshShop(subdomain: string, features?: Record<string, boolean>) {
  const provider = await signInSuperAdmin(server);
  const res = await provider.post('/api/crm-instances', {
    name: subdomain.toUpperCase(),
    displayName: `${subdomain} Auto`,
    subdomain,
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1111',
    ...(features ? { features } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, client: await signInUser(server, subdomain, 'owner', '1111'), provider };
}

/** A user of `shop` with exactly these permissions. */
async function staffWith(username: string, permissions: { canRead: boolean; canWrite: boolean; canDelete: boolean }) {
  const created = await owner.post('/api/admin/users', { username, pin: '2468', role: 'user' });
  expect(created.status, created.text).toBe(201);
  const changed = await owner.patch(`/api/admin/users/${created.body.id}/permissions`, { ...permissions, canManageUsers: false });
  expect(changed.status, changed.text).toBe(200);
  return await signInUser(server, shop.subdomain, username, '2468');
}

describe('submitting', () => {
  test('answers 201 with the request, its number, status open, who and when, and an ETag', async () => {
    const { client } = await freshShop('srcreate');
    const res = await client.post('/api/service-requests', { ...REQUEST, serviceType: 'brake service', createdAt: '2020-01-01T00:00:00Z' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      number: 1,
      ...REQUEST,
      contactPhone: '',
      status: 'open',
      source: 'staff',
      jobId: null,
      jobNumber: null,
      createdAt: expect.any(String),
      createdBy: 'Owner',
      lastModifiedAt: expect.any(String),
      lastModifiedBy: 'Owner',
      revision: 0,
    });
    expect(res.headers.get('etag')).toBe('"0"');
    expect((await submit(client, { customerName: 'Second' })).number).toBe(2);
  });

  test.each([
    [{}, 'At least one field must be filled out'],
    [{ customerName: '  ', contactEmail: '' }, 'At least one field must be filled out'],
    [{ customerName: 'A', contactEmail: 'not-an-email' }, 'If provided, email must be valid'],
    [
      { customerName: 'A', serviceType: 'Detailing' },
      'Service type must be one of: Oil Change, Tire Rotation, Brake Service, Engine Repair, Transmission, Other',
    ],
    [{ customerName: 'A', scheduledDate: '2026-02-30' }, 'Scheduled date must be a date (YYYY-MM-DD)'],
    [{ customerName: 'x'.repeat(201) }, 'Customer name must be at most 200 characters'],
    [{ customerName: 42 }, 'Customer name must be text'],
  ])('refuses %j with 400: %s', async (body, message) => {
    expectProblem(await owner.post('/api/service-requests', body), 400, message);
  });

  test('a body that is not an object is a 400, not a 500', async () => {
    expectProblem(await owner.post('/api/service-requests', '[1,2]'), 400);
    expectProblem(await owner.post('/api/service-requests', 'null'), 400);
  });

  test('an ISO time as the scheduled date keeps its date', async () => {
    const created = await submit(owner, { customerName: 'Dated', scheduledDate: '2026-05-01T09:30:00.000Z' });
    expect(created.scheduledDate).toBe('2026-05-01');
  });
});

describe('listing and searching', () => {
  test('newest first, total, keyset pages; search over name, email, vehicle, service and notes', async () => {
    const { client } = await freshShop('srlist');
    expect((await client.get('/api/service-requests')).body).toEqual({ items: [], nextCursor: null, total: 0 });
    await submit(client, { customerName: 'Alice Apple', contactEmail: 'alice@example.com', vehicleType: 'Ford F-150' });
    await submit(client, { customerName: 'Bob Brown', serviceType: 'Oil Change' });
    await submit(client, { customerName: 'Carol Cruz', additionalNotes: 'Needs a loaner CAR' });
    const all = (await client.get('/api/service-requests')).body as ServiceRequestPage;
    expect(all.total).toBe(3);
    expect(all.items.map((r) => r.customerName)).toEqual(['Carol Cruz', 'Bob Brown', 'Alice Apple']);

    const first = (await client.get('/api/service-requests?limit=2')).body as ServiceRequestPage;
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(3);
    const second = (await client.get(`/api/service-requests?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`))
      .body as ServiceRequestPage;
    expect(second.items.map((r) => r.customerName)).toEqual(['Alice Apple']);
    expect(second.nextCursor).toBeNull();

    const names = async (q: string) =>
      ((await client.get(`/api/service-requests?q=${encodeURIComponent(q)}`)).body as ServiceRequestPage).items.map((r) => r.customerName);
    expect(await names('ALICE@')).toEqual(['Alice Apple']);
    expect(await names('f-150')).toEqual(['Alice Apple']);
    expect(await names('oil change')).toEqual(['Bob Brown']);
    expect(await names('loaner')).toEqual(['Carol Cruz']);
    expect(await names('cruz')).toEqual(['Carol Cruz']);
    expect(await names('nobody')).toEqual([]);
    expect(((await client.get('/api/service-requests?q=nobody')).body as ServiceRequestPage).total).toBe(0);
  });

  test('bad query strings are 400s', async () => {
    expectProblem(await owner.get('/api/service-requests?limit=0'), 400);
    expectProblem(await owner.get('/api/service-requests?status=deleted'), 400);
    expectProblem(await owner.get('/api/service-requests?cursor=garbage'), 400);
    expectProblem(await owner.get('/api/service-requests?jobId=nope'), 400);
  });
});

describe('reading, editing and history', () => {
  test('GET by id with ETag; PUT with If-Match saves, a stale If-Match is a 409 carrying the current request', async () => {
    const created = await submit(owner);
    const shown = await owner.get(`/api/service-requests/${created.id}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('etag')).toBe('"0"');
    expect(shown.body).toEqual(created);

    const saved = await owner.put(
      `/api/service-requests/${created.id}`,
      { serviceType: 'Oil Change', additionalNotes: '' },
      { 'If-Match': '"0"' },
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ serviceType: 'Oil Change', additionalNotes: '', customerName: 'Jane Doe', revision: 1 });
    expect(saved.headers.get('etag')).toBe('"1"');

    const stale = await owner.put(`/api/service-requests/${created.id}`, { customerName: 'Someone' }, { 'If-Match': '"0"' });
    expectProblem(stale, 409);
    expect(stale.body.current).toMatchObject({ serviceType: 'Oil Change', revision: 1 });
    expectProblem(await owner.put(`/api/service-requests/${created.id}`, { customerName: 'X' }, { 'If-Match': 'W/"abc"' }), 400);
    expectProblem(
      await owner.put(`/api/service-requests/${created.id}`, {
        customerName: '',
        contactEmail: '',
        vehicleType: '',
        serviceType: '',
        scheduledDate: '',
      }),
      400,
      'At least one field must be filled out',
    );
    expectProblem(await owner.put(`/api/service-requests/${created.id}`, { contactEmail: 'bad' }), 400, 'If provided, email must be valid');

    const history = (await owner.get(`/api/service-requests/${created.id}/history`)).body as ServiceRequestHistoryEntry[];
    expect(history.map((h) => h.action)).toEqual(['updated', 'submitted']);
    expect(history[0]!.changes).toEqual([
      { field: 'serviceType', oldValue: 'Brake Service', newValue: 'Oil Change' },
      { field: 'additionalNotes', oldValue: 'Squeaks when stopping', newValue: '' },
    ]);
    expect(history[1]!.changes).toContainEqual({ field: 'customerName', oldValue: null, newValue: 'Jane Doe' });
    expect(history[0]!.userDisplayName).toBe('Owner');
  });

  test('unknown ids and junk ids are 404s', async () => {
    expectProblem(await owner.get('/api/service-requests/00000000-0000-4000-8000-000000000000'), 404, 'Service request not found');
    expectProblem(await owner.get('/api/service-requests/not-a-uuid'), 404);
    expectProblem(await owner.put('/api/service-requests/not-a-uuid', { customerName: 'x' }), 404);
    expectProblem(await owner.get('/api/service-requests/not-a-uuid/history'), 404);
  });

  test('archive: leaves the default list, shows under status=archived, can no longer be edited', async () => {
    const created = await submit(owner, { customerName: 'Archie Ves' });
    const archived = await owner.post(`/api/service-requests/${created.id}/archive`, {});
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body.status).toBe('archived');
    const active = (await owner.get('/api/service-requests?q=archie')).body as ServiceRequestPage;
    expect(active.total).toBe(0);
    const onlyArchived = (await owner.get('/api/service-requests?q=archie&status=archived')).body as ServiceRequestPage;
    expect(onlyArchived.items.map((r) => r.id)).toEqual([created.id]);
    expectProblem(await owner.put(`/api/service-requests/${created.id}`, { customerName: 'Back' }), 409);
    expect((await owner.post(`/api/service-requests/${created.id}/archive`, {})).status).toBe(200);
    const history = (await owner.get(`/api/service-requests/${created.id}/history`)).body as ServiceRequestHistoryEntry[];
    expect(history.map((h) => h.action)).toEqual(['archived', 'submitted']);
  });
});

describe('unknown fields', () => {
  test('a request with the wrong field names is a 400 naming them, and nothing is stored', async () => {
    const { client } = await freshShop('srwrongkey');
    const res = await client.post('/api/service-requests', {
      name: 'Wrong Key',
      phone: '5551234567',
      vehicleType: 'Truck',
      serviceType: 'Oil Change',
    });
    expectProblem(res, 400, 'Unknown fields: name, phone');
    expect((await client.get('/api/service-requests?status=all')).body.total).toBe(0);
    // The request's own read-only fields, sent back whole, are taken and ignored.
    const created = await submit(client, REQUEST);
    const whole = await client.put(`/api/service-requests/${created.id}`, { ...created, additionalNotes: 'Whole record' });
    expect(whole.status, whole.text).toBe(200);
    expect(whole.body).toMatchObject({ id: created.id, number: created.number, additionalNotes: 'Whole record' });
  });
});

describe('converting to a job', () => {
  test('creates the job, links both ways, and converting again answers with the same job', async () => {
    const { client } = await freshShop('srconvert');
    const request = await submit(client, { ...REQUEST, customerName: 'Conan Vert' });
    const job = { name: 'Conan Vert', phone: '555-123-4567', part: 'Brake Service', makeModel: '2019 Honda Civic', notes: 'From SR-1' };
    const first = await client.post(`/api/service-requests/${request.id}/convert`, job);
    expect(first.status, first.text).toBe(201);
    expect(first.body.created).toBe(true);
    const converted = first.body.serviceRequest as ServiceRequestView;
    expect(converted).toMatchObject({ status: 'converted', jobId: expect.any(String), jobNumber: expect.any(String) });

    const madeJob = await client.get(`/api/srconvert/pipeline/${converted.jobId}`);
    expect(madeJob.status, madeJob.text).toBe(200);
    expect(madeJob.body).toMatchObject({ name: 'Conan Vert', part: 'Brake Service', jobNumber: converted.jobNumber, stage: 'Quote' });

    // The job's way back: the request converted to it.
    const back = (await client.get(`/api/service-requests?jobId=${converted.jobId}&status=all`)).body as ServiceRequestPage;
    expect(back.items.map((r) => r.id)).toEqual([request.id]);

    const again = await client.post(`/api/service-requests/${request.id}/convert`, { ...job, name: 'Someone Else' });
    expect(again.status, again.text).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.serviceRequest.jobId).toBe(converted.jobId);
    const jobs = await client.get('/api/srconvert/pipeline');
    expect(jobs.body.items.filter((j: { name: string }) => j.name === 'Conan Vert' || j.name === 'Someone Else')).toHaveLength(1);

    const history = (await client.get(`/api/service-requests/${request.id}/history`)).body as ServiceRequestHistoryEntry[];
    expect(history[0]).toMatchObject({ action: 'converted' });
    expect(history[0]!.changes).toContainEqual({ field: 'job', oldValue: null, newValue: `#${converted.jobNumber}` });
  });

  test("with no body it takes the request's own fields, and the customer it makes keeps the email", async () => {
    const { client } = await freshShop('srdefaults');
    const request = await submit(client, { ...REQUEST, customerName: 'Dee Fault', contactEmail: 'dee@example.com' });
    const res = await client.request('POST', `/api/service-requests/${request.id}/convert`);
    expect(res.status, res.text).toBe(201);
    const job = (await client.get(`/api/srdefaults/pipeline/${res.body.serviceRequest.jobId}`)).body;
    expect(job).toMatchObject({ name: 'Dee Fault', makeModel: '2019 Honda Civic', part: 'Brake Service' });
    expect(job.notes).toContain('From service request SR-1');
    expect(job.notes).toContain('Squeaks when stopping');
    // 9:00 on the wanted day, in the shop's zone.
    expect(job.appointment).not.toBe('');
    const customer = (await client.get(`/api/customers/${job.customerId}`)).body;
    expect(customer).toMatchObject({ name: 'Dee Fault', email: 'dee@example.com' });
  });

  test('what the body gives wins over the request; customerId links an existing customer and makes none', async () => {
    const { client } = await freshShop('srlink');
    const existing = await client.post('/api/customers', { name: 'Lin Kedd', email: 'lin@example.com' });
    expect(existing.status, existing.text).toBe(201);
    const request = await submit(client, { ...REQUEST, customerName: 'Lin Kedd', contactEmail: 'lin@example.com' });
    const matches = await client.get('/api/customers/matches?name=Lin%20Kedd&email=lin%40example.com');
    expect(matches.body.items.map((m: { id: string }) => m.id)).toEqual([existing.body.id]);
    const res = await client.post(`/api/service-requests/${request.id}/convert`, { customerId: existing.body.id, part: 'Alignment' });
    expect(res.status, res.text).toBe(201);
    const job = (await client.get(`/api/srlink/pipeline/${res.body.serviceRequest.jobId}`)).body;
    expect(job).toMatchObject({ customerId: existing.body.id, name: 'Lin Kedd', part: 'Alignment' });
    const customers = await client.get('/api/customers');
    expect(customers.body.total).toBe(1);
  });

  test('two conversions at once make one job', async () => {
    const request = await submit(owner, { customerName: 'Racy Double' });
    const job = { name: 'Racy Double', part: 'Oil Change' };
    const [a, b] = await Promise.all([
      owner.post(`/api/service-requests/${request.id}/convert`, job),
      owner.post(`/api/service-requests/${request.id}/convert`, job),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.serviceRequest.jobId).toBe(b.body.serviceRequest.jobId);
  });

  test('the job must be valid; an archived request cannot be converted', async () => {
    const request = await submit(owner, { customerName: 'Invalid Job' });
    expectProblem(
      await owner.post(`/api/service-requests/${request.id}/convert`, { name: '', notes: '', part: '', makeModel: '' }),
      400,
      'At least one field must be filled out',
    );
    expectProblem(await owner.post(`/api/service-requests/${request.id}/convert`, { appointment: '0000-01-01T00:00:00Z' }), 400);
    expectProblem(await owner.post(`/api/service-requests/${request.id}/convert`, { nmae: 'Typo' }), 400, 'Unknown field: nmae');
    expect((await owner.get(`/api/service-requests/${request.id}`)).body.status).toBe('open');
    await owner.post(`/api/service-requests/${request.id}/archive`, {});
    expectProblem(await owner.post(`/api/service-requests/${request.id}/convert`, { name: 'X' }), 409);
  });
});

describe('permissions and tenants', () => {
  test('read-only staff read but cannot submit, edit or convert; archiving needs canDelete', async () => {
    const created = await submit(owner, { customerName: 'Perm Check' });
    const reader = await staffWith('srreader', { canRead: true, canWrite: false, canDelete: false });
    expect((await reader.get('/api/service-requests')).status).toBe(200);
    expect((await reader.get(`/api/service-requests/${created.id}`)).status).toBe(200);
    expect((await reader.get('/api/service-requests/summary')).status).toBe(200);
    expectProblem(await reader.post('/api/service-requests', REQUEST), 403);
    expectProblem(await reader.put(`/api/service-requests/${created.id}`, { customerName: 'x' }), 403);
    expectProblem(await reader.post(`/api/service-requests/${created.id}/convert`, { name: 'x' }), 403);
    expectProblem(await reader.post(`/api/service-requests/${created.id}/archive`, {}), 403);
    const writer = await staffWith('srwriter', { canRead: true, canWrite: true, canDelete: false });
    expect((await writer.post('/api/service-requests', REQUEST)).status).toBe(201);
    expectProblem(await writer.post(`/api/service-requests/${created.id}/archive`, {}), 403);
    const blind = await staffWith('srblind', { canRead: false, canWrite: false, canDelete: false });
    expectProblem(await blind.get('/api/service-requests'), 403);
  });

  test('without a session: 401', async () => {
    const anonymous = new ApiClient(server.url);
    expectProblem(await anonymous.get('/api/service-requests'), 401);
    expectProblem(await anonymous.post('/api/service-requests', REQUEST), 401);
  });

  test('another instance sees none of it, by id or in lists, in any path family', async () => {
    const mine = await submit(owner, { customerName: 'Tenant Secret' });
    expectProblem(await otherOwner.get(`/api/service-requests/${mine.id}`), 404);
    expectProblem(await otherOwner.put(`/api/service-requests/${mine.id}`, { customerName: 'Stolen' }), 404);
    expectProblem(await otherOwner.post(`/api/service-requests/${mine.id}/convert`, { name: 'Stolen' }), 404);
    expectProblem(await otherOwner.post(`/api/service-requests/${mine.id}/archive`, {}), 404);
    expectProblem(await otherOwner.get(`/api/service-requests/${mine.id}/history`), 404);
    expect(((await otherOwner.get('/api/service-requests?q=tenant')).body as ServiceRequestPage).total).toBe(0);
    // The instance in the path must be the session's own.
    expectProblem(await otherOwner.get(`/api/${shop.subdomain}/service-requests`), 404);
    expectProblem(await otherOwner.get(`/api/${shop.subdomain}/service-requests/${mine.id}`), 404);
    const own = await owner.get(`/api/${shop.subdomain}/service-requests/${mine.id}`);
    expect(own.status).toBe(200);
    const viaPath = await submit(owner, { customerName: 'Path Family' }, `/api/${shop.subdomain}/service-requests`);
    expect(viaPath.source).toBe('staff');
    expect((await owner.get(`/api/service-requests/${mine.id}`)).body.customerName).toBe('Tenant Secret');
    expect((await otherOwner.get(`/api/${other.subdomain}/service-requests`)).status).toBe(200);
  });

  test('with the serviceRequests feature off, every route answers 404', async () => {
    const { client } = await freshShop('sroff', { pipeline: true, customers: true, calendar: false, admin: true, serviceRequests: false });
    const off = 'This feature is not enabled for this CRM';
    expectProblem(await client.get('/api/service-requests'), 404, off);
    expectProblem(await client.post('/api/service-requests', REQUEST), 404, off);
    expectProblem(await client.get('/api/service-requests/summary'), 404, off);
    expectProblem(await client.get('/api/sroff/service-requests'), 404, off);
    expectProblem(await client.get('/api/service-requests/00000000-0000-4000-8000-000000000000'), 404, off);
  });
});

describe('the public request page', () => {
  const publicUrl = (subdomain: string) => `/api/public/${subdomain}/service-requests`;

  async function setPublic(provider: ApiClient, id: string, on: boolean) {
    const res = await provider.put(`/api/crm-instances/${id}`, { publicRequests: on });
    expect(res.status, res.text).toBe(200);
  }

  test('off by default: the page says so and submissions are 404s; on: a visitor submits without signing in', async () => {
    const { id, client, provider } = await freshShop('srpublic');
    const visitor = new ApiClient(server.url);
    expect((await visitor.get('/api/public/srpublic/request-page')).body).toEqual({ enabled: false, shopName: 'srpublic Auto' });
    expectProblem(await visitor.post(publicUrl('srpublic'), REQUEST), 404, 'This shop does not take requests online');
    expectProblem(await visitor.get('/api/public/nosuchshop/request-page'), 404, 'No such CRM');

    await setPublic(provider, id, true);
    expect((await visitor.get('/api/public/srpublic/request-page')).body).toEqual({ enabled: true, shopName: 'srpublic Auto' });
    const sent = await visitor.post(publicUrl('srpublic'), { ...REQUEST, customerName: 'Walk In' }, { 'X-Forwarded-For': '203.0.113.1' });
    expect(sent.status, sent.text).toBe(201);
    // A receipt only: a stranger reads nothing back.
    expect(sent.body).toEqual({ received: true });

    const list = (await client.get('/api/service-requests')).body as ServiceRequestPage;
    expect(list.items[0]).toMatchObject({ customerName: 'Walk In', source: 'public', createdBy: 'Public request page', status: 'open' });
    expect((await client.get('/api/service-requests/summary')).body).toEqual({ open: 1, newPublic: 1 });
    // Acting on it (any edit) makes it no longer new.
    await client.put(`/api/service-requests/${list.items[0]!.id}`, { additionalNotes: 'Called back' });
    expect((await client.get('/api/service-requests/summary')).body).toEqual({ open: 1, newPublic: 0 });

    // The page needs the service requests feature too.
    await provider.put(`/api/crm-instances/${id}`, { features: { serviceRequests: false } });
    expect((await visitor.get('/api/public/srpublic/request-page')).body.enabled).toBe(false);
    expectProblem(await visitor.post(publicUrl('srpublic'), REQUEST, { 'X-Forwarded-For': '203.0.113.2' }), 404);
  });

  test('validation: name and email are needed, with the form messages', async () => {
    const { id, provider } = await freshShop('srpubval');
    await setPublic(provider, id, true);
    const visitor = new ApiClient(server.url);
    const headers = { 'X-Forwarded-For': '198.51.100.7' };
    expectProblem(await visitor.post(publicUrl('srpubval'), { contactEmail: 'a@b.co' }, headers), 400, 'Please enter your name');
    expectProblem(
      await visitor.post(publicUrl('srpubval'), { customerName: 'A', contactEmail: 'nope' }, headers),
      400,
      'If provided, email must be valid',
    );
  });

  test('a filled honeypot gets a receipt and records nothing', async () => {
    const { id, client, provider } = await freshShop('srhoney');
    await setPublic(provider, id, true);
    const bot = new ApiClient(server.url);
    const res = await bot.post(publicUrl('srhoney'), { ...REQUEST, website: 'http://spam.example' }, { 'X-Forwarded-For': '192.0.2.50' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ received: true });
    expect(((await client.get('/api/service-requests')).body as ServiceRequestPage).total).toBe(0);
  });

  test('rate limits: 5 per IP, 30 addresses per shop, in a window; 429 with Retry-After', async () => {
    const { id, client, provider } = await freshShop('srlimit');
    await setPublic(provider, id, true);
    const visitor = new ApiClient(server.url);
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });
    for (let i = 0; i < 5; i++) {
      expect((await visitor.post(publicUrl('srlimit'), { ...REQUEST, customerName: `Same IP ${i}` }, from('10.1.0.1'))).status).toBe(201);
    }
    const refused = await visitor.post(publicUrl('srlimit'), REQUEST, from('10.1.0.1'));
    expectProblem(refused, 429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other visitors still get through, up to the shop's limit: 30 addresses in the window.
    for (let i = 0; i < 29; i++) {
      const res = await visitor.post(publicUrl('srlimit'), { ...REQUEST, customerName: `Visitor ${i}` }, from(`10.2.0.${i + 1}`));
      expect(res.status, res.text).toBe(201);
    }
    expectProblem(await visitor.post(publicUrl('srlimit'), REQUEST, from('10.3.0.1')), 429);
    // An address already heard from is held to its own limit only.
    expect((await visitor.post(publicUrl('srlimit'), { ...REQUEST, customerName: 'Visitor again' }, from('10.2.0.1'))).status).toBe(201);
    expect(((await client.get('/api/service-requests')).body as ServiceRequestPage).total).toBe(35);
    // Another shop is not affected by this one's flood.
    const { id: otherId, provider: p2 } = await freshShop('srlimit2');
    await setPublic(p2, otherId, true);
    expect((await visitor.post(publicUrl('srlimit2'), REQUEST, from('10.4.0.1'))).status).toBe(201);
  });

  test("junk counts against its own address only: 30 junk posts from 6 addresses leave the shop's page open", async () => {
    const { id, client, provider } = await freshShop('srjunk');
    await setPublic(provider, id, true);
    const visitor = new ApiClient(server.url);
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });
    for (let address = 1; address <= 6; address++) {
      for (let i = 0; i < 5; i++) {
        const junk = i % 2 === 0 ? { ...REQUEST, website: 'http://spam.example' } : { customerName: 'Bad', contactEmail: 'not-an-email' };
        expect((await visitor.post(publicUrl('srjunk'), junk, from(`10.9.0.${address}`))).status).toBeLessThan(429);
      }
      // That address has used up its own window.
      expectProblem(await visitor.post(publicUrl('srjunk'), REQUEST, from(`10.9.0.${address}`)), 429);
    }
    const real = await visitor.post(publicUrl('srjunk'), { ...REQUEST, customerName: 'Real Customer' }, from('10.9.1.1'));
    expect(real.status, real.text).toBe(201);
    const stored = (await client.get('/api/service-requests')).body as ServiceRequestPage;
    expect(stored.items.map((r) => r.customerName)).toEqual(['Real Customer']);
  });

  test("a flood of real requests from 6 addresses (30 stored) leaves the shop's page open to a new visitor", async () => {
    const { id, client, provider } = await freshShop('srflood');
    await setPublic(provider, id, true);
    const visitor = new ApiClient(server.url);
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });
    for (let address = 1; address <= 6; address++) {
      for (let i = 0; i < 5; i++) {
        const res = await visitor.post(
          publicUrl('srflood'),
          { ...REQUEST, customerName: `Flood ${address}-${i}` },
          from(`10.8.0.${address}`),
        );
        expect(res.status, res.text).toBe(201);
      }
      expectProblem(await visitor.post(publicUrl('srflood'), REQUEST, from(`10.8.0.${address}`)), 429);
    }
    const real = await visitor.post(publicUrl('srflood'), { ...REQUEST, customerName: 'Real Customer' }, from('10.8.1.1'));
    expect(real.status, real.text).toBe(201);
    expect(((await client.get('/api/service-requests')).body as ServiceRequestPage).total).toBe(31);
  });
});
