import { z } from 'zod';
import { CUSTOMER_PAGE_SIZE, CUSTOMER_PAGE_SIZE_MAX, CUSTOMER_SEARCH_MAX } from '@crm/projections/customers';
import { RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import { asOfQuery } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import { access, userOf, type ApiContext, type ApiHandler, type ApiRouter, type RouteOptions } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { commandContext } from '../platform/index.ts';
import { decodeCustomerCursor, listCustomers, suggestCustomers } from './customer-queries.ts';
import { addCustomer, deleteCustomer, getCustomer, getCustomerAsOf, getCustomerHistory, updateCustomer } from './customer-service.ts';

/**
 * Every customer route exists in three families (DECISIONS.md §1, spec-platform.md §7):
 * the session's instance, the instance named in the path, and the provider's own
 * instance. The instance always comes from the session; a path naming another one is a 404.
 */
export const CUSTOMER_FAMILIES: ReadonlyArray<{ base: string; options?: RouteOptions }> = [
  { base: '/api/customers' },
  { base: `/api/${RESERVED_INSTANCE_SUBDOMAIN}/customers`, options: { pathInstance: RESERVED_INSTANCE_SUBDOMAIN } },
  { base: '/api/:instance/customers' },
];

const once = (name: string) => z.string({ error: `${name} must be given once` });

const searchText = (name: string) =>
  once(name).max(CUSTOMER_SEARCH_MAX, `Search text must be at most ${CUSTOMER_SEARCH_MAX} characters`).optional().default('');

const listQuery = z.object({
  q: searchText('q'),
  limit: once('limit')
    .regex(/^\d+$/, `limit must be a whole number from 1 to ${CUSTOMER_PAGE_SIZE_MAX}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, `limit must be a whole number from 1 to ${CUSTOMER_PAGE_SIZE_MAX}`)
        .max(CUSTOMER_PAGE_SIZE_MAX, `limit must be a whole number from 1 to ${CUSTOMER_PAGE_SIZE_MAX}`),
    )
    .optional()
    .default(CUSTOMER_PAGE_SIZE),
  cursor: once('cursor').max(500, 'Invalid cursor: pass back the nextCursor of the previous page').optional(),
});

/** The autocomplete takes `query` (the spec's name) or `q`. */
const suggestQuery = z.object({ query: searchText('query'), q: searchText('q') });

export function registerCustomerRoutes(router: ApiRouter, deps: AppDeps): void {
  const instanceOf = (ctx: ApiContext) => userOf(ctx).instance.id;
  const idOf = (ctx: ApiContext) => ctx.params.id ?? '';
  const commandCtx = (ctx: ApiContext) => {
    const instanceId = instanceOf(ctx);
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };

  const list: ApiHandler = async (ctx) => {
    const query = parseInput(listQuery, ctx.query);
    ctx.body = await listCustomers(deps.knex, instanceOf(ctx), {
      search: query.q,
      limit: query.limit,
      cursor: query.cursor ? decodeCustomerCursor(query.cursor) : null,
    });
  };

  const suggest: ApiHandler = async (ctx) => {
    const query = parseInput(suggestQuery, ctx.query);
    ctx.body = await suggestCustomers(deps.knex, instanceOf(ctx), query.query || query.q);
  };

  const create: ApiHandler = async (ctx) => {
    sendRecord(ctx, await addCustomer(deps, ctx.request.body, commandCtx(ctx)), 201);
  };

  const show: ApiHandler = async (ctx) => {
    const { asOf } = parseInput(asOfQuery, ctx.query);
    // A moment in the past gets no ETag: it is not something to save over.
    if (asOf) ctx.body = await getCustomerAsOf(deps, instanceOf(ctx), idOf(ctx), asOf);
    else sendRecord(ctx, await getCustomer(deps, instanceOf(ctx), idOf(ctx)));
  };

  const update: ApiHandler = async (ctx) => {
    const expectedRevision = expectedRevisionOf(ctx);
    sendRecord(ctx, await updateCustomer(deps, idOf(ctx), ctx.request.body, commandCtx(ctx), expectedRevision));
  };

  const remove: ApiHandler = async (ctx) => {
    ctx.body = await deleteCustomer(deps, idOf(ctx), commandCtx(ctx));
  };

  const history: ApiHandler = async (ctx) => {
    ctx.body = await getCustomerHistory(deps, instanceOf(ctx), idOf(ctx));
  };

  const read = access.can('canRead');
  const write = access.can('canWrite');
  for (const { base, options } of CUSTOMER_FAMILIES) {
    // Before `/:id`, which would take "search" for an id.
    router.get(`${base}/search`, read, suggest, options);
    router.get(base, read, list, options);
    router.post(base, write, create, options);
    router.get(`${base}/:id`, read, show, options);
    router.put(`${base}/:id`, write, update, options);
    router.delete(`${base}/:id`, access.can('canDelete'), remove, options);
    router.get(`${base}/:id/history`, read, history, options);
  }
}
