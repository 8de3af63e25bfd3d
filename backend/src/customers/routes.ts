import {
  asOfQuery,
  customerChangesInput,
  customerDeletedSchema,
  customerHistorySchema,
  customerInput,
  customerListQuery,
  customerMatchesQuery,
  customerMatchesSchema,
  customerPageSchema,
  customerRecordSchema,
  customerSuggestionsSchema,
  customerSuggestQuery,
  customerViewSchema,
} from '@crm/projections/contract';
import { RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import type { AppDeps } from '../deps.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import {
  access,
  FeatureOffError,
  userOf,
  type ApiContext,
  type ApiHandler,
  type ApiRouter,
  type RouteDoc,
  type RouteOptions,
} from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { commandContext } from '../http/command-context.ts';
import { decodeNewestFirstCursor } from '../shared/list-query.ts';
import { asOfOf } from '../shared/time-travel.ts';
import { listCustomersJson, matchCustomers, suggestCustomersJson, type CustomerRecordPart } from './customer-queries.ts';
import {
  addCustomer,
  deleteCustomer,
  getCustomerAsOf,
  getCustomerHistory,
  getCustomerRecord,
  updateCustomer,
  type CustomerVehicleRecords,
} from './customer-service.ts';

/**
 * Every customer route exists in three families:
 * the session's instance, the instance named in the path, and the provider's own
 * instance. The instance always comes from the session; a path naming another one is a 404.
 */
export const CUSTOMER_FAMILIES: ReadonlyArray<{ base: string; options?: RouteOptions }> = [
  { base: '/api/customers' },
  { base: `/api/${RESERVED_INSTANCE_SUBDOMAIN}/customers`, options: { pathInstance: RESERVED_INSTANCE_SUBDOMAIN } },
  { base: '/api/:instance/customers' },
];

const DOCS = {
  suggest: {
    summary: "The pipeline dialog's autocomplete: customers whose name, phone, email, address or vehicles hold the text (phones masked)",
    tag: 'customers',
    query: customerSuggestQuery,
    response: customerSuggestionsSchema,
  },
  matches: {
    summary:
      'Customers that may be the same person: the same name (without case), phone digits or email (without case), newest first, each with what it matched on (phones masked)',
    tag: 'customers',
    query: customerMatchesQuery,
    response: customerMatchesSchema,
  },
  list: {
    summary: 'Customers, newest first, searched by substring (their fields and their vehicle records), in keyset pages (phones masked)',
    tag: 'customers',
    query: customerListQuery,
    response: customerPageSchema,
  },
  create: {
    summary: 'A new customer, each of its vehicles a vehicle record of it, made in the same append (ETag: its revision)',
    tag: 'customers',
    body: customerInput,
    response: customerViewSchema,
    status: 201,
  },
  show: {
    summary:
      'One customer with its consent to e-mail and texts as it is now (ETag: its revision); with asOf, as it was then (no ETag, no consent fields)',
    tag: 'customers',
    query: asOfQuery,
    response: customerRecordSchema,
  },
  update: {
    summary:
      'Change a customer: the fields sent (If-Match: the revision the form loaded); each vehicle added to its vehicles becomes a vehicle record of it, and each one taken off has its record deleted, in the same append. A change that would leave every field blank, with what is stored, is a 400 (At least one field must be filled out)',
    tag: 'customers',
    body: customerChangesInput,
    response: customerViewSchema,
  },
  remove: {
    summary: "Delete a customer; the pipeline's reactor deletes its jobs, and the answer says how many",
    tag: 'customers',
    response: customerDeletedSchema,
  },
  history: { summary: "A customer's changes, field by field, newest first", tag: 'customers', response: customerHistorySchema },
} satisfies Record<string, RouteDoc>;

/** The customer's consent per channel, added to the record's statement by the slice that keeps it (handed in by the composition root). */
export type CustomerConsentPart = CustomerRecordPart<{ emailConsent: boolean; smsConsent: boolean }>;

/** `vehicles`: the vehicle records the vehicles typed on a customer become (the vehicles slice, handed in by the composition root). */
export function registerCustomerRoutes(
  router: ApiRouter,
  deps: AppDeps,
  consent: CustomerConsentPart,
  vehicles: CustomerVehicleRecords,
): void {
  const instanceOf = (ctx: ApiContext) => userOf(ctx).instance.id;
  const idOf = (ctx: ApiContext) => ctx.params.id ?? '';
  const commandCtx = (ctx: ApiContext) => {
    const instanceId = instanceOf(ctx);
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };

  const list: ApiHandler = async (ctx) => {
    const query = parseInput(customerListQuery, ctx.query);
    ctx.type = 'json';
    ctx.body = await listCustomersJson(deps.knex, instanceOf(ctx), {
      search: query.q,
      limit: query.limit,
      cursor: query.cursor ? decodeNewestFirstCursor(query.cursor) : null,
    });
  };

  // The pipeline's entry dialog completes names from the customers and reads the chosen one
  // (its whole phone, its vehicles), so the search and the single read answer while either
  // feature is on: switching Customers off must not break the pipeline.
  const customersOrPipeline = (ctx: ApiContext) => {
    const { features } = userOf(ctx).instance;
    if (!features.customers && !features.pipeline) throw new FeatureOffError();
  };

  const suggest: ApiHandler = async (ctx) => {
    customersOrPipeline(ctx);
    const query = parseInput(customerSuggestQuery, ctx.query);
    ctx.type = 'json';
    ctx.body = await suggestCustomersJson(deps.knex, instanceOf(ctx), query.query || query.q);
  };

  const matches: ApiHandler = async (ctx) => {
    customersOrPipeline(ctx);
    ctx.body = await matchCustomers(deps.knex, instanceOf(ctx), parseInput(customerMatchesQuery, ctx.query));
  };

  const create: ApiHandler = async (ctx) => {
    sendRecord(ctx, await addCustomer(deps, ctx.request.body, commandCtx(ctx), vehicles), 201);
  };

  const show: ApiHandler = async (ctx) => {
    customersOrPipeline(ctx);
    const asOf = asOfOf(parseInput(asOfQuery, ctx.query));
    // A moment in the past gets no ETag: it is not something to save over.
    if (asOf) ctx.body = await getCustomerAsOf(deps, instanceOf(ctx), idOf(ctx), asOf);
    else sendRecord(ctx, await getCustomerRecord(deps, instanceOf(ctx), idOf(ctx), consent));
  };

  const update: ApiHandler = async (ctx) => {
    const expectedRevision = expectedRevisionOf(ctx);
    sendRecord(ctx, await updateCustomer(deps, idOf(ctx), ctx.request.body, commandCtx(ctx), vehicles, expectedRevision));
  };

  const remove: ApiHandler = async (ctx) => {
    ctx.body = await deleteCustomer(deps, idOf(ctx), commandCtx(ctx), vehicles);
  };

  const history: ApiHandler = async (ctx) => {
    ctx.body = await getCustomerHistory(deps, instanceOf(ctx), idOf(ctx), userOf(ctx));
  };

  const read = access.can('canRead');
  const write = access.can('canWrite');
  for (const { base, options } of CUSTOMER_FAMILIES) {
    // Before `/:id`, which would take "search" for an id.
    router.get(`${base}/search`, read, suggest, { ...options, doc: DOCS.suggest });
    router.get(`${base}/matches`, read, matches, { ...options, doc: DOCS.matches });
    // While the instance has Customers off, these answer 404.
    const customers = { ...options, feature: 'customers' } as const;
    router.get(base, read, list, { ...customers, doc: DOCS.list });
    router.post(base, write, create, { ...customers, doc: DOCS.create });
    router.get(`${base}/:id`, read, show, { ...options, doc: DOCS.show });
    router.put(`${base}/:id`, write, update, { ...customers, doc: DOCS.update });
    router.delete(`${base}/:id`, access.can('canDelete'), remove, { ...customers, doc: DOCS.remove });
    router.get(`${base}/:id/history`, read, history, { ...customers, doc: DOCS.history });
  }
}
