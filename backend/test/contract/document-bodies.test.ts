import { afterAll, beforeAll, expect, test } from 'vitest';
import { satisfies, type JsonSchema } from '../support/openapi-arbitraries.ts';
import { ApiClient, createTestInstance, signInSuperAdmin, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The other direction of "the document is the server": what the server takes, the document
 * must allow. Ordinary bodies of several fields, which the server answers 2xx, are checked
 * against their operation's published schema (closed objects and "at least one field filled"
 * together), and the calendar's range names its formats.
 */

const SHOP = 'docbodies';
let server: TestServer;
let admin: ApiClient;
let document: { paths: Record<string, Record<string, JsonSchema>> };

beforeAll(async () => {
  server = await startTestServer();
  const shop = await createTestInstance(server, SHOP, { username: 'owner', pin: '1234' });
  const features = await (await signInSuperAdmin(server)).put(`/api/crm-instances/${shop.id}`, { features: { calendar: true } });
  if (features.status !== 200) throw new Error(`calendar not switched on: ${features.status} ${features.text}`);
  admin = await signInUser(server, SHOP, 'owner', '1234');
  document = (await new ApiClient(server.url).get('/api/openapi.json')).body;
});
afterAll(async () => {
  await server?.stop();
});

const bodySchema = (method: string, path: string): JsonSchema =>
  document.paths[path]![method]!.requestBody.content['application/json'].schema as JsonSchema;

test('bodies of several fields that the server accepts fit the published schema', async () => {
  const customer = { name: 'Two Fields', phone: '5551230000', email: 'two@example.com' };
  const job = { name: 'Two Fields', phone: '5551230000', quote: '120.00', makeModel: '2015 Honda Civic' };
  const request = { customerName: 'Two Fields', contactEmail: 'two@example.com', serviceType: 'Oil Change', additionalNotes: 'rattle' };
  const cases: Array<[string, string, string, Record<string, unknown>]> = [
    ['post', '/api/{instance}/customers', `/api/${SHOP}/customers`, customer],
    ['post', '/api/customers', '/api/customers', { ...customer, name: 'Two Fields B' }],
    ['post', '/api/{instance}/pipeline', `/api/${SHOP}/pipeline`, job],
    ['post', '/api/{instance}/service-requests', `/api/${SHOP}/service-requests`, request],
    ['post', '/api/service-requests', '/api/service-requests', request],
  ];
  for (const [method, documented, path, body] of cases) {
    const answer = await admin.post(path, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(201);
    expect(
      satisfies(body, bodySchema(method, documented)),
      `${method.toUpperCase()} ${documented} documents ${JSON.stringify(body)} as invalid`,
    ).toBe(true);
  }
  // The "at least one field" rule still shows: an empty body fits none of the alternatives.
  expect(satisfies({}, bodySchema('post', '/api/{instance}/customers'))).toBe(false);
  expect(satisfies({ name: 'x', nosuch: 1 }, bodySchema('post', '/api/{instance}/customers'))).toBe(false);
});

test("the calendar's from and to are documented as a date or a date-time, as the server takes them", async () => {
  const parameters = document.paths['/api/{instance}/calendar']!.get!.parameters as Array<{ name: string; schema: JsonSchema }>;
  for (const name of ['from', 'to']) {
    const schema = parameters.find((parameter) => parameter.name === name)!.schema;
    const formats = ((schema.anyOf ?? [schema]) as JsonSchema[]).map((alternative) => alternative.format);
    expect(formats.sort(), name).toEqual(['date', 'date-time']);
  }
  expect((await admin.get(`/api/${SHOP}/calendar?from=2026-03-02&to=2026-03-09`)).status).toBe(200);
  expect((await admin.get(`/api/${SHOP}/calendar?from=2026-03-02T00:00:00Z&to=2026-03-09T00:00:00%2B02:00`)).status).toBe(200);
  expect((await admin.get(`/api/${SHOP}/calendar?from=soon&to=later`)).status).toBe(400);
});

test('an update that blanks every field is refused, and the document says so for every record with that rule', async () => {
  const customer = await admin.post(`/api/${SHOP}/customers`, { name: 'Blank Me', phone: '5551239999' });
  const request = await admin.post(`/api/${SHOP}/service-requests`, { customerName: 'Blank Me Request' });
  const convertible = await admin.post(`/api/${SHOP}/service-requests`, { customerName: 'Blank Me Job' });
  const vehicle = await admin.post(`/api/${SHOP}/customers/${customer.body.id}/vehicles`, { make: 'Honda' });
  for (const created of [customer, request, convertible, vehicle]) expect(created.status, created.text).toBe(201);
  const blankCustomer = { name: null, phone: '+', email: '', address: '', vehicles: [], pastAppointments: null, invoices: [], notes: ' ' };
  // A job's update never blanks it (its number stays), but a request's conversion may.
  const blankJob = Object.fromEntries(
    [
      'jobNumber',
      'name',
      'phone',
      'part',
      'makeModel',
      'quote',
      'vin',
      'jobType',
      'appointment',
      'duration',
      'tech',
      'notes',
      'customerId',
      'vehicleId',
      'mileageIn',
      'mileageOut',
    ].map((field) => [field, null]),
  );
  const blankRequest = Object.fromEntries(
    ['customerName', 'contactPhone', 'contactEmail', 'vehicleType', 'serviceType', 'scheduledDate', 'additionalNotes'].map((field) => [
      field,
      '',
    ]),
  );
  const blankVehicle = { year: null, make: '', model: '', vin: null, plate: '' };
  const cases: Array<['put' | 'post', string, string, Record<string, unknown>]> = [
    ['put', '/api/{instance}/customers/{id}', `/api/${SHOP}/customers/${customer.body.id}`, blankCustomer],
    ['put', '/api/{instance}/service-requests/{id}', `/api/${SHOP}/service-requests/${request.body.id}`, blankRequest],
    ['put', '/api/{instance}/vehicles/{id}', `/api/${SHOP}/vehicles/${vehicle.body.id}`, blankVehicle],
    ['post', '/api/{instance}/service-requests/{id}/convert', `/api/${SHOP}/service-requests/${convertible.body.id}/convert`, blankJob],
  ];
  for (const [method, documented, path, blank] of cases) {
    const schema = bodySchema(method, documented);
    const refused = await admin[method](path, blank);
    expect(refused.status, `${path}: ${refused.text}`).toBe(400);
    expect(satisfies(blank, schema), `${documented} documents ${JSON.stringify(blank)} as valid`).toBe(false);
    // One field left out (kept as stored) or sent filled: the document allows it, the server takes it.
    const keeping = Object.fromEntries(
      Object.keys(blank)
        .slice(1)
        .map((field) => [field, blank[field]]),
    );
    expect(satisfies(keeping, schema), `${documented} documents ${JSON.stringify(keeping)} as invalid`).toBe(true);
    expect(document.paths[documented]![method]!.summary, documented).toMatch(/blank.* is a 400/);
  }
});

test('a VIN written in groups is taken and documented as valid, a plate with an invisible character is not; a subject with a line break is refused and documented as invalid', async () => {
  const owner = await admin.post(`/api/${SHOP}/customers`, { name: 'Group Vin' });
  expect(owner.status, owner.text).toBe(201);
  const grouped = { vin: '1HGCM-82633A 004352' };
  const vehicle = await admin.post(`/api/${SHOP}/customers/${owner.body.id}/vehicles`, grouped);
  expect(vehicle.status, vehicle.text).toBe(201);
  expect(vehicle.body.vin).toBe('1HGCM82633A004352');
  expect(satisfies(grouped, bodySchema('post', '/api/{instance}/customers/{id}/vehicles'))).toBe(true);
  expect(satisfies({ vin: '1HGCM82633A00435' }, bodySchema('post', '/api/{instance}/customers/{id}/vehicles'))).toBe(false);
  // A plate with an invisible character would never be found by its letters.
  for (const plate of ['ABC\u200b123', '\u202eABC123', 'AB\u0007C']) {
    const refused = await admin.post(`/api/${SHOP}/customers/${owner.body.id}/vehicles`, { plate });
    expect(refused.status, `${JSON.stringify(plate)}: ${refused.text}`).toBe(400);
    expect(refused.body.errors[0].field).toBe('plate');
    expect(satisfies({ plate }, bodySchema('post', '/api/{instance}/customers/{id}/vehicles')), JSON.stringify(plate)).toBe(false);
  }
  const plated = await admin.post(`/api/${SHOP}/customers/${owner.body.id}/vehicles`, { plate: 'mü-ab 12', plateState: 'by' });
  expect(plated.status, plated.text).toBe(201);
  expect(plated.body).toMatchObject({ plate: 'MÜ-AB 12', plateState: 'BY' });

  const templates = bodySchema('put', '/api/{instance}/message-templates');
  const template = (subject: string) => ({ templates: [{ kind: 'appointment-reminder', subject, emailBody: 'Hello', smsBody: 'Hi' }] });
  for (const subject of ['Hi\r\nBcc: someone@example.com', 'Tab\there', '\u00a0']) {
    const refused = await admin.put(`/api/${SHOP}/message-templates`, template(subject));
    expect(refused.status, `${JSON.stringify(subject)}: ${refused.text}`).toBe(400);
    expect(refused.body.errors[0].field).toBe('templates.0.subject');
    expect(satisfies(template(subject), templates), JSON.stringify(subject)).toBe(false);
  }
  const taken = await admin.put(`/api/${SHOP}/message-templates`, template('Reminder for {{customer.name}}'));
  expect(taken.status, taken.text).toBe(200);
  expect(satisfies(template('Reminder for {{customer.name}}'), templates)).toBe(true);
});
