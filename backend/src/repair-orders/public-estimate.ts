import { estimateDecisionInput, publicEstimateSchema, type PublicEstimate } from '@crm/projections/contract';
import { readableEvents, type StoredDomainEvent } from '@crm/projections/events';
import {
  estimateStatusAt,
  frozenTotalsView,
  lineViews,
  repairOrderFromEvents,
  taxRatesView,
  type EstimateRecord,
  type RepairOrder,
} from '@crm/projections/repair-orders';
import type { AppDeps } from '../deps.ts';
import { access, type ApiContext, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { getInstance } from '../platform/index.ts';
import { commandContext } from '../http/command-context.ts';
import { jobStream, jobViewFromEvents } from '../pipeline/index.ts';
import { NotFoundError, TooManyRequestsError } from '../shared/errors.ts';
import { countPublicHits } from './public-limits.ts';
import { REPAIR_ORDER_MESSAGES } from './repair-order-decider.ts';
import { answerOf, jobIdOfToken, runRepairOrderCommand } from './repair-order-service.ts';
import { loadShopSettings } from './shop-settings.ts';

const DOCS = {
  show: {
    summary: 'An estimate as it was sent, for the customer (no sign-in; the token is the key; rate-limited per IP)',
    tag: 'repair-orders',
    response: publicEstimateSchema,
    answers: { 404: 'No estimate has this token', 429: 'Too many requests from this address' },
  },
  decide: {
    summary: "The customer's decision: every line approved or declined, and their name (no sign-in; rate-limited per IP)",
    tag: 'repair-orders',
    body: estimateDecisionInput,
    response: publicEstimateSchema,
    status: 200,
    answers: {
      404: 'No estimate has this token',
      409: 'This estimate was answered already: the answer stands',
      410: 'The link no longer opens a decision: the shop revoked it, it expired, or a newer estimate was sent',
      429: 'Too many requests from this address',
    },
  },
} satisfies Record<string, RouteDoc>;

export const PUBLIC_ESTIMATE_PATHS = {
  show: '/api/public/estimates/:token',
  decide: '/api/public/estimates/:token/decision',
} as const;

interface Found {
  instanceId: string;
  jobId: string;
  events: StoredDomainEvent[];
  order: RepairOrder;
  estimate: EstimateRecord;
}

/**
 * The estimate a token opens: its job's stream (named by the token), the estimate whose
 * token it is, in an active shop. Anything else (no such job, another token, a deleted
 * job, an inactive shop) is one 404: nothing to tell apart.
 */
async function findEstimate(deps: AppDeps, token: string): Promise<Found> {
  const notFound = new NotFoundError(REPAIR_ORDER_MESSAGES.estimateNotFound);
  const jobId = jobIdOfToken(token);
  if (!jobId) throw notFound;
  const recorded = await deps.store.readStream(jobStream(jobId));
  const events = readableEvents(recorded).events;
  const created = events.find((event) => event.type === 'JobCreated');
  const instanceId = created?.type === 'JobCreated' ? created.data.instanceId : null;
  if (!instanceId) throw notFound;
  const order = repairOrderFromEvents(events);
  const estimate = order.estimates.find((candidate) => candidate.token === token);
  if (!estimate || !jobViewFromEvents(events, instanceId)) throw notFound;
  const instance = await getInstance(deps.knex, instanceId).catch(() => null);
  if (!instance?.isActive) throw notFound;
  return { instanceId, jobId, events, order, estimate };
}

async function publicView(deps: AppDeps, found: Found): Promise<PublicEstimate> {
  const job = jobViewFromEvents(found.events, found.instanceId)!;
  const instance = await getInstance(deps.knex, found.instanceId);
  const { settings } = await loadShopSettings(deps, found.instanceId);
  const { estimate, order } = found;
  const decision = estimate.decision;
  const declined = decision ? decision.declinedLineIds : estimate.declinedLineIds;
  const approved = decision ? decision.approvedLineIds : [];
  return {
    shop: {
      name: settings.shopName || instance.displayName || instance.name,
      address: settings.address,
      phone: settings.phone,
      email: settings.email,
      timeZone: instance.timeZone,
    },
    jobNumber: job.jobNumber,
    customerName: job.name,
    vehicle: job.makeModel,
    version: estimate.version,
    status: estimateStatusAt(order, estimate, deps.now()),
    sentAt: estimate.sentAt,
    expiresAt: estimate.expiresAt,
    // What the shop paid for a part is the shop's business.
    lines: lineViews(estimate.lines, estimate.rates, approved, declined).map(({ unitCost: _unitCost, ...line }) => line),
    totals: frozenTotalsView(estimate.totals),
    taxRates: taxRatesView(estimate.rates),
    terms: settings.terms,
    footer: settings.documentFooter,
    decision: decision && {
      name: decision.customerName,
      decidedAt: decision.decidedAt,
      address: decision.address,
      approvedLineIds: decision.approvedLineIds,
      declinedLineIds: decision.declinedLineIds,
    },
  };
}

/** The customer's estimate page: no session, the token is the key; rate-limited per IP like the public request page. */
export function registerPublicEstimateRoutes(router: ApiRouter, deps: AppDeps): void {
  const limit = async (ctx: ApiContext, kind: 'view' | 'decide') => {
    const wait = await countPublicHits(deps.knex, ctx.ip, kind);
    if (wait !== null) {
      ctx.set('Retry-After', String(wait));
      throw new TooManyRequestsError('Too many requests from here. Please try again later or call the shop.');
    }
  };

  router.get(
    PUBLIC_ESTIMATE_PATHS.show,
    access.public,
    async (ctx) => {
      await limit(ctx, 'view');
      ctx.body = await publicView(deps, await findEstimate(deps, ctx.params.token ?? ''));
    },
    { doc: DOCS.show },
  );

  router.post(
    PUBLIC_ESTIMATE_PATHS.decide,
    access.public,
    async (ctx) => {
      await limit(ctx, 'decide');
      const input = parseInput(estimateDecisionInput, ctx.request.body);
      const found = await findEstimate(deps, ctx.params.token ?? '');
      const base = commandContext(ctx, deps, found.instanceId);
      const context = {
        ...base,
        instanceId: found.instanceId,
        actor: { kind: 'system' as const, id: 'estimate-page', displayName: `${input.name} (customer)` },
      };
      const target = { instanceId: found.instanceId, jobId: found.jobId };
      const result = await runRepairOrderCommand(
        deps,
        target,
        {
          type: 'DecideEstimate',
          instanceId: found.instanceId,
          token: found.estimate.token,
          approvedLineIds: input.approvedLineIds,
          declinedLineIds: input.declinedLineIds,
          customerName: input.name,
          address: ctx.ip,
          now: context.now,
        },
        context,
      );
      await answerOf(deps, target, result);
      const events = result.stream ?? readableEvents(await deps.store.readStream(jobStream(found.jobId))).events;
      const order = repairOrderFromEvents(events);
      const estimate = order.estimates.find((candidate) => candidate.token === found.estimate.token)!;
      ctx.body = await publicView(deps, { ...found, events, order, estimate });
    },
    { doc: DOCS.decide },
  );
}
