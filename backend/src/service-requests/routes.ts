import { jobChangesInput, jobConversionInput } from '@crm/projections/contract';
import {
  publicRequestPageSchema,
  publicRequestReceiptSchema,
  publicServiceRequestInput,
  serviceRequestChangesInput,
  serviceRequestConversionSchema,
  serviceRequestHistorySchema,
  serviceRequestInput,
  serviceRequestListQuery,
  serviceRequestPageSchema,
  serviceRequestSummarySchema,
  serviceRequestViewSchema,
  SERVICE_REQUEST_MESSAGES,
} from '@crm/projections/service-requests';
import { revisionETag } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import { access, userOf, type ApiContext, type ApiHandler, type ApiRouter, type RouteDoc, type RouteOptions } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { findInstanceBySubdomain } from '../platform/index.ts';
import { commandContext } from '../http/command-context.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { NotFoundError, TooManyRequestsError } from '../shared/errors.ts';
import { decodeNewestFirstCursor } from '../shared/list-query.ts';
import { countPublicRequest, PUBLIC_REQUEST_LIMIT_MESSAGE, PUBLIC_REQUEST_LIMITS } from './public-request-limits.ts';
import { listServiceRequests, serviceRequestSummary } from './service-request-queries.ts';
import {
  archiveServiceRequest,
  convertServiceRequest,
  getServiceRequest,
  getServiceRequestHistory,
  submitServiceRequest,
  updateServiceRequest,
} from './service-request-service.ts';

/**
 * Service requests in both path families: the session's instance and the instance named in
 * the path (a path naming another instance is a 404). Every route belongs to the
 * serviceRequests feature: while an instance has it off, they answer 404.
 */
export const SERVICE_REQUEST_FAMILIES: ReadonlyArray<{ base: string; options?: RouteOptions }> = [
  { base: '/api/service-requests' },
  { base: '/api/:instance/service-requests' },
];

/** The public request page's endpoints: no sign-in, the shop named by its subdomain. */
export const PUBLIC_REQUEST_PATHS = {
  page: '/api/public/:subdomain/request-page',
  submit: '/api/public/:subdomain/service-requests',
} as const;

/** Who a request from the public page is recorded as. */
const PUBLIC_ACTOR = { kind: 'system' as const, id: 'public-request-page', displayName: 'Public request page' };

const TAG = 'service-requests';

const DOCS = {
  summary: {
    summary: 'Counts for the navigation badge and the dashboard: open requests, and public ones staff have not acted on yet',
    tag: TAG,
    response: serviceRequestSummarySchema,
  },
  list: {
    summary: 'Service requests, newest first, searched by substring (name, email, vehicle, service, notes), in keyset pages',
    tag: TAG,
    query: serviceRequestListQuery,
    response: serviceRequestPageSchema,
  },
  create: {
    summary: 'A new service request (ETag: its revision)',
    tag: TAG,
    body: serviceRequestInput,
    response: serviceRequestViewSchema,
    status: 201,
  },
  show: { summary: 'One service request (ETag: its revision)', tag: TAG, response: serviceRequestViewSchema },
  update: {
    summary:
      'Change a service request: the fields sent (If-Match: the revision the form loaded). A change that would leave every field blank, with what is stored, is a 400 (At least one field must be filled out)',
    tag: TAG,
    body: serviceRequestChangesInput,
    response: serviceRequestViewSchema,
  },
  convert: {
    summary:
      "Create the request's job and link both: the fields sent (the entry dialog's), the request's own for what is left out (name, vehicle, service as the part, wanted date at 9:00 in the shop's zone, notes); `customerId` links an existing customer, otherwise a new one is made with the request's email. A job left with every field blank is a 400 (At least one field must be filled out). Idempotent: a converted request answers with its job, 200",
    tag: TAG,
    body: jobConversionInput,
    response: serviceRequestConversionSchema,
    status: 201,
    answers: { 200: 'The request was converted before: its job, unchanged' },
  },
  archive: {
    summary: 'Archive a service request (If-Match optional): kept with its history, no longer edited',
    tag: TAG,
    response: serviceRequestViewSchema,
    status: 200,
  },
  history: { summary: "A service request's changes, field by field, newest first", tag: TAG, response: serviceRequestHistorySchema },
  publicPage: {
    summary: "Whether a shop's public request page is on, and the shop's name (no sign-in)",
    tag: TAG,
    response: publicRequestPageSchema,
  },
  publicSubmit: {
    summary: "A request from a shop's public page (no sign-in; rate-limited per IP and per shop; 404 while the page is off)",
    tag: TAG,
    body: publicServiceRequestInput,
    response: publicRequestReceiptSchema,
    status: 201,
    answers: { 429: 'Too many requests from this address or for this shop: wait (Retry-After)' },
  },
} satisfies Record<string, RouteDoc>;

export function registerServiceRequestRoutes(router: ApiRouter, deps: AppDeps): void {
  const instanceOf = (ctx: ApiContext) => userOf(ctx).instance.id;
  const idOf = (ctx: ApiContext) => (ctx.params.id ?? '').toLowerCase();
  const commandCtx = (ctx: ApiContext): InstanceContext => {
    const instanceId = instanceOf(ctx);
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };

  const summary: ApiHandler = async (ctx) => {
    ctx.body = await serviceRequestSummary(deps.knex, instanceOf(ctx));
  };

  const list: ApiHandler = async (ctx) => {
    const query = parseInput(serviceRequestListQuery, ctx.query);
    ctx.body = await listServiceRequests(deps.knex, instanceOf(ctx), {
      search: query.q,
      status: query.status,
      jobId: query.jobId ?? null,
      limit: query.limit,
      cursor: query.cursor ? decodeNewestFirstCursor(query.cursor) : null,
    });
  };

  const create: ApiHandler = async (ctx) => {
    const fields = parseInput(serviceRequestInput, ctx.request.body);
    sendRecord(ctx, await submitServiceRequest(deps, fields, 'staff', commandCtx(ctx)), 201);
  };

  const show: ApiHandler = async (ctx) => {
    sendRecord(ctx, await getServiceRequest(deps, instanceOf(ctx), idOf(ctx)));
  };

  const update: ApiHandler = async (ctx) => {
    const expectedRevision = expectedRevisionOf(ctx);
    sendRecord(ctx, await updateServiceRequest(deps, idOf(ctx), ctx.request.body, commandCtx(ctx), expectedRevision));
  };

  const convert: ApiHandler = async (ctx) => {
    const changes = parseInput(jobChangesInput, ctx.request.body);
    const result = await convertServiceRequest(deps, idOf(ctx), changes, commandCtx(ctx), userOf(ctx).instance.timeZone);
    ctx.status = result.created ? 201 : 200;
    ctx.set('ETag', revisionETag(result.serviceRequest.revision));
    ctx.body = result;
  };

  const archive: ApiHandler = async (ctx) => {
    const expectedRevision = expectedRevisionOf(ctx);
    sendRecord(ctx, await archiveServiceRequest(deps, idOf(ctx), commandCtx(ctx), expectedRevision));
  };

  const history: ApiHandler = async (ctx) => {
    ctx.body = await getServiceRequestHistory(deps, instanceOf(ctx), idOf(ctx));
  };

  const read = access.can('canRead');
  const write = access.can('canWrite');
  for (const { base, options } of SERVICE_REQUEST_FAMILIES) {
    const of = (doc: RouteDoc): RouteOptions => ({ ...options, feature: 'serviceRequests', doc });
    // Before `/:id`, which would take "summary" for an id.
    router.get(`${base}/summary`, read, summary, of(DOCS.summary));
    router.get(base, read, list, of(DOCS.list));
    router.post(base, write, create, of(DOCS.create));
    router.get(`${base}/:id`, read, show, of(DOCS.show));
    router.put(`${base}/:id`, write, update, of(DOCS.update));
    router.post(`${base}/:id/convert`, write, convert, of(DOCS.convert));
    router.post(`${base}/:id/archive`, access.can('canDelete'), archive, of(DOCS.archive));
    router.get(`${base}/:id/history`, read, history, of(DOCS.history));
  }

  // ---- the public request page ----------------------------------------------------

  /** The shop behind a public path, when its page takes requests; a closed or unknown shop is one 404 (nothing to tell apart). */
  const openShop = async (ctx: ApiContext) => {
    const instance = await findInstanceBySubdomain(deps.knex, ctx.params.subdomain ?? '');
    if (!instance || !instance.isActive) throw new NotFoundError('No such CRM');
    return { instance, enabled: instance.publicRequests && instance.features.serviceRequests };
  };

  router.get(
    PUBLIC_REQUEST_PATHS.page,
    access.public,
    async (ctx) => {
      const { instance, enabled } = await openShop(ctx);
      ctx.body = { enabled, shopName: instance.displayName || instance.name };
    },
    { doc: DOCS.publicPage },
  );

  router.post(
    PUBLIC_REQUEST_PATHS.submit,
    access.public,
    async (ctx) => {
      const { instance, enabled } = await openShop(ctx);
      if (!enabled) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.publicOff);
      const refuse = (wait: number | null) => {
        if (wait === null) return;
        ctx.set('Retry-After', String(wait));
        throw new TooManyRequestsError(PUBLIC_REQUEST_LIMIT_MESSAGE);
      };
      // Every post counts against its own address, before validation: a flood of bad
      // requests is a flood all the same, but only its sender's.
      refuse(await countPublicRequest(deps.knex, [{ key: `ip:${ctx.ip}`, max: PUBLIC_REQUEST_LIMITS.perIp }]));
      const { fields, honeypot } = parseInput(publicServiceRequestInput, ctx.request.body);
      // A filled honeypot is a bot: it gets the same receipt as a person, and nothing is recorded.
      if (!honeypot) {
        // The shop's limit counts only requests that are stored, and each address once: an
        // address's own limit bounds what it sends, so a flood from a handful of addresses
        // (junk or not) never closes the page to a new visitor from elsewhere; it closes
        // only when many addresses have each sent requests in the window.
        const newAddress = (await countPublicRequest(deps.knex, [{ key: `instance-ip:${instance.id}:${ctx.ip}`, max: 1 }])) === null;
        if (newAddress) {
          refuse(await countPublicRequest(deps.knex, [{ key: `instance:${instance.id}`, max: PUBLIC_REQUEST_LIMITS.perInstance }]));
        }
        const base = commandContext(ctx, deps, instance.id);
        await submitServiceRequest(deps, fields, 'public', { ...base, instanceId: instance.id, actor: PUBLIC_ACTOR });
      }
      ctx.status = 201;
      ctx.body = { received: true };
    },
    { doc: DOCS.publicSubmit },
  );
}
