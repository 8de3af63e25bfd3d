import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AppointmentView, JobView } from '@crm/projections/pipeline';
import type { JobRow } from '@crm/projections/pipeline/job-rows';
import { jobViewOfRow, masked } from '../../src/pipeline/index.ts';
import { ApiClient, signInSuperAdmin, signInUser, startTestServer, type ApiResponse, type TestServer } from '../support/server.ts';

let server: TestServer;
let admin: ApiClient;
let reader: ApiClient;
let outsider: ApiClient;
let calendarOff: ApiClient;

const ALL_ON = { pipeline: true, customers: true, calendar: true, admin: true };

/** A shop with the calendar on (it is off by default) in a zone that is not the server's. */
async function createShop(subdomain: string, features: Record<string, boolean>, timeZone = 'America/New_York') {
  const superAdmin = await signInSuperAdmin(server);
  const res = await superAdmin.post('/api/crm-instances', {
    name: subdomain.toUpperCase(),
    displayName: `${subdomain} Auto`,
    subdomain,
    features,
    timeZone,
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  expect(res.status, res.text).toBe(201);
  return await signInUser(server, subdomain, 'owner', '1234');
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await createShop('calshop', ALL_ON);
  outsider = await createShop('calother', ALL_ON, 'Europe/Berlin');
  calendarOff = await createShop('calnone', { ...ALL_ON, calendar: false });
  expect((await admin.post('/api/admin/users', { username: 'reader', displayName: 'Rita Reader', pin: '3333' })).status).toBe(201);
  const users = (await admin.get('/api/admin/users')).body as Array<{ id: string; username: string }>;
  const readerId = users.find((u) => u.username === 'reader')!.id;
  expect((await admin.patch(`/api/admin/users/${readerId}/permissions`, { canWrite: false })).status).toBe(200);
  reader = await signInUser(server, 'calshop', 'reader', '3333');
});
afterAll(async () => {
  await server?.stop();
});

async function book(client: ApiClient, name: string, appointment: string, extra: Record<string, unknown> = {}): Promise<JobView> {
  const res = await client.post('/api/user-info', { name, phone: '6175550100', part: 'Brakes', appointment, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body as JobView;
}

function expectProblem(res: ApiResponse, status: number, message?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  if (message) expect(res.body.message).toBe(message);
}

const names = (res: ApiResponse) => (res.body.items as AppointmentView[]).map((item) => item.name);

describe('GET /api/{instance}/calendar', () => {
  test('answers the appointments overlapping [from, to): ending exactly at from or starting exactly at to is out', async () => {
    await book(admin, 'Ends At From', '2026-01-05T13:00:00Z', { duration: 60 }); // 13:00-14:00
    await book(admin, 'Overlaps From', '2026-01-05T13:30:00Z', { duration: 60 }); // 13:30-14:30
    await book(admin, 'Inside', '2026-01-05T15:00:00Z'); // default 60 minutes
    await book(admin, 'Starts At To', '2026-01-05T18:00:00Z', { duration: 30 });
    await book(admin, 'Canceled Inside', '2026-01-05T16:00:00Z', { stage: 'Canceled' });
    await book(admin, 'Long One', '2026-01-04T20:00:00Z', { duration: 1440 }); // through 2026-01-05T20:00Z

    const res = await admin.get('/api/calshop/calendar?from=2026-01-05T14:00:00Z&to=2026-01-05T18:00:00Z');
    expect(res.status, res.text).toBe(200);
    expect(names(res)).toEqual(['Long One', 'Overlaps From', 'Inside']);
    expect(res.body).toMatchObject({ timeZone: 'America/New_York', from: '2026-01-05T14:00:00.000Z', to: '2026-01-05T18:00:00.000Z' });
    const inside = (res.body.items as AppointmentView[]).find((item) => item.name === 'Inside')!;
    expect(inside).toMatchObject({
      appointment: '2026-01-05T15:00:00.000Z',
      appointmentEnd: '2026-01-05T16:00:00.000Z',
      phone: '•••-•••-0100',
    });
  });

  test("days alone are midnights in the shop's zone, across the spring daylight-saving change", async () => {
    // New York on 2026-03-08: midnight EST is 05:00Z, the next midnight (EDT) 04:00Z: a 23-hour day.
    await book(admin, 'DST Eve Late', '2026-03-08T04:30:00Z', { duration: 30 }); // 23:30-24:00 EST the day before
    await book(admin, 'DST Day Late', '2026-03-09T03:30:00Z', { duration: 30 }); // 23:30 EDT on the 8th
    await book(admin, 'DST Next Midnight', '2026-03-09T04:00:00Z', { duration: 30 }); // 00:00 EDT on the 9th
    const res = await admin.get('/api/calshop/calendar?from=2026-03-08&to=2026-03-09');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ from: '2026-03-08T05:00:00.000Z', to: '2026-03-09T04:00:00.000Z' });
    expect(names(res)).toEqual(['DST Day Late']);
    // The same days in Berlin are other instants.
    const berlin = await outsider.get('/api/calother/calendar?from=2026-03-08&to=2026-03-09');
    expect(berlin.body).toMatchObject({ timeZone: 'Europe/Berlin', from: '2026-03-07T23:00:00.000Z', to: '2026-03-08T23:00:00.000Z' });
  });

  test('a range of at most 62 days, whole days in the zone even across the autumn change; bad input is a 400', async () => {
    // 62 days including the night the clocks go back (25 hours): allowed.
    expect((await admin.get('/api/calshop/calendar?from=2026-10-01&to=2026-12-02')).status).toBe(200);
    expectProblem(await admin.get('/api/calshop/calendar?from=2026-10-01&to=2026-12-03'), 400, 'The range may span at most 62 days');
    expectProblem(
      await admin.get('/api/calshop/calendar?from=2026-01-01T00:00:00Z&to=2026-03-05T00:00:00Z'),
      400,
      'The range may span at most 62 days',
    );
    expectProblem(await admin.get('/api/calshop/calendar?from=2026-01-02&to=2026-01-01'), 400, 'to must be after from');
    expectProblem(await admin.get('/api/calshop/calendar?from=2026-01-02&to=2026-01-02'), 400, 'to must be after from');
    for (const query of [
      'from=June&to=2026-01-01',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-01-01T10:00:00&to=2026-01-02',
      'to=2026-01-02',
      'from=2026-01-01&from=2026-01-02&to=2026-01-03',
    ]) {
      const res = await admin.get(`/api/calshop/calendar?${query}`);
      expectProblem(res, 400);
      expect(res.body.message).toMatch(/^(from|to) /);
    }
  });

  test('tenants see only their own appointments; another instance in the path does not exist; the calendar off is a 404', async () => {
    await book(outsider, 'Berlin Job', '2026-01-05T15:00:00Z');
    const mine = await admin.get('/api/calshop/calendar?from=2026-01-05&to=2026-01-06');
    expect(names(mine)).not.toContain('Berlin Job');
    expect(names(await outsider.get('/api/calother/calendar?from=2026-01-05&to=2026-01-06'))).toEqual(['Berlin Job']);
    expectProblem(await admin.get('/api/calother/calendar?from=2026-01-05&to=2026-01-06'), 404);
    expectProblem(
      await calendarOff.get('/api/calnone/calendar?from=2026-01-05&to=2026-01-06'),
      404,
      'This feature is not enabled for this CRM',
    );
    expectProblem(await calendarOff.get('/api/calendar/appointments'), 404, 'This feature is not enabled for this CRM');
    expect((await new ApiClient(server.url).get('/api/calshop/calendar?from=2026-01-05&to=2026-01-06')).status).toBe(401);
    // A reader reads the calendar.
    expect((await reader.get('/api/calshop/calendar?from=2026-01-05&to=2026-01-06')).status).toBe(200);
  });
});

describe('the JSON PostgreSQL builds', () => {
  test('the week and the legacy feed answer, byte for byte, what their rows mapped in JS gave', async () => {
    const odd = await book(admin, 'Json Odd', '2031-07-01T09:00:00Z', { duration: 45, quote: '1250' });
    const cents = await book(admin, 'Json Cents', '2031-07-01T09:00:00Z', { quote: '89.5', notes: '' });
    const none = await book(admin, 'Json None', '2031-07-01T11:00:00Z');
    const big = await book(admin, 'Json Big', '2031-07-02T08:00:00Z', { quote: '1234567.89' });
    // Values no form writes, straight into the read model: quotes, a new line, control
    // characters, non-ASCII text, a phone without digits, no quote, a quote of cents only,
    // a negative one, times with microseconds, a vehicle and mileages.
    const knex = server.runtime.deps.knex;
    await knex('rm.jobs').where({ id: odd.id }).update({
      name: 'Json "Odd"\n\t\u0001 é 😀 \u2028',
      phone: 'none',
      notes: '\\ back\\slash',
      created_at: '2031-01-01T07:00:00.123999Z',
    });
    await knex('rm.jobs').where({ id: cents.id }).update({ quote: '0.05', mileage_in: 12, mileage_out: 0, vehicle_id: odd.id });
    await knex('rm.jobs').where({ id: none.id }).update({ quote: null, duration: null, updated_at: '2031-02-02T02:02:02.999999Z' });
    await knex('rm.jobs').where({ id: big.id }).update({ quote: '-40.10', tech: '' });
    const ids = [odd.id, cents.id, none.id, big.id];
    const rows = (await knex('rm.jobs')
      .whereIn('id', ids)
      .orderBy([
        { column: 'appointment', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])) as JobRow[];
    const items = rows.map((row) => ({ ...masked(jobViewOfRow(row)), appointmentEnd: new Date(row.appointment_end!).toISOString() }));
    expect(items.map((item) => item.quote).sort()).toEqual(['-40.10', '0.05', '1250', ''].sort());

    const week = await admin.get('/api/calshop/calendar?from=2031-06-30&to=2031-07-07');
    expect(week.status, week.text).toBe(200);
    expect(week.headers.get('content-type')).toContain('application/json');
    expect(week.text).toBe(JSON.stringify({ timeZone: 'America/New_York', from: week.body.from, to: week.body.to, items }));
    const legacy = await admin.get('/api/calendar/appointments?from=2031-06-30T00:00:00Z&to=2031-07-07T00:00:00Z');
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.text).toBe(JSON.stringify({ items }));
    expect((await admin.get('/api/calshop/calendar?from=2031-08-01&to=2031-08-02')).text).toBe(
      JSON.stringify({ timeZone: 'America/New_York', from: '2031-08-01T04:00:00.000Z', to: '2031-08-02T04:00:00.000Z', items: [] }),
    );
  });
});

describe('the legacy feed GET /api/calendar/appointments', () => {
  test('keeps its shape { items } with each block end; defaults and the 92-day limit as before', async () => {
    await book(admin, 'Legacy A', '2025-06-10T14:00:00Z', { duration: '90' });
    await book(admin, 'Legacy B', '2025-06-03T09:00:00-04:00');
    await book(admin, 'Legacy C', '2025-06-05T09:00:00Z', { stage: 'Canceled' });
    const res = await admin.get('/api/calendar/appointments?from=2025-06-01T00:00:00Z&to=2025-07-01T00:00:00Z');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['items']);
    expect(names(res)).toEqual(['Legacy B', 'Legacy A']);
    expect(res.body.items[0]).toMatchObject({ appointment: '2025-06-03T13:00:00.000Z', appointmentEnd: '2025-06-03T14:00:00.000Z' });
    expect(res.body.items[1]).toMatchObject({ appointmentEnd: '2025-06-10T15:30:00.000Z', phone: '•••-•••-0100' });
    expect((await admin.get('/api/calshop/calendar/appointments?from=2025-06-01T00:00:00Z&to=2025-07-01T00:00:00Z')).body).toEqual(
      res.body,
    );
    expect((await admin.get('/api/calendar/appointments?to=2025-07-01T00:00:00Z')).body).toEqual(res.body);
    expect((await outsider.get('/api/calendar/appointments?from=2025-06-01T00:00:00Z&to=2025-07-01T00:00:00Z')).body.items).toEqual([]);
    expect((await admin.get('/api/calendar/appointments')).status).toBe(200);
    expectProblem(await admin.get('/api/calendar/appointments?from=June'), 400);
    expectProblem(
      await admin.get('/api/calendar/appointments?from=2025-06-02T00:00:00Z&to=2025-06-01T00:00:00Z'),
      400,
      'to must be after from',
    );
    expectProblem(
      await admin.get('/api/calendar/appointments?from=2025-01-01T00:00:00Z&to=2025-12-01T00:00:00Z'),
      400,
      'The range may span at most 92 days',
    );
  });
});

describe('PATCH /api/{instance}/pipeline/{id}/appointment', () => {
  const path = (id: string) => `/api/calshop/pipeline/${id}/appointment`;

  test('moves and resizes through JobRescheduled, with If-Match; a stale copy is a 409 carrying the job as it is', async () => {
    const job = await book(admin, 'Move Me', '2026-02-02T14:00:00Z', { duration: 60, tech: 'Tom' });
    const moved = await admin.patch(path(job.id), { appointment: '2026-02-03T15:15:00-05:00' }, { 'If-Match': `"${job.revision}"` });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ appointment: '2026-02-03T20:15:00.000Z', duration: 60, tech: 'Tom', revision: job.revision + 1 });
    expect(moved.headers.get('etag')).toBe(`"${job.revision + 1}"`);

    const resized = await admin.patch(
      path(job.id),
      { appointment: '2026-02-03T20:15:00Z', duration: 120 },
      { 'If-Match': `"${job.revision + 1}"` },
    );
    expect(resized.status, resized.text).toBe(200);
    expect(resized.body).toMatchObject({ appointment: '2026-02-03T20:15:00.000Z', duration: 120 });

    const stale = await admin.patch(path(job.id), { appointment: '2026-02-04T20:15:00Z' }, { 'If-Match': `"${job.revision}"` });
    expectProblem(stale, 409);
    expect(stale.body.current).toMatchObject({ id: job.id, duration: 120, appointment: '2026-02-03T20:15:00.000Z' });

    const history = (await admin.get(`/api/calshop/pipeline/${job.id}/history`)).body as Array<{ action: string; changes: unknown[] }>;
    expect(history.slice(0, 2).map((h) => h.action)).toEqual(['rescheduled', 'rescheduled']);
    expect(history[0]!.changes).toEqual([{ field: 'duration', oldValue: 60, newValue: 120 }]);
    expect(history[1]!.changes).toEqual([
      { field: 'appointment', oldValue: '2026-02-02T14:00:00.000Z', newValue: '2026-02-03T20:15:00.000Z' },
    ]);

    const week = await admin.get('/api/calshop/calendar?from=2026-02-01&to=2026-02-08');
    expect((week.body.items as AppointmentView[]).find((item) => item.id === job.id)).toMatchObject({
      appointmentEnd: '2026-02-03T22:15:00.000Z',
    });
  });

  test('a lane change reassigns the tech (a JobUpdated of tech); the same place and tech records nothing', async () => {
    const job = await book(admin, 'Lane Job', '2026-02-05T14:00:00Z', { tech: 'Tom' });
    const res = await admin.patch(path(job.id), { appointment: '2026-02-05T16:00:00Z', tech: 'Tina' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ appointment: '2026-02-05T16:00:00.000Z', tech: 'Tina', revision: job.revision + 2 });
    const unassigned = await admin.patch(path(job.id), { appointment: '2026-02-05T16:00:00Z', tech: '' });
    expect(unassigned.body).toMatchObject({ tech: '', revision: job.revision + 3 });
    const same = await admin.patch(path(job.id), { appointment: '2026-02-05T16:00:00Z', tech: '' });
    expect(same.body.revision).toBe(job.revision + 3);
    const history = (await admin.get(`/api/calshop/pipeline/${job.id}/history`)).body as Array<{ action: string; changes: unknown[] }>;
    expect(history[0]).toMatchObject({ action: 'updated', changes: [{ field: 'tech', oldValue: 'Tina', newValue: '' }] });
  });

  test("bad input is a 400 that names the field; no write permission a 403; another tenant's job a 404", async () => {
    const job = await book(admin, 'Guarded', '2026-02-06T14:00:00Z');
    expectProblem(
      await admin.patch(path(job.id), {}),
      400,
      'Appointment is required: an ISO date and time with a time zone, e.g. 2025-03-01T09:00:00Z',
    );
    expectProblem(await admin.patch(path(job.id), { appointment: '2026-02-06 10:00' }), 400);
    expectProblem(await admin.patch(path(job.id), { appointment: null }), 400);
    expectProblem(
      await admin.patch(path(job.id), { appointment: '2026-02-06T15:00:00Z', duration: 45.5 }),
      400,
      'Duration must be a whole number of minutes from 1 to 1440',
    );
    expectProblem(await admin.patch(path(job.id), { appointment: '2026-02-06T15:00:00Z', duration: 2000 }), 400);
    expectProblem(await admin.patch(path(job.id), { appointment: '2026-02-06T15:00:00Z', tech: 'x'.repeat(101) }), 400);
    expectProblem(await admin.patch(path(job.id), { appointment: '2026-02-06T15:00:00Z' }, { 'If-Match': 'yesterday' }), 400);
    expectProblem(await reader.patch(path(job.id), { appointment: '2026-02-06T15:00:00Z' }), 403);
    expectProblem(await outsider.patch(`/api/calother/pipeline/${job.id}/appointment`, { appointment: '2026-02-06T15:00:00Z' }), 404);
    expectProblem(await admin.patch(path('not-a-uuid'), { appointment: '2026-02-06T15:00:00Z' }), 404);
    // Nothing of it changed the job.
    expect((await admin.get(`/api/calshop/pipeline/${job.id}`)).body).toMatchObject({
      appointment: '2026-02-06T14:00:00.000Z',
      revision: job.revision,
    });
  });
});

describe('who can be a technician', () => {
  const field = (res: ApiResponse) => (res.body.errors as Array<{ field: string }> | undefined)?.map((error) => error.field);

  test('the Tech choices are the active users who may change jobs: a read-only user is not offered', async () => {
    const choices = (await admin.get('/api/calshop/users/choices')).body as Array<{ displayName: string }>;
    expect(choices.map((choice) => choice.displayName)).toContain('Owner');
    expect(choices.map((choice) => choice.displayName)).not.toContain('Rita Reader');
  });

  test('putting a read-only user on a job is a 400 naming tech, on create, edit and a lane change; a name no user has stays allowed', async () => {
    const refused = await admin.post('/api/user-info', {
      name: 'Lane Test',
      phone: '6175550100',
      appointment: '2026-03-02T15:00:00Z',
      tech: 'Rita Reader',
    });
    expectProblem(refused, 400);
    expect(field(refused)).toEqual(['tech']);

    const job = await book(admin, 'Lane Test', '2026-03-02T15:00:00Z', { tech: 'Former Tech' });
    expect(job.tech).toBe('Former Tech');
    const edit = await admin.put(`/api/calshop/pipeline/${job.id}`, { tech: 'rita reader' }, { 'If-Match': `"${job.revision}"` });
    expectProblem(edit, 400);
    expect(field(edit)).toEqual(['tech']);
    const lane = await admin.patch(
      `/api/calshop/pipeline/${job.id}/appointment`,
      { appointment: '2026-03-02T15:00:00Z', tech: 'Rita Reader' },
      { 'If-Match': `"${job.revision}"` },
    );
    expectProblem(lane, 400);
    expect(field(lane)).toEqual(['tech']);

    const toOwner = await admin.patch(
      `/api/calshop/pipeline/${job.id}/appointment`,
      { appointment: '2026-03-02T15:00:00Z', tech: 'Owner' },
      { 'If-Match': `"${job.revision}"` },
    );
    expect(toOwner.status, toOwner.text).toBe(200);
    expect((await admin.get(`/api/calshop/pipeline/${job.id}`)).body).toMatchObject({ tech: 'Owner' });
  });
});
