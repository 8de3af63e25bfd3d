import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let owner: ApiClient;
let staff: ApiClient;
const base = '/api/mergeshop';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'mergeshop', { username: 'owner', pin: '1234' });
  owner = await signInUser(server, 'mergeshop', 'owner', '1234');
  const created = await owner.post('/api/admin/users', { username: 'desk', pin: '5555' });
  expect(created.status, created.text).toBe(201);
  staff = await signInUser(server, 'mergeshop', 'desk', '5555');
});
afterAll(async () => {
  await server?.stop();
});

async function customer(name: string, phone: string): Promise<string> {
  const res = await owner.post(`${base}/customers`, { name, phone });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

test('a merge moves the jobs and vehicles, shows in both histories, and its undo moves them back', async () => {
  const fromId = await customer('Pat Duplicate', '5550102030');
  const intoId = await customer('Pat Original', '5550102030');
  const vehicle = await owner.post(`${base}/customers/${fromId}/vehicles`, { year: 2012, make: 'Ford', model: 'F-150' });
  expect(vehicle.status, vehicle.text).toBe(201);
  const job = await owner.post(`${base}/pipeline`, { name: 'Pat Duplicate', part: 'Brakes', vehicleId: vehicle.body.id });
  expect(job.status, job.text).toBe(201);
  expect(job.body).toMatchObject({ customerId: fromId, name: 'Pat Duplicate' });
  const intoBefore = await owner.get(`${base}/customers/${intoId}`);

  // Only an admin merges; bad input is a 400 naming the field.
  expect((await staff.post(`${base}/customers/${fromId}/merge`, { intoId })).status).toBe(403);
  const bad = await owner.post(`${base}/customers/${fromId}/merge`, { intoId: 'nope' });
  expect(bad.status).toBe(400);
  expect(bad.text).toContain('intoId');
  expect((await owner.post(`${base}/customers/${fromId}/merge`, { intoId, extra: 1 })).status).toBe(400);
  expect((await owner.post(`${base}/customers/${fromId}/merge`, { intoId: fromId })).status).toBe(400);

  const merged = await owner.post(`${base}/customers/${fromId}/merge`, { intoId });
  expect(merged.status, merged.text).toBe(200);
  expect(merged.body).toMatchObject({ fromId, intoId, jobsMoved: 1, vehiclesMoved: 1, customer: { id: intoId, name: 'Pat Original' } });
  expect(merged.body.customer.revision).toBeGreaterThan(intoBefore.body.revision);

  // The duplicate is off the list and not found; its job and vehicle are the other customer's.
  expect((await owner.get(`${base}/customers/${fromId}`)).status).toBe(404);
  const list = await owner.get(`${base}/customers?q=Pat`);
  expect(list.body.items.map((c: { id: string }) => c.id)).toEqual([intoId]);
  expect((await owner.get(`${base}/pipeline/${job.body.id}`)).body).toMatchObject({ customerId: intoId, name: 'Pat Original' });
  expect((await owner.get(`${base}/vehicles/${vehicle.body.id}`)).body).toMatchObject({ customerId: intoId });
  expect((await owner.get(`${base}/customers/${intoId}/vehicles`)).body.items.map((v: { id: string }) => v.id)).toEqual([vehicle.body.id]);

  // Both histories say so.
  const intoHistory = (await owner.get(`${base}/customers/${intoId}/history`)).body;
  expect(intoHistory[0]).toMatchObject({
    action: 'merged',
    merge: { role: 'into', fromId, fromName: 'Pat Duplicate', jobs: 1, vehicles: 1 },
  });
  const fromHistory = (await owner.get(`${base}/customers/${fromId}/history`)).body;
  expect(fromHistory[0]).toMatchObject({ action: 'merged', merge: { role: 'from', intoId, intoName: 'Pat Original' } });

  // Merging it again is not found (it is merged away); the undo brings everything back.
  expect((await owner.post(`${base}/customers/${fromId}/merge`, { intoId })).status).toBe(404);
  expect((await staff.delete(`${base}/customers/${fromId}/merge`)).status).toBe(403);
  const undone = await owner.delete(`${base}/customers/${fromId}/merge`);
  expect(undone.status, undone.text).toBe(200);
  expect(undone.body).toMatchObject({ fromId, intoId, jobsMoved: 1, vehiclesMoved: 1, customer: { id: fromId, name: 'Pat Duplicate' } });
  expect((await owner.get(`${base}/customers/${fromId}`)).body).toMatchObject({ name: 'Pat Duplicate', phone: '555-010-2030' });
  expect((await owner.get(`${base}/pipeline/${job.body.id}`)).body).toMatchObject({ customerId: fromId, name: 'Pat Duplicate' });
  expect((await owner.get(`${base}/vehicles/${vehicle.body.id}`)).body).toMatchObject({ customerId: fromId });
  expect((await owner.get(`${base}/customers/${intoId}/history`)).body[0]).toMatchObject({ action: 'merge-undone' });
  expect((await owner.get(`${base}/customers/${fromId}/history`)).body[0]).toMatchObject({ action: 'merge-undone' });

  // Undone once: a second undo is a conflict, not a second move.
  expect((await owner.delete(`${base}/customers/${fromId}/merge`)).status).toBe(409);
});

test('a job can still be made for a customer merged away, whose row is gone: its stream says merged, not deleted', async () => {
  const fromId = await customer('Lee Duplicate', '5550102040');
  const intoId = await customer('Lee Original', '5550102040');
  const merged = await owner.post(`${base}/customers/${fromId}/merge`, { intoId });
  expect(merged.status, merged.text).toBe(200);
  const job = await owner.post(`${base}/pipeline`, { name: 'Lee Duplicate', part: 'Wipers', customerId: fromId });
  expect(job.status, job.text).toBe(201);
  expect(job.body).toMatchObject({ customerId: fromId, part: 'Wipers' });
});
