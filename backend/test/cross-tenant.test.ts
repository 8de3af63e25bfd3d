import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withTenant } from '../src/infra/tenant-db.ts';
import {
  ApiClient,
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiResponse,
  type TestInstance,
  type TestServer,
} from './support/server.ts';

/** Instance A (the caller's) and instance B (the one it must not reach). */
interface World {
  a: TestInstance & { userId: string };
  b: TestInstance & {
    userId: string;
    adminId: string;
    customerId: string;
    jobId: string;
    serviceRequestId: string;
    /** A change in the history of B's job and of B's customer (what a revert names). */
    jobChangeId: string;
    customerChangeId: string;
    /** A job B deleted (what a restore names). */
    deletedJobId: string;
    /** A message B's outbox holds (the e-mail answering its service request). */
    messageId: string;
    vehicleId: string;
    /** B's job with a repair order: a line, and the token of the estimate B sent for it. */
    roJobId: string;
    lineId: string;
    estimateToken: string;
  };
}

type Body = (world: World) => unknown;
/** Values for path parameters (without the colon). */
type Params = Record<string, string>;

type Access =
  /** Names instance data by slug or id: A's admin with B's slug and ids gets `status` (404; 403 for a role or permission A lacks). */
  | { kind: 'scoped'; status?: 404 | 403 }
  /** Instance data, but neither slug nor id in the path: it is about A's own instance and must show nothing of B. */
  | { kind: 'own' }
  /** Super admin only: A's admin gets 403, nobody 401; with A's instance id, B's other ids are 404 even for the super admin. */
  | { kind: 'superadmin' }
  /** Open to anyone; called by A's admin with B's slug where there is one. */
  | { kind: 'public'; status: number };

/**
 * Every route the router knows, and what a session of instance A gets when it names
 * instance B's data. Add a row with every new route: the test fails while a route has none.
 * `params` gives B's ids for the route's path parameters where the defaults (B's slug,
 * instance id and a user id of B) are not the right kind of id.
 */
type Expectation = Access & { body?: Body; params?: (world: World) => Params; query?: string };

/** B's ids for the parameters most routes use. */
const defaultParams = (world: World): Params => ({
  instance: world.b.subdomain,
  instanceId: world.b.id,
  id: world.b.userId,
  userId: world.b.userId,
});

/** Parameters that name a record (not the instance). */
const isRecordParam = (name: string) => name !== 'instance' && name !== 'instanceId';

function paramNames(path: string): string[] {
  return path
    .split('/')
    .filter((part) => part.startsWith(':'))
    .map((part) => part.slice(1));
}

function substitute(path: string, params: Params): string {
  return path
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part;
      const value = params[part.slice(1)];
      if (value === undefined) throw new Error(`No value for ${part} in ${path}: give the row \`params\` with B's id for it`);
      return value;
    })
    .join('/');
}

const adminUsersRows = (base: string): Record<string, Expectation> => ({
  [`GET ${base}`]: base.includes(':instance') ? { kind: 'scoped' } : { kind: 'own' },
  [`POST ${base}`]: base.includes(':instance')
    ? { kind: 'scoped', body: () => ({ username: 'intruder', pin: '1111', role: 'admin' }) }
    : { kind: 'own', body: () => ({ username: 'bravouser', pin: '1111' }) },
  [`GET ${base}/:id`]: { kind: 'scoped' },
  [`DELETE ${base}/:id`]: { kind: 'scoped' },
  [`PATCH ${base}/:id/lock`]: { kind: 'scoped', body: () => ({ isLocked: true }) },
  [`DELETE ${base}/:id/sign-in-lock`]: { kind: 'scoped' },
  [`PATCH ${base}/:id/role`]: { kind: 'scoped', body: () => ({ role: 'admin' }) },
  [`PATCH ${base}/:id/permissions`]: { kind: 'scoped', body: () => ({ canDelete: true, canManageUsers: true }) },
  [`PUT ${base}/:id/pin`]: { kind: 'scoped', body: () => ({ pin: '0000' }) },
});

/** Customers: B's customer id for `:id`; without a slug in the path, the list, create and search are about A's own. */
const customerRows = (base: string): Record<string, Expectation> => {
  const own = !base.includes(':instance') && !base.includes('/maven/');
  const customer = (w: World): Params => ({ id: w.b.customerId });
  return {
    [`GET ${base}/search`]: own ? { kind: 'own' } : { kind: 'scoped' },
    // B's customer's very name, phone and email: A's own customers only.
    [`GET ${base}/matches`]: {
      ...(own ? { kind: 'own' } : { kind: 'scoped' }),
      query: '?name=Bravo%20Customer&phone=5550009999&email=bravo%40example.com',
    },
    [`GET ${base}`]: own ? { kind: 'own' } : { kind: 'scoped' },
    [`POST ${base}`]: own
      ? { kind: 'own', body: () => ({ name: 'Alpha walk-in' }) }
      : { kind: 'scoped', body: () => ({ name: 'Planted' }) },
    [`GET ${base}/:id`]: { kind: 'scoped', params: customer },
    [`PUT ${base}/:id`]: { kind: 'scoped', params: customer, body: () => ({ name: 'Hijacked' }) },
    [`DELETE ${base}/:id`]: { kind: 'scoped', params: customer },
    [`GET ${base}/:id/history`]: { kind: 'scoped', params: customer },
    [`POST ${base}/:id/history/:eventId/revert`]: {
      kind: 'scoped',
      params: (w) => ({ id: w.b.customerId, eventId: w.b.customerChangeId }),
    },
    // B's customer merged into B's customer through A: found in neither side.
    [`POST ${base}/:id/merge`]: { kind: 'scoped', params: customer, body: (w) => ({ intoId: w.b.customerId }) },
    [`DELETE ${base}/:id/merge`]: { kind: 'scoped', params: customer },
  };
};

/** Pipeline jobs: B's job id for `:id`; without a slug in the path, the list and create are about A's own. */
const pipelineRows = (base: string): Record<string, Expectation> => {
  const own = !base.includes(':instance') && !base.includes('/maven/');
  const job = (w: World): Params => ({ id: w.b.jobId });
  return {
    [`GET ${base}`]: own ? { kind: 'own' } : { kind: 'scoped' },
    [`POST ${base}`]: own
      ? { kind: 'own', body: () => ({ part: 'Alpha walk-in part' }) }
      : { kind: 'scoped', body: () => ({ part: 'Planted' }) },
    [`GET ${base}/:id`]: { kind: 'scoped', params: job },
    [`PUT ${base}/:id`]: { kind: 'scoped', params: job, body: () => ({ notes: 'Hijacked' }) },
    [`PATCH ${base}/:id/stage`]: { kind: 'scoped', params: job, body: () => ({ stage: 'Paid' }) },
    [`PATCH ${base}/:id/appointment`]: { kind: 'scoped', params: job, body: () => ({ appointment: '2026-01-05T15:00:00Z' }) },
    [`POST ${base}/:id/cancel`]: { kind: 'scoped', params: job },
    [`POST ${base}/:id/reopen`]: { kind: 'scoped', params: job },
    [`DELETE ${base}/:id`]: { kind: 'scoped', params: job },
    [`GET ${base}/:id/history`]: { kind: 'scoped', params: job },
    [`POST ${base}/:id/history/:eventId/revert`]: { kind: 'scoped', params: (w) => ({ id: w.b.jobId, eventId: w.b.jobChangeId }) },
  };
};

/** Service requests: B's request id for `:id`; without a slug in the path, the list, summary and create are about A's own. */
const serviceRequestRows = (base: string): Record<string, Expectation> => {
  const own = !base.includes(':instance');
  const request = (w: World): Params => ({ id: w.b.serviceRequestId });
  return {
    [`GET ${base}/summary`]: own ? { kind: 'own' } : { kind: 'scoped' },
    [`GET ${base}`]: own ? { kind: 'own' } : { kind: 'scoped' },
    [`POST ${base}`]: own
      ? { kind: 'own', body: () => ({ customerName: 'Alpha walk-in' }) }
      : { kind: 'scoped', body: () => ({ customerName: 'Planted' }) },
    [`GET ${base}/:id`]: { kind: 'scoped', params: request },
    [`PUT ${base}/:id`]: { kind: 'scoped', params: request, body: () => ({ customerName: 'Hijacked' }) },
    [`POST ${base}/:id/convert`]: { kind: 'scoped', params: request, body: () => ({ name: 'Hijacked' }) },
    [`POST ${base}/:id/archive`]: { kind: 'scoped', params: request },
    [`GET ${base}/:id/history`]: { kind: 'scoped', params: request },
  };
};

const forgedToken = (w: World) => `${w.b.estimateToken.slice(0, 32)}${'x'.repeat(32)}`;

/** Repair orders: B's job and line ids; the public estimate routes take B's token (the token is the key). */
const repairOrderRows = (): Record<string, Expectation> => {
  const job = (w: World): Params => ({ id: w.b.roJobId });
  const line = (w: World): Params => ({ id: w.b.roJobId, lineId: w.b.lineId });
  const base = '/api/:instance/pipeline/:id';
  return {
    'GET /api/:instance/settings': { kind: 'scoped' },
    'PUT /api/:instance/settings': { kind: 'scoped', body: () => ({ shopName: 'Hijacked' }) },
    [`POST ${base}/lines`]: { kind: 'scoped', params: job, body: () => ({ kind: 'fee', amount: '1' }) },
    [`POST ${base}/lines/reorder`]: { kind: 'scoped', params: job, body: (w) => ({ lineIds: [w.b.lineId] }) },
    [`PUT ${base}/lines/:lineId`]: { kind: 'scoped', params: line, body: () => ({ description: 'Hijacked' }) },
    [`DELETE ${base}/lines/:lineId`]: { kind: 'scoped', params: line },
    [`POST ${base}/estimate/send`]: { kind: 'scoped', params: job },
    [`POST ${base}/estimate/revoke`]: { kind: 'scoped', params: job },
    [`POST ${base}/invoice`]: { kind: 'scoped', params: job },
    [`POST ${base}/payments`]: { kind: 'scoped', params: job, body: () => ({ amount: '1', method: 'cash' }) },
    [`GET ${base}/estimate.pdf`]: { kind: 'scoped', params: job },
    [`GET ${base}/invoice.pdf`]: { kind: 'scoped', params: job },
    'GET /api/:instance/reports/takings': { kind: 'scoped' },
    'GET /api/:instance/reports/takings.csv': { kind: 'scoped' },
    // A token with B's job id but not B's secret part opens nothing (the customer's own link is the key).
    'GET /api/public/estimates/:token': { kind: 'public', status: 404, params: (w) => ({ token: forgedToken(w) }) },
    'POST /api/public/estimates/:token/decision': {
      kind: 'public',
      status: 404,
      params: (w) => ({ token: forgedToken(w) }),
      body: (w) => ({ approvedLineIds: [w.b.lineId], declinedLineIds: [], name: 'Planted' }),
    },
  };
};

/** Messages, templates and consent: B's message and customer ids; without a slug, the outbox and templates are A's own. */
const messageRows = (base: string): Record<string, Expectation> => {
  const own = base === '/api';
  const customer = (w: World): Params => ({ id: w.b.customerId });
  return {
    [`GET ${base}/messages`]: own ? { kind: 'own' } : { kind: 'scoped' },
    [`POST ${base}/messages/:id/retry`]: { kind: 'scoped', params: (w) => ({ id: w.b.messageId }) },
    [`GET ${base}/message-templates`]: own ? { kind: 'own' } : { kind: 'scoped' },
    [`PUT ${base}/message-templates`]: own
      ? { kind: 'own', body: () => ({ settings: { reminderHour: 9 } }) }
      : { kind: 'scoped', body: () => ({ settings: { fromAddress: 'planted@example.com' } }) },
    [`GET ${base}/customers/:id/consent`]: { kind: 'scoped', params: customer },
    [`PUT ${base}/customers/:id/consent`]: { kind: 'scoped', params: customer, body: () => ({ smsConsent: true }) },
  };
};

/** Vehicles: under B's slug, or with B's customer and vehicle ids under A's own. */
const vehicleRows = (): Record<string, Expectation> => {
  const customer = (w: World): Params => ({ id: w.b.customerId });
  const vehicle = (w: World): Params => ({ id: w.b.vehicleId });
  return {
    'GET /api/:instance/customers/:id/vehicles': { kind: 'scoped', params: customer },
    'POST /api/:instance/customers/:id/vehicles': { kind: 'scoped', params: customer, body: () => ({ make: 'Hijacked' }) },
    'GET /api/:instance/vehicles': { kind: 'scoped' },
    'GET /api/:instance/vehicles/:id': { kind: 'scoped', params: vehicle },
    'PUT /api/:instance/vehicles/:id': { kind: 'scoped', params: vehicle, body: () => ({ make: 'Hijacked' }) },
    'DELETE /api/:instance/vehicles/:id': { kind: 'scoped', params: vehicle },
    'GET /api/:instance/vehicles/:id/jobs': { kind: 'scoped', params: vehicle },
  };
};

/** Reads about A's own instance (no slug), or the same under B's slug. */
const instanceReadRows = (path: string): Record<string, Expectation> => ({
  [`GET /api${path}`]: { kind: 'own' },
  [`GET /api/:instance${path}`]: { kind: 'scoped' },
});

const EXPECTATIONS: Record<string, Expectation> = {
  'GET /api/app-info': { kind: 'public', status: 200 },
  // The API document and its docs page: public, and about no tenant.
  'GET /api/openapi.json': { kind: 'public', status: 200 },
  'GET /api/docs': { kind: 'public', status: 200 },
  'GET /api/docs/init.js': { kind: 'public', status: 200 },
  'GET /api/docs/assets/:file': { kind: 'public', status: 200, params: () => ({ file: 'swagger-ui.css' }) },
  // Public by design (a login page names its CRM); it tells nothing beyond that, and an
  // unknown slug is "No such CRM".
  'GET /api/instances/:subdomain': { kind: 'public', status: 404, params: () => ({ subdomain: 'nosuchcrm' }) },
  'POST /api/super-admin/login': { kind: 'public', status: 401, body: (w) => ({ username: w.a.admin.username, password: w.a.admin.pin }) },
  'GET /api/super-admin/current': { kind: 'superadmin' },
  'POST /api/super-admin/logout': { kind: 'public', status: 204 },
  'GET /api/crm-instances': { kind: 'superadmin' },
  'POST /api/crm-instances': {
    kind: 'superadmin',
    body: () => ({ name: 'X', displayName: 'X', subdomain: 'xtenant', adminUsername: 'xadmin', adminPin: '1111' }),
  },
  'PATCH /api/crm-instances/:instanceId': { kind: 'superadmin', body: () => ({ isActive: false }) },
  'GET /api/crm-instances/stats': { kind: 'superadmin' },
  'GET /api/crm-instances/parked-events': { kind: 'superadmin' },
  'GET /api/admin/parked-events': { kind: 'own' },
  'GET /api/:instance/admin/parked-events': { kind: 'scoped' },
  'GET /api/parked-changes': { kind: 'own', query: '?record=00000000-0000-4000-8000-000000000000' },
  'GET /api/:instance/parked-changes': { kind: 'scoped', query: '?record=00000000-0000-4000-8000-000000000000' },
  'GET /api/crm-instances/:instanceId': { kind: 'superadmin' },
  'PUT /api/crm-instances/:instanceId': {
    kind: 'superadmin',
    body: () => ({ displayName: 'Hijacked', features: { pipeline: false }, publicRequests: true }),
  },
  'GET /api/crm-instances/:instanceId/history': { kind: 'superadmin' },
  'GET /api/crm-instances/:instanceId/users': { kind: 'superadmin' },
  'GET /api/crm-instances/:instanceId/export': { kind: 'superadmin' },
  'POST /api/crm-instances/:instanceId/users': { kind: 'superadmin', body: () => ({ username: 'planted', pin: '1111', role: 'admin' }) },
  'PUT /api/crm-instances/:instanceId/users/:userId/pin': { kind: 'superadmin', body: () => ({ pin: '0000' }) },
  'POST /api/auth/login': {
    kind: 'public',
    status: 401,
    body: (w) => ({ username: w.a.admin.username, pin: w.a.admin.pin, instance: w.b.subdomain }),
  },
  'POST /api/:instance/auth/login': { kind: 'public', status: 401, body: (w) => ({ username: w.a.admin.username, pin: w.a.admin.pin }) },
  'POST /api/auth/logout': { kind: 'public', status: 204 },
  'GET /api/user/current': { kind: 'own' },
  // Answers for anyone (signed out is an answer); A's session is told about A only.
  'GET /api/session': { kind: 'public', status: 200 },
  'PUT /api/user/pin': { kind: 'own', body: (w) => ({ currentPin: w.a.admin.pin, newPin: w.a.admin.pin }) },
  ...adminUsersRows('/api/admin/users'),
  ...adminUsersRows('/api/:instance/admin/users'),
  ...customerRows('/api/customers'),
  ...customerRows('/api/maven/customers'),
  ...customerRows('/api/:instance/customers'),
  ...pipelineRows('/api/:instance/pipeline'),
  ...pipelineRows('/api/user-info'),
  ...pipelineRows('/api/crm/maven/user-info'),
  ...instanceReadRows('/calendar/appointments'),
  'GET /api/:instance/calendar': { kind: 'scoped' },
  ...instanceReadRows('/pipeline/board/summary'),
  ...instanceReadRows('/dashboard'),
  // The provider's own CRM: A's admin is no user of it.
  'GET /api/maven/dashboard': { kind: 'scoped' },
  'GET /api/:instance/insights': { kind: 'scoped' },
  // An event stream: A's own opens and tells nothing of B; under B's slug it never opens.
  ...instanceReadRows('/live'),
  'GET /api/:instance/deleted-records': { kind: 'scoped' },
  'POST /api/:instance/deleted-records/:kind/:id/restore': { kind: 'scoped', params: (w) => ({ kind: 'job', id: w.b.deletedJobId }) },
  'GET /api/admin/public-requests': { kind: 'own' },
  'PUT /api/admin/public-requests': { kind: 'own', body: () => ({ enabled: true }) },
  'GET /api/:instance/admin/public-requests': { kind: 'scoped' },
  'PUT /api/:instance/admin/public-requests': { kind: 'scoped', body: () => ({ enabled: true }) },
  ...serviceRequestRows('/api/service-requests'),
  ...serviceRequestRows('/api/:instance/service-requests'),
  // The public request page names its shop (like a login page); B's page is off, so a request to it is a 404.
  'GET /api/public/:subdomain/request-page': { kind: 'public', status: 200, params: (w) => ({ subdomain: w.b.subdomain }) },
  'POST /api/public/:subdomain/service-requests': {
    kind: 'public',
    status: 404,
    params: (w) => ({ subdomain: w.b.subdomain }),
    body: () => ({ customerName: 'Planted', contactEmail: 'planted@example.com' }),
  },
  ...instanceReadRows('/users/choices'),
  ...instanceReadRows('/admin/audit'),
  ...instanceReadRows('/admin/audit.csv'),
  ...instanceReadRows('/activity/recent'),
  ...messageRows('/api'),
  ...messageRows('/api/maven'),
  ...messageRows('/api/:instance'),
  // Customers reach these without a session: no token is a 400, and no text provider is configured here.
  'GET /api/public/messages/unsubscribe': { kind: 'public', status: 400 },
  'POST /api/public/messages/unsubscribe': { kind: 'public', status: 400 },
  'POST /api/public/messages/sms-inbound': { kind: 'public', status: 404 },
  ...vehicleRows(),
  ...repairOrderRows(),
};

let server: TestServer;
let world: World;

beforeAll(async () => {
  server = await startTestServer();
  const a = await createTestInstance(server, 'alpha', { username: 'alphaboss', pin: '1234' });
  const b = await createTestInstance(server, 'bravo', { username: 'bravoboss', pin: '5678' });
  // The calendar is off by default: on here, so its routes answer and can be checked.
  const superAdmin = await signInSuperAdmin(server);
  for (const instance of [a, b]) {
    const res = await superAdmin.put(`/api/crm-instances/${instance.id}`, { features: { calendar: true } });
    if (res.status !== 200) throw new Error(`turning the calendar on failed: ${res.status} ${res.text}`);
  }
  const aAdmin = await signInUser(server, 'alpha', 'alphaboss', '1234');
  const bAdmin = await signInUser(server, 'bravo', 'bravoboss', '5678');
  const aUser = await aAdmin.post('/api/admin/users', { username: 'alphauser', pin: '1111' });
  const bUser = await bAdmin.post('/api/admin/users', { username: 'bravouser', pin: '2222' });
  const bAdminId = (await bAdmin.get('/api/user/current')).body.id as string;
  const bCustomer = await bAdmin.post('/api/customers', { name: 'Bravo Customer', phone: '5550009999' });
  await aAdmin.post('/api/customers', { name: 'Alpha Customer' });
  const bJob = await bAdmin.post('/api/user-info', { name: 'Bravo Customer', customerId: bCustomer.body.id, part: 'Bravo part' });
  await aAdmin.post('/api/user-info', { part: 'Alpha part' });
  const bVehicle = await bAdmin.post(`/api/bravo/customers/${bCustomer.body.id}/vehicles`, { make: 'Bravo', vin: '1HGCM82633A004352' });
  const aCustomer = (await aAdmin.get('/api/customers')).body.items[0] as { id: string };
  await aAdmin.post(`/api/alpha/customers/${aCustomer.id}/vehicles`, { make: 'Alpha' });
  if (bVehicle.status !== 201) throw new Error(`setup: ${bVehicle.status} ${bVehicle.text}`);
  const bRequest = await bAdmin.post('/api/service-requests', { customerName: 'Bravo Requester', vehicleType: 'Bravo van' });
  await aAdmin.post('/api/service-requests', { customerName: 'Alpha Requester', contactEmail: 'alpha-mail@example.com' });
  // Its e-mail answer lands in B's outbox (recorded as not sent: no SMTP server here).
  await bAdmin.post('/api/service-requests', { customerName: 'Bravo Mailer', contactEmail: 'bravo-mail@example.com' });
  let bMessages: Array<{ id: string }> = [];
  for (let tries = 0; tries < 100 && bMessages.length === 0; tries++) {
    bMessages = ((await bAdmin.get('/api/messages')).body as { items: Array<{ id: string }> }).items;
    if (bMessages.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (bMessages.length === 0) throw new Error("setup: no message in B's outbox");
  // A change each in B's job and customer history, which a revert could undo, and a deleted job a restore could bring back.
  const bJobChange = await bAdmin.put(`/api/user-info/${bJob.body.id}`, { notes: 'Bravo note' });
  const bCustomerChange = await bAdmin.put(`/api/customers/${bCustomer.body.id}`, { email: 'bravo@example.com' });
  const bGone = await bAdmin.post('/api/user-info', { part: 'Bravo scrapped part' });
  const bDelete = await bAdmin.delete(`/api/user-info/${bGone.body.id}`);
  for (const res of [bJobChange, bCustomerChange, bDelete]) if (res.status >= 300) throw new Error(`setup: ${res.status} ${res.text}`);
  const latestChange = async (path: string) => ((await bAdmin.get(path)).body as Array<{ id: string; action: string }>)[0]!;
  const bJobChangeRow = await latestChange(`/api/user-info/${bJob.body.id}/history`);
  const bCustomerChangeRow = await latestChange(`/api/customers/${bCustomer.body.id}/history`);
  const bRoJob = await bAdmin.post('/api/bravo/pipeline', { name: 'Bravo Customer', customerId: bCustomer.body.id, part: 'Bravo order' });
  const bLine = await bAdmin.post(`/api/bravo/pipeline/${bRoJob.body.id}/lines`, { kind: 'labor', description: 'Bravo labor', hours: '1' });
  const bEstimate = await bAdmin.post(`/api/bravo/pipeline/${bRoJob.body.id}/estimate/send`, {});
  for (const res of [bLine, bEstimate]) if (res.status !== 201) throw new Error(`setup: ${res.status} ${res.text}`);
  world = {
    a: { ...a, userId: aUser.body.id },
    b: {
      ...b,
      userId: bUser.body.id,
      adminId: bAdminId,
      customerId: bCustomer.body.id,
      jobId: bJob.body.id,
      serviceRequestId: bRequest.body.id,
      jobChangeId: bJobChangeRow.id,
      customerChangeId: bCustomerChangeRow.id,
      deletedJobId: bGone.body.id,
      messageId: bMessages[0]!.id,
      vehicleId: bVehicle.body.id,
      roJobId: bRoJob.body.id,
      lineId: bLine.body.lines[0].id,
      estimateToken: bEstimate.body.token,
    },
  };
});
afterAll(async () => {
  await server?.stop();
});

/** `route` is the router's path (with parameters), `path` the one requested. */
function call(client: ApiClient, method: string, route: string, path: string, body: unknown): Promise<ApiResponse> {
  const info = server.runtime.router.routes.find((r) => r.method === method && r.path === route);
  if (info?.doc?.produces === 'text/event-stream') return openStream(client, path);
  return client.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : (body ?? {}));
}

/**
 * An event stream never ends by itself: read it up to its first message (`ready`), or to
 * its end when it is refused, then close it. The text is what came until then.
 */
async function openStream(client: ApiClient, path: string): Promise<ApiResponse> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 15_000);
  try {
    const response = await fetch(client.baseUrl + path, {
      headers: { accept: 'text/event-stream', ...(client.cookieHeader() ? { cookie: client.cookieHeader() } : {}) },
      signal: abort.signal,
    });
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        if (/^event: ready$/m.test(text)) break;
      }
    } catch {
      // Closed by the timer: what came so far is the answer.
    }
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // a stream, not JSON
    }
    return { status: response.status, headers: response.headers, body, text };
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** Nothing that identifies instance B. */
function expectNothingOfB(res: ApiResponse) {
  for (const secret of [
    world.b.id,
    world.b.userId,
    world.b.adminId,
    'bravoboss',
    world.b.customerId,
    'Bravo Customer',
    '5550009999',
    world.b.jobId,
    'Bravo part',
    world.b.serviceRequestId,
    'Bravo Requester',
    world.b.jobChangeId,
    world.b.customerChangeId,
    world.b.deletedJobId,
    'Bravo scrapped part',
    'Bravo note',
    'bravo@example.com',
    world.b.messageId,
    'bravo-mail@example.com',
    'Bravo Mailer',
    world.b.vehicleId,
    '1HGCM82633A004352',
  ])
    expect(res.text).not.toContain(secret);
}

describe('cross-tenant matrix', () => {
  test('every route the router knows has a row, and every row a route', () => {
    const routes = server.runtime.router.routes.map((r) => `${r.method} ${r.path}`).sort();
    expect(Object.keys(EXPECTATIONS).sort(), 'add a row to EXPECTATIONS in backend/test/cross-tenant.test.ts for each route').toEqual(
      routes,
    );
  });

  test.each(Object.entries(EXPECTATIONS))('%s', async (key, expectation) => {
    const [method, path] = key.split(' ') as [string, string];
    const body = expectation.body?.(world);
    const params = { ...defaultParams(world), ...expectation.params?.(world) };
    const namesRecord = paramNames(path).some(isRecordParam);
    const aAdmin = await signInUser(server, 'alpha', world.a.admin.username, world.a.admin.pin);
    const query = expectation.query ?? '';
    const res = await call(aAdmin, method, path, substitute(path, params) + query, body);
    expect(res.status, res.text).toBeLessThan(500);
    switch (expectation.kind) {
      case 'scoped': {
        expect(res.status, res.text).toBe(expectation.status ?? 404);
        expectNothingOfB(res);
        // A's own slug with B's record ids: still nothing there.
        if (paramNames(path).includes('instance') && namesRecord) {
          const mixed = await call(aAdmin, method, path, substitute(path, { ...params, instance: world.a.subdomain }) + query, body);
          expect(mixed.status, mixed.text).toBe(expectation.status ?? 404);
        }
        break;
      }
      case 'own':
        expect(res.status, res.text).toBeLessThan(400);
        expectNothingOfB(res);
        break;
      case 'superadmin': {
        expect(res.status).toBe(403);
        expect((await call(new ApiClient(server.url), method, path, substitute(path, params), body)).status).toBe(401);
        // The super admin reaches every instance, but a record only within its own instance.
        if (paramNames(path).includes('instanceId') && namesRecord) {
          const superAdmin = await signInSuperAdmin(server);
          const mixed = await call(superAdmin, method, path, substitute(path, { ...params, instanceId: world.a.id }), body);
          expect(mixed.status, mixed.text).toBe(404);
        }
        break;
      }
      case 'public':
        expect(res.status, res.text).toBe(expectation.status);
        expectNothingOfB(res);
        break;
    }
  });

  test('instance B came through the whole matrix untouched', async () => {
    const bAdmin = await signInUser(server, 'bravo', 'bravoboss', '5678');
    const users = (await bAdmin.get('/api/admin/users')).body as Array<{ id: string; username: string }>;
    expect(users.map((u) => u.username)).toEqual(['bravoboss', 'bravouser']);
    expect(users.find((u) => u.id === world.b.userId)).toMatchObject({
      role: 'user',
      isLocked: false,
      permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
    });
    await signInUser(server, 'bravo', 'bravouser', '2222');
    const customer = await bAdmin.get(`/api/customers/${world.b.customerId}`);
    expect(customer.body).toMatchObject({ name: 'Bravo Customer', phone: '555-000-9999' });
    const customerHistory = (await bAdmin.get(`/api/customers/${world.b.customerId}/history`)).body as Array<{ id: string }>;
    expect(customerHistory.map((row) => row.id)).toContain(world.b.customerChangeId);
    expect(customerHistory).toHaveLength(2);
    const job = await bAdmin.get(`/api/user-info/${world.b.jobId}`);
    expect(job.body).toMatchObject({ part: 'Bravo part', stage: 'Quote', notes: 'Bravo note', revision: 1 });
    expect((await bAdmin.get(`/api/user-info/${world.b.jobId}/history`)).body).toHaveLength(2);
    // B's repair order: one line, one estimate sent (created, line added, quote followed, estimate sent).
    const order = await bAdmin.get(`/api/bravo/pipeline/${world.b.roJobId}`);
    expect(order.body).toMatchObject({ revision: 3, estimate: { status: 'sent', version: 1 }, payments: [], invoice: null });
    expect(order.body.lines).toHaveLength(1);
    expect((await bAdmin.get('/api/bravo/settings')).body).toMatchObject({ shopName: '', revision: 0 });
    // The deleted job is still deleted, and the instance's settings are as they were.
    const deleted = (await bAdmin.get(`/api/${world.b.subdomain}/deleted-records`)).body as { items: Array<{ id: string }> };
    expect(deleted.items.map((item) => item.id)).toEqual([world.b.deletedJobId]);
    const superAdmin = await signInSuperAdmin(server);
    const instance = await superAdmin.get(`/api/crm-instances/${world.b.id}`);
    expect(instance.body).toMatchObject({ displayName: 'bravo Auto', isActive: true, publicRequests: false });
    expect(instance.body.features).toMatchObject({ pipeline: true, customers: true, calendar: true, serviceRequests: true });
    const request = await bAdmin.get(`/api/service-requests/${world.b.serviceRequestId}`);
    expect(request.body).toMatchObject({ customerName: 'Bravo Requester', status: 'open', jobId: null, revision: 0 });
  });
});

describe('row-level security', () => {
  const tables = [
    'users',
    'user_permissions',
    'activity',
    'customers',
    'customer_counts',
    'jobs',
    'job_history',
    'service_requests',
    'messages',
    'vehicles',
  ];

  test.each(tables)('%s: a query through withTenant that forgets its instance filter sees only its instance', async (table) => {
    await server.caughtUp();
    const { knex } = server.runtime.deps;
    const all = (await knex.withSchema('rm').from(table).select('instance_id')) as Array<{ instance_id: string }>;
    expect(all.some((r) => r.instance_id === world.a.id) && all.some((r) => r.instance_id === world.b.id)).toBe(true);

    const scoped = (await withTenant(knex, world.a.id, (db) => db.withSchema('rm').from(table).select('instance_id'))) as Array<{
      instance_id: string;
    }>;
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.every((r) => r.instance_id === world.a.id)).toBe(true);
    expect(scoped.length).toBe(all.filter((r) => r.instance_id === world.a.id).length);

    const nobody = await withTenant(knex, '00000000-0000-4000-8000-000000000000', (db) => db.withSchema('rm').from(table).select());
    expect(nobody).toEqual([]);
  });

  test("inside a transaction, withTenant reads on the transaction's own connection as the API role, gives the role back, and opens no connection", async () => {
    await server.caughtUp();
    const { knex } = server.runtime.deps;
    const sessions = async () =>
      Number((await knex.raw('select count(*) as n from pg_stat_activity where datname = current_database()')).rows[0].n);
    const before = await sessions();
    for (let i = 0; i < 5; i++) {
      await knex.transaction(async (trx) => {
        const pid = (await trx.raw('select pg_backend_pid() as pid')).rows[0].pid;
        const seen = await withTenant(trx, world.a.id, async (db) => ({
          pid: (await db.raw('select pg_backend_pid() as pid, current_user as role')).rows[0],
          rows: (await db.withSchema('rm').from('jobs').select('instance_id')) as Array<{ instance_id: string }>,
        }));
        expect(seen.pid).toEqual({ pid, role: 'crm_api' });
        expect(seen.rows.length).toBeGreaterThan(0);
        expect(seen.rows.every((r) => r.instance_id === world.a.id)).toBe(true);
        expect((await trx.raw('select current_user as role')).rows[0].role).not.toBe('crm_api');
      });
    }
    // Each withTenant on a transaction used to open a tenant pool of its own, never closed.
    expect(await sessions()).toBeLessThanOrEqual(before);
    await expect(
      knex.transaction((trx) => withTenant(trx, world.a.id, (db) => db.withSchema('rm').table('users').update({ role: 'admin' }))),
    ).rejects.toThrow(/permission denied/);
  });

  test('the API role cannot write read models, even its own rows', async () => {
    const { knex } = server.runtime.deps;
    await expect(
      withTenant(knex, world.a.id, (db) => db.withSchema('rm').table('users').where({ id: world.a.userId }).update({ role: 'admin' })),
    ).rejects.toThrow(/permission denied/);
  });
});
