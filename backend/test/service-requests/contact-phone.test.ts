import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

let server: TestServer;
let owner: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'srphone', { username: 'owner', pin: '1234' });
  owner = await signInUser(server, 'srphone', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

test('a service request keeps a contact phone: whole on the request, masked in the list, refused when it is no phone', async () => {
  const created = await owner.post('/api/srphone/service-requests', { customerName: 'Call Me', contactPhone: '(555) 222-3333' });
  expect(created.status, created.text).toBe(201);
  expect(created.body.contactPhone).toBe('555-222-3333');
  expect((await owner.get(`/api/srphone/service-requests/${created.body.id}`)).body.contactPhone).toBe('555-222-3333');
  const list = await owner.get('/api/srphone/service-requests');
  expect(list.body.items.find((item: { id: string }) => item.id === created.body.id).contactPhone).toBe('•••-•••-3333');
  const changed = await owner.put(`/api/srphone/service-requests/${created.body.id}`, { contactPhone: '5554445555' });
  expect(changed.status, changed.text).toBe(200);
  expect(changed.body.contactPhone).toBe('555-444-5555');
  const bad = await owner.post('/api/srphone/service-requests', { customerName: 'X', contactPhone: '12345678901234' });
  expect(bad.status).toBe(400);
  expect(bad.text).toMatch(/Phone number/);
});

test("a conversion keeps the request's phone: on the job and on the customer it makes", async () => {
  const request = await owner.post('/api/srphone/service-requests', { customerName: 'Phil Callback', contactPhone: '555 777 8888' });
  expect(request.status, request.text).toBe(201);
  const converted = await owner.request('POST', `/api/srphone/service-requests/${request.body.id}/convert`);
  expect(converted.status, converted.text).toBe(201);
  const job = (await owner.get(`/api/srphone/pipeline/${converted.body.serviceRequest.jobId}`)).body;
  expect(job).toMatchObject({ name: 'Phil Callback', phone: '5557778888' });
  const customer = (await owner.get(`/api/srphone/customers/${job.customerId}`)).body;
  expect(customer).toMatchObject({ name: 'Phil Callback', phone: '555-777-8888' });
});
