import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CustomerHistoryEntry, type CustomerPage, type CustomerView } from '@crm/projections/customers';
import { maskPhone } from '@crm/projections/shared';
import { toCustomerView, type CustomerRow } from '../../src/customers/customer-queries.ts';
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
  server = await startTestServer();
  shop = await createTestInstance(server, 'custshop', { username: 'owner', pin: '1234' });
  other = await createTestInstance(server, 'custother', { username: 'owner', pin: '4321' });
  owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  otherOwner = await signInUser(server, other.subdomain, 'owner', '4321');
});
afterAll(async () => {
  await server?.stop();
});

async function create(client: ApiClient, body: Record<string, unknown>, base = '/api/customers'): Promise<CustomerView> {
  const res = await client.post(base, body);
  expect(res.status, res.text).toBe(201);
  return res.body as CustomerView;
}

/** A fresh instance with its owner signed in: lists and numbers start from nothing. */
async function freshShop(subdomain: string) {
  await createTestInstance(server, subdomain, { username: 'owner', pin: '1111' });
  return await signInUser(server, subdomain, 'owner', '1111');
}

function expectProblem(res: ApiResponse, status: number, message: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status, message, detail: message });
}

describe('creating customers', () => {
  test('answers 201 with the projected customer: whole phone, both vehicle forms, number, who and when', async () => {
    const client = await freshShop('custcreate');
    const res = await client.post('/api/customers', {
      name: '  Jane Doe ',
      phone: '(555) 123-4567',
      email: 'jane@example.com',
      address: '1 Main St',
      vehicles: ['2019 Honda Civic', '2019 HONDA CIVIC', '2020 Ford F-150'],
      pastAppointments: 'Civic, Oil change, 2024-01-05',
      invoices: 'INV-1, INV-2, INV-1',
      notes: 'Prefers mornings',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      number: 1,
      name: 'Jane Doe',
      phone: '555-123-4567',
      email: 'jane@example.com',
      address: '1 Main St',
      vehicles: '2019 Honda Civic, 2020 Ford F-150',
      vehicleList: ['2019 Honda Civic', '2020 Ford F-150'],
      pastAppointments: 'Civic, Oil change, 2024-01-05',
      invoices: 'INV-1, INV-2',
      notes: 'Prefers mornings',
      createdAt: expect.any(String),
      createdBy: 'Owner',
      lastModifiedAt: res.body.createdAt,
      lastModifiedBy: 'Owner',
      revision: 0,
    });
    expect(res.headers.get('etag')).toBe('"0"');
    // Read-your-writes: the list has it at once.
    const list = await client.get('/api/customers');
    expect(list.body.items.map((c: CustomerView) => c.id)).toEqual([res.body.id]);
  });

  test('numbers count up per instance, also when created at the same moment', async () => {
    const client = await freshShop('custnumbers');
    const first = await create(client, { name: 'First' });
    expect(first.number).toBe(1);
    const many = await Promise.all(Array.from({ length: 8 }, (_, i) => create(client, { name: `Parallel ${i}` })));
    expect(many.map((c) => c.number).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    // Another instance starts at 1 again.
    expect((await create(await freshShop('custnumbers2'), { name: 'Elsewhere' })).number).toBe(1);
    // A deleted customer's number is not handed out again.
    const last = many.find((c) => c.number === 9)!;
    expect((await client.delete(`/api/customers/${last.id}`)).status).toBe(200);
    expect((await create(client, { name: 'After delete' })).number).toBe(10);
  });

  test.each([
    [{}, 'At least one field must be filled out'],
    [{ name: '  ', phone: '', vehicles: [] }, 'At least one field must be filled out'],
    [{ name: 'A', phone: '555-123-45678' }, 'Phone number must be at most 10 digits'],
    [{ name: 'A', phone: 'call me' }, 'Phone number must contain only digits'],
    [{ name: 'A', email: 'nope' }, 'Email must be valid'],
    [{ name: 'x'.repeat(201) }, 'Name must be at most 200 characters'],
    [{ name: 'A', notes: 'x'.repeat(5001) }, 'Notes must be at most 5000 characters'],
    [{ name: 'A', vehicles: ['y'.repeat(101)] }, 'Each vehicle must be at most 100 characters'],
    [{ name: 'A', invoices: { a: 1 } }, 'Invoices must be text or a list of text'],
    [[1, 2], 'The request body must be a JSON object'],
  ])('bad input %j is a 400 with the message %s', async (body, message) => {
    const res = await owner.post('/api/customers', body);
    expectProblem(res, 400, message);
  });

  test('the at-least-one rule names the name field, as the form shows it there', async () => {
    const res = await owner.post('/api/customers', {});
    expect(res.body.errors).toEqual([{ field: 'name', message: 'At least one field must be filled out' }]);
  });

  test('the instance comes from the session, never from the body: a body naming one is a 400 naming the fields', async () => {
    const res = await owner.post('/api/customers', { name: 'Body says other', instanceId: other.id, crmInstanceId: other.id });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'instanceId', message: 'Unknown field: instanceId' },
      { field: 'crmInstanceId', message: 'Unknown field: crmInstanceId' },
    ]);
    const created = await create(owner, { name: 'Body says own' });
    expect((await owner.get(`/api/customers/${created.id}`)).status).toBe(200);
    expect((await otherOwner.get(`/api/customers/${created.id}`)).status).toBe(404);
  });

  test('a misspelled field is a 400 naming it, and nothing is saved', async () => {
    const res = await owner.post('/api/customers', { name: 'Typo Tom', phoen: '5551234567' });
    expect(res.status, res.text).toBe(400);
    expect(res.body.message).toBe('Unknown field: phoen');
    const found = await owner.get('/api/customers?q=Typo%20Tom');
    expect(found.body.total).toBe(0);
  });
});

describe('reading customers', () => {
  test('lists mask phones; the single record shows the whole number', async () => {
    const client = await freshShop('custmask');
    const created = await create(client, { name: 'Masked', phone: '5551234567' });
    const short = await create(client, { name: 'Short', phone: '12345' });
    const list = (await client.get('/api/customers')).body as CustomerPage;
    expect(list.items.find((c) => c.id === created.id)?.phone).toBe('•••-•••-4567');
    expect(list.items.find((c) => c.id === short.id)?.phone).toBe('•••-•••-2345');
    expect(JSON.stringify(list)).not.toContain('5551234567');
    expect((await client.get(`/api/customers/${created.id}`)).body.phone).toBe('555-123-4567');
    expect((await client.get(`/api/customers/${short.id}`)).body.phone).toBe('12345');
    const suggestions = await client.get('/api/customers/search?query=mask');
    expect(suggestions.body).toEqual([{ id: created.id, number: created.number, name: 'Masked', phone: '•••-•••-4567', vehicles: [] }]);
  });

  test('an unknown id, or one that is no id at all, is a 404', async () => {
    expectProblem(await owner.get('/api/customers/00000000-0000-4000-8000-000000000000'), 404, 'Customer not found');
    expectProblem(await owner.get('/api/customers/42'), 404, 'Customer not found');
    expectProblem(await owner.get('/api/customers/42/history'), 404, 'Customer not found');
  });

  test('every answer says no-store', async () => {
    expect((await owner.get('/api/customers')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('search', () => {
  let client: ApiClient;
  let jane: CustomerView;
  let bob: CustomerView;
  let carla: CustomerView;

  beforeAll(async () => {
    client = await freshShop('custsearch');
    jane = await create(client, { name: 'Jane Doe', phone: '555-123-4567', email: 'jane@example.com', vehicles: '2019 Honda Civic' });
    bob = await create(client, { name: 'Bob Stone', phone: '555-987-6543', address: '12 Elm Road', vehicles: 'Ford F-150, Jeep Wrangler' });
    carla = await create(client, { name: 'Carla 100% Real_Name', phone: '', email: 'carla@shop.io' });
  });

  const ids = (res: ApiResponse<CustomerPage>) => res.body.items.map((c) => c.id);

  test.each([
    ['name, any case', 'jANE', () => [jane.id]],
    ['phone digits', '9876', () => [bob.id]],
    ['phone as typed with dashes', '555-987', () => [bob.id]],
    ['phone with parentheses', '(555) 123', () => [jane.id]],
    ['shared digits', '555', () => [bob.id, jane.id]],
    ['email', 'example.com', () => [jane.id]],
    ['address', 'elm road', () => [bob.id]],
    ['vehicles', 'wrangler', () => [bob.id]],
    ['LIKE wildcards are plain characters', '100%', () => [carla.id]],
    ['an underscore too', 'real_n', () => [carla.id]],
    ['nothing', 'zebra', () => []],
  ])('q= finds by %s', async (_label, q, expected) => {
    const res = await client.get<CustomerPage>(`/api/customers?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expected());
    expect(res.body.total).toBe(expected().length);
  });

  test('no q lists everyone, newest first, with the total', async () => {
    const res = await client.get<CustomerPage>('/api/customers');
    expect(ids(res)).toEqual([carla.id, bob.id, jane.id]);
    expect(res.body).toMatchObject({ total: 3, nextCursor: null });
  });

  test('the autocomplete answers the top matches with masked phones and a vehicle array', async () => {
    const res = await client.get('/api/customers/search?query=stone');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: bob.id, number: bob.number, name: 'Bob Stone', phone: '•••-•••-6543', vehicles: ['Ford F-150', 'Jeep Wrangler'] },
    ]);
    expect((await client.get('/api/customers/search?q=555')).body).toHaveLength(2);
    expect((await client.get('/api/customers/search?query=')).body).toEqual([]);
    expect((await client.get('/api/customers/search')).body).toEqual([]);
  });

  test('the autocomplete stops at 10', async () => {
    const many = await freshShop('custsuggest');
    await Promise.all(Array.from({ length: 12 }, (_, i) => create(many, { name: `Smith ${i}` })));
    expect((await many.get('/api/customers/search?query=smith')).body).toHaveLength(10);
  });

  test('search text longer than 200 characters is a 400', async () => {
    expectProblem(await client.get(`/api/customers?q=${'a'.repeat(201)}`), 400, 'Search text must be at most 200 characters');
  });
});

describe('the JSON PostgreSQL builds', () => {
  test('the list and the autocomplete answer what their rows map to in JS: masked phones, vehicle lists, times', async () => {
    const json = await createTestInstance(server, 'custjson', { username: 'owner', pin: '1111' });
    const client = await signInUser(server, 'custjson', 'owner', '1111');
    const ann = await create(client, { name: 'Json Ann', phone: '6175551234', vehicles: '2019 Honda Civic' });
    const bob = await create(client, { name: 'Json Bob', phone: '6175550000' });
    await create(client, { name: 'Json Cy', vehicles: ['A', 'B'] });
    // Values no form writes, straight into the read model: every white space String#trim
    // strips around vehicles, empty items, a phone of few or no digits, quotes, a new line,
    // non-ASCII text, a time with microseconds.
    const knex = server.runtime.deps.knex;
    await knex('rm.customers')
      .where({ id: ann.id })
      .update({ vehicles: ' a ,\u00a0b\u3000, ,c\t,\ufeff,\u2028d\u202f', phone: '(617) 55', created_at: '2025-05-01T07:00:00.123999Z' });
    await knex('rm.customers').where({ id: bob.id }).update({ vehicles: '', phone: 'none', name: 'Json "Bob"\n😀 é' });
    const rows = (await knex('rm.customers')
      .where({ instance_id: json.id })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])) as CustomerRow[];
    // A list's vehicleList is the card's, kept on the row by the projection (the text changed
    // straight in the read model above is not the projection's): the vehicles typed at creation,
    // each read through the record it became.
    const cardOf = (row: CustomerRow) => (row as CustomerRow & { vehicle_list: string[] }).vehicle_list;
    expect(rows.map(cardOf)).toEqual([['A', 'B'], [], ['2019 Honda Civic']]);
    const views = rows.map((row) => ({ ...toCustomerView(row, 'masked'), vehicleList: cardOf(row) }));

    const list = await client.get('/api/customers');
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual({ items: views, nextCursor: null, total: 3 });
    const first = await client.get('/api/customers?limit=2');
    expect(first.body).toEqual({ items: views.slice(0, 2), nextCursor: expect.any(String), total: 3 });
    const second = await client.get(`/api/customers?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ items: views.slice(2), nextCursor: null, total: 3 });
    const searched = await client.get('/api/customers?q=json');
    expect(searched.body).toEqual({ items: views, nextCursor: null, total: 3 });

    const suggestions = await client.get('/api/customers/search?q=json');
    expect(suggestions.status, suggestions.text).toBe(200);
    expect(suggestions.body).toEqual(
      rows.map((row) => ({
        id: row.id,
        number: row.number,
        name: row.name,
        phone: maskPhone(row.phone),
        vehicles: cardOf(row),
      })),
    );
    expect((await client.get('/api/customers/search?q=nobody-at-all')).body).toEqual([]);
  });
});

describe('pagination', () => {
  let client: ApiClient;
  let all: CustomerView[];

  beforeAll(async () => {
    client = await freshShop('custpages');
    all = [];
    for (let i = 0; i < 7; i++) all.push(await create(client, { name: `Page ${i}`, vehicles: i % 2 ? 'Civic' : 'Accord' }));
    all.reverse(); // newest first
  });

  async function walk(query: string): Promise<{ pages: CustomerView[][]; totals: number[] }> {
    const pages: CustomerView[][] = [];
    const totals: number[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse<CustomerPage> = await client.get(
        `/api/customers?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status, res.text).toBe(200);
      pages.push(res.body.items);
      totals.push(res.body.total);
      cursor = res.body.nextCursor;
    } while (cursor && pages.length < 20);
    return { pages, totals };
  }

  test('keyset pages cover everyone once, in order, without gaps', async () => {
    const { pages, totals } = await walk('limit=3');
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((c) => c.id)).toEqual(all.map((c) => c.id));
    expect(totals).toEqual([7, 7, 7]);
  });

  test('a page boundary on the last item ends with a null cursor', async () => {
    const { pages } = await walk('limit=7');
    expect(pages.map((p) => p.length)).toEqual([7]);
  });

  test('paging a search', async () => {
    const { pages, totals } = await walk('limit=2&q=civic');
    expect(pages.flat().map((c) => c.name)).toEqual(all.filter((c) => c.vehicles === 'Civic').map((c) => c.name));
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    expect(totals[0]).toBe(3);
  });

  test('a customer created while paging does not shift the pages already being read', async () => {
    const first = (await client.get<CustomerPage>('/api/customers?limit=3')).body;
    const added = await create(client, { name: 'Late arrival' });
    const second = (await client.get<CustomerPage>(`/api/customers?limit=3&cursor=${encodeURIComponent(first.nextCursor!)}`)).body;
    expect(second.items.map((c) => c.id)).toEqual(all.slice(3, 6).map((c) => c.id));
    expect(second.total).toBe(8);
    expect((await client.delete(`/api/customers/${added.id}`)).status).toBe(200);
  });

  test('the default page is 50', async () => {
    const res = await client.get<CustomerPage>('/api/customers');
    expect(res.body.items).toHaveLength(7);
    expect(res.body.nextCursor).toBeNull();
  });

  test.each([
    ['limit=0', 'limit must be a whole number from 1 to 200'],
    ['limit=201', 'limit must be a whole number from 1 to 200'],
    ['limit=abc', 'limit must be a whole number from 1 to 200'],
    ['limit=2.5', 'limit must be a whole number from 1 to 200'],
    ['limit=1&limit=2', 'limit must be given once'],
    ['cursor=garbage', 'Invalid cursor: pass back the nextCursor of the previous page'],
    [`cursor=${Buffer.from('["not a date","x"]').toString('base64url')}`, 'Invalid cursor: pass back the nextCursor of the previous page'],
  ])('%s is a 400', async (query, message) => {
    expectProblem(await client.get(`/api/customers?${query}`), 400, message);
  });
});

describe('updating, history and time travel', () => {
  test('a PUT changes the fields it names, answers with the projected customer, and history shows old → new', async () => {
    const client = await freshShop('custhistory');
    const created = await create(client, { name: 'Hank', phone: '5550001111', vehicles: 'Civic' });
    await sleep(5);
    const res = await client.put(`/api/customers/${created.id}`, { phone: '555-000-2222', vehicles: ['Civic', 'Accord'], notes: 'VIP' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      number: created.number,
      name: 'Hank',
      phone: '555-000-2222',
      vehicles: 'Civic, Accord',
      vehicleList: ['Civic', 'Accord'],
      notes: 'VIP',
      createdAt: created.createdAt,
      createdBy: 'Owner',
      lastModifiedBy: 'Owner',
    });
    expect(Date.parse(res.body.lastModifiedAt)).toBeGreaterThan(Date.parse(created.createdAt));

    // The same values again change nothing and add no history.
    expect((await client.put(`/api/customers/${created.id}`, { phone: '5550002222', name: 'Hank' })).status).toBe(200);

    const history = await client.get<CustomerHistoryEntry[]>(`/api/customers/${created.id}/history`);
    expect(history.status).toBe(200);
    expect(history.body).toEqual([
      {
        id: expect.any(String),
        action: 'updated',
        userDisplayName: 'Owner',
        timestamp: res.body.lastModifiedAt,
        revision: 1,
        changes: [
          { field: 'phone', oldValue: '555-000-1111', newValue: '555-000-2222' },
          { field: 'vehicles', oldValue: 'Civic', newValue: 'Civic, Accord' },
          { field: 'notes', oldValue: '', newValue: 'VIP' },
        ],
        // The owner (an admin) may revert a change; a creation is no change of fields.
        canRevert: true,
        revertOf: null,
      },
      {
        id: expect.any(String),
        action: 'created',
        userDisplayName: 'Owner',
        timestamp: created.createdAt,
        revision: 0,
        canRevert: false,
        changes: [
          { field: 'name', oldValue: null, newValue: 'Hank' },
          { field: 'phone', oldValue: null, newValue: '555-000-1111' },
          { field: 'vehicles', oldValue: null, newValue: 'Civic' },
        ],
      },
    ]);
    // Each row's revision opens the customer right after that change.
    const first = await client.get(`/api/customers/${created.id}?asOfRevision=0`);
    expect(first.body).toMatchObject({ phone: '555-000-1111', notes: '' });
    expect(first.headers.get('etag')).toBeNull();
    expect((await client.get(`/api/customers/${created.id}?asOfRevision=1`)).body).toMatchObject({ phone: '555-000-2222', notes: 'VIP' });
  });

  test('PUT with the whole record as its body works, and clearing everything is refused', async () => {
    const created = await create(owner, { name: 'Whole', phone: '5551112222' });
    const whole = { ...created, name: 'Whole Record', phone: '555-111-2222' };
    const res = await owner.put(`/api/customers/${created.id}`, whole);
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe('Whole Record');
    expectProblem(
      await owner.put(`/api/customers/${created.id}`, {
        name: '',
        phone: null,
        email: '',
        address: '',
        vehicles: [],
        pastAppointments: '',
        invoices: '',
        notes: '',
      }),
      400,
      'At least one field must be filled out',
    );
    expectProblem(await owner.put(`/api/customers/${created.id}`, { email: 'bad' }), 400, 'Email must be valid');
    // A masked phone sent back from a list is refused rather than stored.
    expectProblem(await owner.put(`/api/customers/${created.id}`, { phone: '•••-•••-2222' }), 400, 'Phone number must contain only digits');
  });

  test('asOf shows the customer as it was at each moment of its history', async () => {
    const client = await freshShop('custasof');
    const created = await create(client, { name: 'Ivy', address: 'Old Street 1' });
    await sleep(5);
    const moved = (await client.put(`/api/customers/${created.id}`, { address: 'New Street 2' })).body as CustomerView;
    await sleep(5);
    await client.put(`/api/customers/${created.id}`, { name: 'Ivy Green' });

    const history = (await client.get<CustomerHistoryEntry[]>(`/api/customers/${created.id}/history`)).body;
    const [renamed, relocated, born] = history;
    const asOf = (at: string) => client.get<CustomerView>(`/api/customers/${created.id}?asOf=${encodeURIComponent(at)}`);

    expect((await asOf(born!.timestamp)).body).toMatchObject({ name: 'Ivy', address: 'Old Street 1', lastModifiedAt: created.createdAt });
    expect((await asOf(relocated!.timestamp)).body).toMatchObject({
      name: 'Ivy',
      address: 'New Street 2',
      lastModifiedAt: moved.lastModifiedAt,
    });
    expect((await asOf(renamed!.timestamp)).body).toMatchObject({ name: 'Ivy Green', address: 'New Street 2' });
    expect((await asOf(new Date(Date.parse(relocated!.timestamp) - 1).toISOString())).body.address).toBe('Old Street 1');
    expect((await asOf('2999-01-01T00:00:00Z')).body.name).toBe('Ivy Green');

    expectProblem(await asOf(new Date(Date.parse(born!.timestamp) - 1).toISOString()), 404, 'Customer not found');
    expectProblem(
      await asOf('yesterday'),
      400,
      'asOf must be an ISO 8601 date and time with a time zone offset, e.g. 2025-01-31T14:00:00Z or 2025-01-31T16:00:00+02:00',
    );
    expectProblem(
      await asOf('2025-13-45T99:00:00Z'),
      400,
      'asOf must be an ISO 8601 date and time with a time zone offset, e.g. 2025-01-31T14:00:00Z or 2025-01-31T16:00:00+02:00',
    );
  });
});

describe('one concurrency policy: If-Match on saves', () => {
  const STALE = 'This customer was changed by someone else. Reload it and try again.';

  test('GET gives the revision as ETag and in the body; list items carry it too', async () => {
    const created = await create(owner, { name: 'Etag Ella' });
    const res = await owner.get(`/api/customers/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.revision).toBe(0);
    expect(res.headers.get('etag')).toBe('"0"');
    const list = (await owner.get<CustomerPage>('/api/customers?q=Etag%20Ella')).body;
    expect(list.items).toEqual([expect.objectContaining({ id: created.id, revision: 0 })]);
    // A past version is nothing to save over: no ETag.
    const past = await owner.get(`/api/customers/${created.id}?asOf=2999-01-01T00:00:00Z`);
    expect(past.status).toBe(200);
    expect(past.headers.get('etag')).toBeNull();
  });

  test('a matching If-Match saves (200, the next ETag); a stale one is a 409 with the customer as it is now, and changes nothing', async () => {
    const created = await create(owner, { name: 'Concurrent Carl', phone: '5550101010', notes: 'first' });
    const mine = await owner.put(`/api/customers/${created.id}`, { notes: 'second' }, { 'if-match': '"0"' });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toMatchObject({ notes: 'second', revision: 1 });
    expect(mine.headers.get('etag')).toBe('"1"');

    // A colleague still holding revision 0 saves another field: refused, whatever field it is.
    const stale = await owner.put(`/api/customers/${created.id}`, { address: 'Elsewhere 9' }, { 'if-match': '"0"' });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.headers.get('content-type')).toContain('application/problem+json');
    expect(stale.body).toMatchObject({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: STALE,
      message: STALE,
      current: { id: created.id, name: 'Concurrent Carl', phone: '555-010-1010', notes: 'second', address: '', revision: 1 },
    });
    expect((await owner.get(`/api/customers/${created.id}`)).body).toMatchObject({ address: '', notes: 'second', revision: 1 });
    expect((await owner.get(`/api/customers/${created.id}/history`)).body).toHaveLength(2);

    // Loading the current version (its ETag) lets the save through; W/"1" and a bare 1 are the same ETag.
    const again = await owner.put(`/api/customers/${created.id}`, { address: 'Elsewhere 9' }, { 'if-match': 'W/"1"' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ address: 'Elsewhere 9', notes: 'second', revision: 2 });
    expect((await owner.put(`/api/customers/${created.id}`, { notes: 'third' }, { 'if-match': '2' })).status).toBe(200);
  });

  test('without If-Match (or with *) a save works as before: each field, last save wins', async () => {
    const created = await create(owner, { name: 'Lastwrite Lou' });
    expect((await owner.put(`/api/customers/${created.id}`, { notes: 'a' })).status).toBe(200);
    const res = await owner.put(`/api/customers/${created.id}`, { address: 'b' }, { 'if-match': '*' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ notes: 'a', address: 'b', revision: 2 });
    expect(res.headers.get('etag')).toBe('"2"');
  });

  test("an If-Match that is no ETag of ours is a 400; another instance's customer is a 404 whatever the header", async () => {
    const created = await create(owner, { name: 'Header Hal' });
    expectProblem(
      await owner.put(`/api/customers/${created.id}`, { notes: 'x' }, { 'if-match': 'yesterday' }),
      400,
      'If-Match must be the ETag this API gave out, like "3"',
    );
    expectProblem(await otherOwner.put(`/api/customers/${created.id}`, { notes: 'x' }, { 'if-match': '"5"' }), 404, 'Customer not found');
    expectProblem(await otherOwner.put(`/api/customers/${created.id}`, { notes: 'x' }, { 'if-match': '"0"' }), 404, 'Customer not found');
    expect((await owner.get(`/api/customers/${created.id}`)).body).toMatchObject({ notes: '', revision: 0 });
  });
});

describe('asOf: one format, the recorded clock', () => {
  test('a time with an offset is the same moment in any zone; a zoneless time or a date alone is a 400 naming the format', async () => {
    const created = await create(owner, { name: 'Zoned Zoe' });
    const at = new Date(Date.parse(created.createdAt) + 60_000);
    const plusTwo = new Date(at.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const res = await owner.get(`/api/customers/${created.id}?asOf=${encodeURIComponent(plusTwo)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe('Zoned Zoe');
    const format = 'asOf must be an ISO 8601 date and time with a time zone offset, e.g. 2025-01-31T14:00:00Z or 2025-01-31T16:00:00+02:00';
    expectProblem(await owner.get(`/api/customers/${created.id}?asOf=${at.toISOString().slice(0, 19)}`), 400, format);
    expectProblem(await owner.get(`/api/customers/${created.id}?asOf=${at.toISOString().slice(0, 10)}`), 400, format);
    expectProblem(await owner.get(`/api/customers/${created.id}?asOf=a&asOf=b`), 400, 'asOf must be given once');
  });

  test("a history row's time is when the event store recorded it, and asOf that time shows the customer right after it", async () => {
    const created = await create(owner, { name: 'Recorded Rita' });
    await sleep(5);
    await owner.put(`/api/customers/${created.id}`, { name: 'Recorded Rita Two' });
    const recorded = await server.runtime.deps.store.readStream(`customer-${created.id}`);
    const history = (await owner.get<CustomerHistoryEntry[]>(`/api/customers/${created.id}/history`)).body;
    expect(history.map((h) => h.timestamp)).toEqual(recorded.map((e) => e.recordedAt.toISOString()).reverse());
    const at = (time: string) => owner.get<CustomerView>(`/api/customers/${created.id}?asOf=${encodeURIComponent(time)}`);
    expect((await at(history[1]!.timestamp)).body.name).toBe('Recorded Rita');
    expect((await at(history[0]!.timestamp)).body).toMatchObject({ name: 'Recorded Rita Two', revision: 1 });
  });
});

describe('deleting', () => {
  test('answers deleted with the jobs deleted; the customer is gone but its history and past remain', async () => {
    const client = await freshShop('custdelete');
    const keep = await create(client, { name: 'Keep' });
    const gone = await create(client, { name: 'Gone', phone: '5554443333' });
    await sleep(5);
    const res = await client.delete(`/api/customers/${gone.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, jobsDeleted: 0 });

    expectProblem(await client.get(`/api/customers/${gone.id}`), 404, 'Customer not found');
    expectProblem(await client.put(`/api/customers/${gone.id}`, { name: 'Back' }), 404, 'Customer not found');
    expectProblem(await client.delete(`/api/customers/${gone.id}`), 404, 'Customer not found');
    const list = (await client.get<CustomerPage>('/api/customers')).body;
    expect(list.items.map((c) => c.id)).toEqual([keep.id]);
    expect(list.total).toBe(1);
    expect((await client.get('/api/customers/search?query=gone')).body).toEqual([]);

    const history = (await client.get<CustomerHistoryEntry[]>(`/api/customers/${gone.id}/history`)).body;
    expect(history.map((h) => h.action)).toEqual(['deleted', 'created']);
    expect(history[0]).toMatchObject({ userDisplayName: 'Owner', changes: [] });
    // Time travel still reaches back to before the deletion.
    const before = await client.get(`/api/customers/${gone.id}?asOf=${encodeURIComponent(gone.createdAt)}`);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ name: 'Gone', phone: '555-444-3333' });
    expectProblem(
      await client.get(`/api/customers/${gone.id}?asOf=${encodeURIComponent(history[0]!.timestamp)}`),
      404,
      'Customer not found',
    );
  });
});

describe('deleting a customer with jobs', () => {
  test("deletes the customer's jobs too, counts them, and leaves other customers' jobs alone", async () => {
    const client = await freshShop('custcascade');
    const doomed = await create(client, { name: 'Doomed', phone: '5551231234' });
    const spared = await create(client, { name: 'Spared' });
    const job = async (body: Record<string, unknown>) => {
      const res = await client.post('/api/user-info', body);
      expect(res.status, res.text).toBe(201);
      return res.body as { id: string; customerId: string | null };
    };
    const first = await job({ name: 'Doomed', part: 'Brake pads', customerId: doomed.id });
    const second = await job({ name: 'Doomed', part: 'Rotors', customerId: doomed.id });
    const other = await job({ name: 'Spared', part: 'Oil', customerId: spared.id });

    const res = await client.delete(`/api/customers/${doomed.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, jobsDeleted: 2 });
    expect((await client.get(`/api/customers/${doomed.id}`)).status).toBe(404);
    // Read-your-writes covers the jobs as well.
    expect((await client.get(`/api/user-info/${first.id}`)).status).toBe(404);
    expect((await client.get(`/api/user-info/${second.id}`)).status).toBe(404);
    expect((await client.get(`/api/user-info/${other.id}`)).status).toBe(200);
  });

  test('a job saved with a new name creates the customer, who then shows in the list', async () => {
    const client = await freshShop('custfromjob');
    const res = await client.post('/api/user-info', { name: 'Walk In', phone: '555-321-9876', makeModel: '2018 Mazda 3', part: 'Tyres' });
    expect(res.status, res.text).toBe(201);
    const list = (await client.get<CustomerPage>('/api/customers')).body;
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      id: res.body.customerId,
      number: 1,
      name: 'Walk In',
      phone: '•••-•••-9876',
      vehicleList: ['2018 Mazda 3'],
    });
  });
});

describe('permissions', () => {
  let readOnly: ApiClient;
  let staff: ApiClient;
  let customer: CustomerView;

  beforeAll(async () => {
    const ro = await owner.post('/api/admin/users', { username: 'reader', pin: '2222' });
    expect(ro.status).toBe(201);
    expect((await owner.patch(`/api/admin/users/${ro.body.id}/permissions`, { canWrite: false })).status).toBe(200);
    readOnly = await signInUser(server, shop.subdomain, 'reader', '2222');
    // Role user: read and write, no delete.
    expect((await owner.post('/api/admin/users', { username: 'staffer', pin: '3333' })).status).toBe(201);
    staff = await signInUser(server, shop.subdomain, 'staffer', '3333');
    customer = await create(owner, { name: 'Guarded', phone: '5556667777' });
  });

  test('a read-only user reads but cannot create or change', async () => {
    expect((await readOnly.get('/api/customers')).status).toBe(200);
    expect((await readOnly.get(`/api/customers/${customer.id}`)).status).toBe(200);
    expect((await readOnly.get(`/api/customers/${customer.id}/history`)).status).toBe(200);
    expect((await readOnly.get('/api/customers/search?query=guard')).status).toBe(200);
    expectProblem(await readOnly.post('/api/customers', { name: 'Nope' }), 403, 'You do not have permission to do this');
    expectProblem(await readOnly.put(`/api/customers/${customer.id}`, { name: 'Nope' }), 403, 'You do not have permission to do this');
    expectProblem(await readOnly.delete(`/api/customers/${customer.id}`), 403, 'You do not have permission to do this');
  });

  test('a user without canDelete writes but cannot delete', async () => {
    const mine = await create(staff, { name: 'Staff made' });
    expect(mine.createdBy).toBe('staffer');
    expect((await staff.put(`/api/customers/${mine.id}`, { notes: 'edited' })).status).toBe(200);
    expectProblem(await staff.delete(`/api/customers/${mine.id}`), 403, 'You do not have permission to do this');
    expect((await owner.get(`/api/customers/${mine.id}`)).status).toBe(200);
  });

  test('nobody signed in gets 401; the super admin is no instance user (403)', async () => {
    const anonymous = new ApiClient(server.url);
    expect((await anonymous.get('/api/customers')).status).toBe(401);
    expect((await anonymous.get(`/api/${shop.subdomain}/customers/${customer.id}`)).status).toBe(401);
    expect((await anonymous.post('/api/customers', { name: 'x' })).status).toBe(401);
    const superAdmin = await signInSuperAdmin(server);
    expect((await superAdmin.get('/api/customers')).status).toBe(403);
  });
});

describe('path families and tenant isolation', () => {
  let mine: CustomerView;
  let theirs: CustomerView;

  beforeAll(async () => {
    mine = await create(owner, { name: 'Family Mine', phone: '5551010101' });
    theirs = await create(otherOwner, { name: 'Family Theirs', phone: '5552020202' });
  });

  test('the instance path family is the same API on the session instance', async () => {
    const base = `/api/${shop.subdomain}/customers`;
    const created = await create(owner, { name: 'Via path', phone: '5553030303' }, base);
    expect((await owner.get(`${base}/${created.id}`)).body.phone).toBe('555-303-0303');
    expect((await owner.get(`${base}?q=via%20path`)).body.items.map((c: CustomerView) => c.id)).toEqual([created.id]);
    expect((await owner.get(`${base}/search?query=via`)).body[0].phone).toBe('•••-•••-0303');
    expect((await owner.put(`${base}/${created.id}`, { address: 'Path Lane' })).body.address).toBe('Path Lane');
    expect((await owner.get(`${base}/${created.id}/history`)).body).toHaveLength(2);
    // The slug matches in any case.
    expect((await owner.get(`/api/${shop.subdomain.toUpperCase()}/customers/${created.id}`)).status).toBe(200);
    expect((await owner.delete(`${base}/${created.id}`)).body).toEqual({ deleted: true, jobsDeleted: 0 });
    expect((await owner.get(`/api/customers/${created.id}`)).status).toBe(404);
  });

  test("another instance's customer is a 404 on every path of every family", async () => {
    const families = ['/api/customers', `/api/${shop.subdomain}/customers`];
    for (const base of families) {
      const calls: Array<Promise<ApiResponse>> = [
        owner.get(`${base}/${theirs.id}`),
        owner.get(`${base}/${theirs.id}?asOf=2999-01-01T00:00:00Z`),
        owner.get(`${base}/${theirs.id}/history`),
        owner.put(`${base}/${theirs.id}`, { name: 'Hijacked' }),
        owner.put(`${base}/${theirs.id}`, {}),
        owner.delete(`${base}/${theirs.id}`),
      ];
      for (const res of await Promise.all(calls)) {
        expectProblem(res, 404, 'Customer not found');
        expect(res.text).not.toContain('Family Theirs');
      }
    }
    // Naming the other instance in the path is a 404 whatever the id.
    for (const path of [
      `/api/${other.subdomain}/customers`,
      `/api/${other.subdomain}/customers/search?query=family`,
      `/api/${other.subdomain}/customers/${theirs.id}`,
      `/api/${other.subdomain}/customers/${mine.id}`,
      `/api/${other.subdomain}/customers/${theirs.id}/history`,
      '/api/maven/customers',
      `/api/maven/customers/${theirs.id}`,
    ]) {
      expect((await owner.get(path)).status, path).toBe(404);
    }
    expect((await owner.post(`/api/${other.subdomain}/customers`, { name: 'Planted' })).status).toBe(404);
    expect((await owner.put(`/api/${other.subdomain}/customers/${theirs.id}`, { name: 'Hijacked' })).status).toBe(404);
    expect((await owner.delete(`/api/${other.subdomain}/customers/${theirs.id}`)).status).toBe(404);
    expect((await owner.post('/api/maven/customers', { name: 'Planted' })).status).toBe(404);

    // Lists and search show nothing of the other instance.
    const list = await owner.get('/api/customers?q=family');
    expect(list.body.items.map((c: CustomerView) => c.name)).toEqual(['Family Mine']);
    expect((await owner.get('/api/customers/search?query=family')).body.map((c: { name: string }) => c.name)).toEqual(['Family Mine']);

    // And the other instance's customer came through untouched.
    const untouched = await otherOwner.get(`/api/customers/${theirs.id}`);
    expect(untouched.body).toMatchObject({ name: 'Family Theirs', phone: '555-202-0202' });
    expect((await otherOwner.get(`/api/customers/${theirs.id}/history`)).body).toHaveLength(1);
  });

  test('the maven family serves the provider instance to its own users', async () => {
    const superAdmin = await signInSuperAdmin(server);
    const maven = (await superAdmin.get('/api/crm-instances')).body.find((i: { subdomain: string }) => i.subdomain === 'maven');
    expect(maven).toBeTruthy();
    const added = await superAdmin.post(`/api/crm-instances/${maven.id}/users`, { username: 'mavenadmin', pin: '9090', role: 'admin' });
    expect(added.status, added.text).toBe(201);
    const mavenAdmin = await signInUser(server, 'maven', 'mavenadmin', '9090');

    // The maven variant's fields: name, email, phone, address, notes.
    const created = await create(
      mavenAdmin,
      { name: 'Maven Customer', email: 'm@maven.io', phone: '5557778888', address: 'HQ', notes: 'Fleet' },
      '/api/maven/customers',
    );
    expect(created.number).toBe(1);
    expect((await mavenAdmin.get('/api/maven/customers')).body.items.map((c: CustomerView) => c.id)).toEqual([created.id]);
    expect((await mavenAdmin.get(`/api/maven/customers/${created.id}`)).body.phone).toBe('555-777-8888');
    expect((await mavenAdmin.get('/api/maven/customers/search?query=fleet')).body).toEqual([]);
    expect((await mavenAdmin.put(`/api/maven/customers/${created.id}`, { notes: 'Fleet of 12' })).body.notes).toBe('Fleet of 12');
    expect((await mavenAdmin.get(`/api/maven/customers/${created.id}/history`)).body).toHaveLength(2);
    expect((await mavenAdmin.get(`/api/customers/${created.id}`)).status).toBe(200);
    // Other instances' ids mean nothing here either.
    expect((await mavenAdmin.get(`/api/maven/customers/${mine.id}`)).status).toBe(404);
    expect((await mavenAdmin.delete(`/api/maven/customers/${created.id}`)).body).toEqual({ deleted: true, jobsDeleted: 0 });
    expect((await mavenAdmin.get(`/api/maven/customers/${created.id}`)).status).toBe(404);
  });
});
