import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditEntry, AuditPage } from '@crm/projections/audit';
import type { JobView } from '@crm/projections/pipeline';
import { encodeCursor } from '@crm/projections/shared';
import { auditEntries } from '../../src/audit/audit-queries.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type ApiResponse, type TestServer } from '../support/server.ts';

// The clock moves a second per command: every event has its own time.
let tick = Date.parse('2025-05-01T08:00:00.000Z');
const now = () => new Date((tick += 1000));

let server: TestServer;
let admin: ApiClient;
let writer: ApiClient;
let manager: ApiClient;
let outsider: ApiClient;
let writerId: string;
let job: JobView;
let midpoint: string;
const responses: ApiResponse[] = [];

const A = '/api/admin/audit';

beforeAll(async () => {
  server = await startTestServer({}, { now });
  ApiClient.observer = (res) => void responses.push(res);
  await createTestInstance(server, 'auditshop');
  await createTestInstance(server, 'auditother');
  admin = await signInUser(server, 'auditshop', 'owner', '1234');
  const w = await admin.post('/api/admin/users', { username: 'writer', displayName: 'Wendy Writer', pin: '2222' });
  writerId = w.body.id;
  const m = await admin.post('/api/admin/users', { username: 'manager', displayName: 'Manny', pin: '4444' });
  expect((await admin.patch(`/api/admin/users/${m.body.id}/permissions`, { canManageUsers: true })).status).toBe(200);
  writer = await signInUser(server, 'auditshop', 'writer', '2222');
  manager = await signInUser(server, 'auditshop', 'manager', '4444');
  outsider = await signInUser(server, 'auditother', 'owner', '1234');

  const created = await writer.post('/api/auditshop/pipeline', {
    name: '=HYPERLINK("http://evil.example")',
    phone: '6175551234',
    part: 'Struts, front "pair"\nand mounts',
    quote: '800',
  });
  expect(created.status, created.text).toBe(201);
  job = created.body;
  midpoint = now().toISOString();
  await writer.put(`/api/auditshop/pipeline/${job.id}`, { quote: '950', stage: 'Scheduled' });
  await admin.post(`/api/auditshop/pipeline/${job.id}/cancel`);
  await outsider.post('/api/auditother/pipeline', { name: 'Elsewhere Job', part: 'Secret part' });
});
afterAll(async () => {
  ApiClient.observer = null;
  await server?.stop();
});

async function audit(client: ApiClient, query = '', base = A): Promise<AuditPage> {
  const res = await client.get(`${base}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as AuditPage;
}

describe('audit log', () => {
  test('the instance timeline, newest first, in words, with who and what changed', async () => {
    const page = await audit(admin);
    const summaries = page.items.map((e) => e.summary);
    expect(summaries.slice(0, 5)).toEqual([
      'Canceled job #1 (=HYPERLINK("http://evil.example")) (it was in Scheduled)',
      'Moved job #1 (=HYPERLINK("http://evil.example")) from Quote to Scheduled',
      'Updated job #1 (=HYPERLINK("http://evil.example")): Quote',
      'Created job #1 (=HYPERLINK("http://evil.example")) in Quote',
      expect.stringMatching(/^Created customer/),
    ]);
    const updated = page.items[2]!;
    expect(updated).toEqual({
      id: expect.any(String),
      occurredAt: expect.any(String),
      actor: { kind: 'user', id: writerId, displayName: 'Wendy Writer' },
      entityType: 'job',
      entityId: job.id,
      eventType: 'JobUpdated',
      summary: updated.summary,
      changes: [{ field: 'quote', oldValue: '800', newValue: '950' }],
    } satisfies AuditEntry);
    // The log is a list: phones show their last 4 digits only, a job's as a customer's.
    expect(page.items[3]!.changes).toContainEqual({ field: 'phone', oldValue: null, newValue: '•••-•••-1234' });
    expect(JSON.stringify(page)).not.toContain('6175551234');
    expect(summaries).toContain('Created the CRM instance auditshop Auto');
    expect(JSON.stringify(page)).not.toContain('Elsewhere Job');
  });

  test('filters: entity type, user, date range, text', async () => {
    const jobs = await audit(admin, '?entityType=job');
    expect(jobs.items.map((e) => e.eventType)).toEqual(['JobCanceled', 'JobStageChanged', 'JobUpdated', 'JobCreated']);
    const byWriter = await audit(admin, `?userId=${writerId}`);
    expect(byWriter.items.every((e) => e.actor.id === writerId)).toBe(true);
    expect(byWriter.items.map((e) => e.eventType)).toEqual(['JobStageChanged', 'JobUpdated', 'JobCreated', 'CustomerCreated']);
    const after = await audit(admin, `?from=${encodeURIComponent(midpoint)}`);
    expect(after.items.map((e) => e.eventType)).toEqual(['JobCanceled', 'JobStageChanged', 'JobUpdated']);
    const before = await audit(admin, `?entityType=job&to=${encodeURIComponent(midpoint)}`);
    expect(before.items.map((e) => e.eventType)).toEqual(['JobCreated']);
    const text = await audit(admin, '?q=SCHEDULED');
    expect(text.items.map((e) => e.eventType)).toEqual(['JobCanceled', 'JobStageChanged']);
    expect((await audit(admin, '?q=100%25_')).items).toEqual([]);
    expect((await audit(admin, '?from=2025-05-01&to=2025-05-02')).items.length).toBeGreaterThan(0);
  });

  test('pages by keyset: every entry once, in order', async () => {
    const all = await audit(admin, '?limit=200');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditPage = await audit(admin, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((e) => e.id));
    expect(all.nextCursor).toBeNull();
  });

  test('the page PostgreSQL builds as JSON is the entries its rows map to, cursor included', async () => {
    // Stored changes of every form: compact arrays, an object kept whole (a key more),
    // nested values, quotes, new lines and non-ASCII text; a time with microseconds.
    const shop = await createTestInstance(server, 'auditjson');
    const owner = await signInUser(server, 'auditjson', 'owner', '1234');
    const changes = [
      ['phone', '•••-•••-1234', null],
      { field: 'notes', oldValue: '', newValue: 'only "new"\nline', unit: 'text' },
      ['quote', 1.5, { parts: [1, 'é', true] }],
    ];
    await server.runtime.deps.knex('rm.activity').insert({
      event_id: '00000000-0000-4000-8000-000000000001',
      instance_id: shop.id,
      position_commit: '1',
      position_prepare: '1',
      stream_id: 'job-x',
      event_type: 'JobUpdated',
      entity_type: 'job',
      entity_id: 'x',
      actor_kind: 'system',
      actor_id: 'system',
      actor_name: 'Ünïcode \\ "name"',
      summary: 'Tab\there, 😀',
      changes: JSON.stringify(changes),
      occurred_at: '2025-05-01T07:00:00.123999Z',
    });
    // The API's read waits for the projector (the instance's and the sign-in's entries come
    // asynchronously), so the rows read after it are the same entries.
    const page = await audit(owner, '?limit=100');
    const rows = await auditEntries(server.runtime.deps.knex, shop.id, {}, 100);
    expect(page).toEqual({ items: rows, nextCursor: null });
    expect(page.items.at(-1)).toMatchObject({
      occurredAt: '2025-05-01T07:00:00.123Z',
      changes: [
        { field: 'phone', oldValue: '•••-•••-1234', newValue: null },
        { field: 'notes', oldValue: '', newValue: 'only "new"\nline', unit: 'text' },
        { field: 'quote', oldValue: 1.5, newValue: { parts: [1, 'é', true] } },
      ],
    });
    const first = await audit(owner, '?limit=1');
    expect(first.items).toEqual(rows.slice(0, 1));
    expect(first.nextCursor).not.toBeNull();
    const second = await audit(owner, `?limit=1&cursor=${first.nextCursor}`);
    expect(second.items).toEqual(rows.slice(1, 2));
  });

  test('both path families; admins and user managers only; another instance is 404', async () => {
    expect((await audit(admin, '', '/api/auditshop/admin/audit')).items.length).toBeGreaterThan(0);
    expect((await audit(manager)).items.length).toBeGreaterThan(0);
    expect((await writer.get(A)).status).toBe(403);
    expect((await writer.get('/api/auditshop/admin/audit')).status).toBe(403);
    expect((await writer.get(`${A}.csv`)).status).toBe(403);
    expect((await new ApiClient(server.url).get(A)).status).toBe(401);
    expect((await outsider.get('/api/auditshop/admin/audit')).status).toBe(404);
    expect((await outsider.get('/api/auditshop/admin/audit.csv')).status).toBe(404);
    const theirs = await audit(outsider);
    expect(theirs.items.some((e) => e.entityId === job.id)).toBe(false);
  });

  test('the unfiltered page, a prepared statement, stays each instance’s own however often it runs', async () => {
    // PostgreSQL plans a prepared statement once for all values after five calls; the row
    // policy (the instance set on the connection) must still decide every call's rows.
    const own = await audit(admin, '?limit=200');
    const theirs = await audit(outsider, '?limit=200');
    for (let i = 0; i < 8; i++) {
      expect(await audit(admin, '?limit=200')).toEqual(own);
      expect(await audit(outsider, '?limit=200')).toEqual(theirs);
    }
    expect(theirs.items.some((e) => e.entityId === job.id)).toBe(false);
    expect(own.items.some((e) => e.entityId === job.id)).toBe(true);
  });

  test.each([
    [
      '?from=yesterday',
      'from must be a date (2025-01-31, a day in UTC) or an ISO 8601 date and time with a time zone offset, e.g. 2025-01-31T14:00:00Z or 2025-01-31T16:00:00+02:00',
    ],
    [
      '?to=2025-13-45',
      'to must be a date (2025-01-31, a day in UTC) or an ISO 8601 date and time with a time zone offset, e.g. 2025-01-31T14:00:00Z or 2025-01-31T16:00:00+02:00',
    ],
    ['?from=2025-05-02&to=2025-05-01', 'to must be after from'],
    ['?limit=0', 'limit must be a whole number from 1 to 200'],
    ['?limit=1000', 'limit must be at most 200'],
    ['?cursor=nonsense', 'The cursor is not valid; start again without it'],
    // Positions are bigint: a larger number is no position, never a failed cast (a 500).
    [`?cursor=${encodeCursor(['99999999999999999999', '1'])}`, 'The cursor is not valid; start again without it'],
    ['?entityType=job&entityType=user', 'entityType must be given once'],
  ])('bad filter %s is a 400', async (query, message) => {
    const res = await admin.get(`${A}${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});

describe('CSV export', () => {
  test('a download with a header row, RFC 4180 quoting and no formulas', async () => {
    const res = await admin.get(`${A}.csv?entityType=job`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-auditshop-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = res.text.replace(/^\uFEFF/, '');
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['Occurred At', 'Actor Kind', 'Actor Id', 'Actor', 'Entity Type', 'Entity Id', 'Event', 'Summary', 'Changes']);
    expect(rows.slice(1).map((r) => r[6])).toEqual(['JobCanceled', 'JobStageChanged', 'JobUpdated', 'JobCreated']);
    const createdRow = rows[4]!;
    expect(createdRow[1]).toBe('user');
    expect(createdRow[3]).toBe('Wendy Writer');
    expect(createdRow[5]).toBe(job.id);
    expect(createdRow[8]).toContain('part: null → "Struts, front \\"pair\\"\\nand mounts"');
    expect(createdRow[8]).toContain('name: null → "=HYPERLINK');
    expect(text.endsWith('\r\n')).toBe(true);
    // Same filters as the JSON log.
    const json = await audit(admin, '?entityType=job&limit=200');
    expect(rows.length - 1).toBe(json.items.length);
  });

  test('the text filter applies to the export too', async () => {
    const res = await admin.get(`${A}.csv?q=moved`);
    const rows = parseCsv(res.text.replace(/^\uFEFF/, ''));
    expect(rows.slice(1).map((r) => r[6])).toEqual(['JobStageChanged']);
  });
});

describe('recent activity', () => {
  test('the latest ten of the instance, for any reader, phones masked', async () => {
    const res = await manager.get('/api/activity/recent');
    expect(res.status).toBe(200);
    const items = res.body.items as AuditEntry[];
    expect(items).toHaveLength(10);
    expect(items[0]!.eventType).toBe('JobCanceled');
    expect(res.text).not.toContain('6175551234');
    const created = items.find((e) => e.eventType === 'JobCreated')!;
    expect(created.changes).toContainEqual({ field: 'phone', oldValue: null, newValue: '•••-•••-1234' });
    expect((await manager.get('/api/auditshop/activity/recent')).body).toEqual(res.body);
    expect((await outsider.get('/api/auditshop/activity/recent')).status).toBe(404);
    expect((await outsider.get('/api/activity/recent')).text).not.toContain(job.id);
  });

  test("staff accounts' events (failed sign-ins, PINs, locks) are for those who manage users", async () => {
    const failed = await new ApiClient(server.url).post('/api/auth/login', { username: 'writer', pin: '9999', instance: 'auditshop' });
    expect(failed.status).toBe(401);
    // A refused sign-in does not wait for the projection; the timeline shows it soon after.
    await expect
      .poll(async () => ((await manager.get('/api/activity/recent')).body.items as AuditEntry[])[0]?.eventType)
      .toBe('UserSignInFailed');
    const forWriter = (await writer.get('/api/activity/recent')).body.items as AuditEntry[];
    expect(forWriter.length).toBeGreaterThan(0);
    expect(forWriter.every((e) => e.entityType !== 'user')).toBe(true);
    expect(forWriter.map((e) => e.eventType)).toContain('JobCanceled');
  });
});

// Last: its new account would be the newest entry the tests above look for.
describe('without canRead', () => {
  test('one who manages users without canRead sees the accounts’ entries, not the records’ (log and CSV)', async () => {
    const m = await admin.post('/api/admin/users', { username: 'blindmanager', pin: '5555' });
    const granted = await admin.patch(`/api/admin/users/${m.body.id}/permissions`, { canRead: false, canManageUsers: true });
    expect(granted.status, granted.text).toBe(200);
    const blind = await signInUser(server, 'auditshop', 'blindmanager', '5555');
    const entries = (await audit(blind, '?limit=200')).items;
    expect(entries.some((e) => e.entityType === 'user')).toBe(true);
    expect(entries.filter((e) => !['user', 'instance'].includes(e.entityType))).toEqual([]);
    expect((await audit(blind, '?entityType=job')).items).toEqual([]);
    const csv = await blind.get(`${A}.csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).not.toContain('HYPERLINK');
    expect(csv.text).not.toContain(job.id);
    // With canRead the same filter shows the job.
    expect((await audit(manager, '?entityType=job')).items.some((e) => e.entityId === job.id)).toBe(true);
  });
});

describe('the whole file', () => {
  test('no response was a 500', () => {
    expect(responses.filter((r) => r.status >= 500).map((r) => r.text)).toEqual([]);
  });
});

/** A small RFC 4180 reader for the assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}
