import { customerMergedSchema, customerMergeInput } from '@crm/projections/contract';
import { CUSTOMER_FAMILIES } from '../customers/index.ts';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { access, userOf, type ApiContext, type ApiHandler, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { mergeCustomer, undoCustomerMerge } from './merge-service.ts';

const DOCS = {
  merge: {
    summary:
      'Merge this customer into `intoId` (admins): both histories record it, its jobs and vehicles move, it leaves the lists; the answer carries the customer that stays',
    tag: 'customers',
    body: customerMergeInput,
    response: customerMergedSchema,
    status: 200,
    answers: { 409: 'One of the customers changed while merging' },
  },
  undo: {
    summary:
      'Undo the merge that took this customer away (admins): it is back, with the jobs and vehicles still on the other customer; the answer carries it',
    tag: 'customers',
    response: customerMergedSchema,
    answers: { 409: 'This customer is not merged into another' },
  },
} satisfies Record<string, RouteDoc>;

/** Customer merge and its undo, in every family the customer routes have; admins only. */
export function registerCustomerMergeRoutes(router: ApiRouter, deps: AppDeps): void {
  const commandCtx = (ctx: ApiContext) => {
    const instanceId = userOf(ctx).instance.id;
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };
  const merge: ApiHandler = async (ctx) => {
    ctx.body = await mergeCustomer(deps, ctx.params.id ?? '', ctx.request.body, commandCtx(ctx));
  };
  const undo: ApiHandler = async (ctx) => {
    ctx.body = await undoCustomerMerge(deps, ctx.params.id ?? '', commandCtx(ctx));
  };
  for (const { base, options } of CUSTOMER_FAMILIES) {
    const customers = { ...options, feature: 'customers' } as const;
    router.post(`${base}/:id/merge`, access.admin, merge, { ...customers, doc: DOCS.merge });
    router.delete(`${base}/:id/merge`, access.admin, undo, { ...customers, doc: DOCS.undo });
  }
}
