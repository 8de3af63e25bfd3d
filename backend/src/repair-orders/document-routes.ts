import { displayPhone } from '@crm/projections/shared';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import {
  computeTotals,
  currentTotals,
  freezeTotals,
  latestEstimate,
  latestInvoice,
  lineViews,
  paidOf,
  quotedTotal,
  repairOrderFromEvents,
  type FrozenTotals,
  type RepairOrder,
} from '@crm/projections/repair-orders';
import type { AppDeps } from '../deps.ts';
import { access, userOf, type ApiContext, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { getInstance } from '../platform/index.ts';
import { NotFoundError } from '../shared/errors.ts';
import { dateInZone, renderDocument, type DocumentShop } from './documents.ts';
import { jobViewFromEvents } from '../pipeline/index.ts';
import { jobQuoteCents, loadJobDetail } from './repair-order-service.ts';
import { loadShopSettings } from './shop-settings.ts';

const DOCS = {
  estimate: {
    summary: 'The latest estimate sent (or the lines as they are, marked draft) as a PDF',
    tag: 'repair-orders',
    produces: 'application/pdf',
  },
  invoice: {
    summary: "The invoice's latest revision as a PDF",
    tag: 'repair-orders',
    produces: 'application/pdf',
    answers: { 404: 'No such job, or it has no invoice yet' },
  },
} satisfies Record<string, RouteDoc>;

/** GET …/{id}/estimate.pdf and …/invoice.pdf (canRead). */
export function registerDocumentRoutes(router: ApiRouter, deps: AppDeps): void {
  const load = async (ctx: ApiContext) => {
    const { instance } = userOf(ctx);
    return await documentContext(deps, instance.id, (ctx.params.id ?? '').toLowerCase(), null);
  };
  const send = (ctx: ApiContext, pdf: Buffer, name: string) => {
    // The name carries the shop's own job or invoice number, free text that may hold quotes,
    // slashes, control or non-Latin characters: ctx.attachment encodes it for the header
    // (a Latin-1 fallback and an RFC 5987 filename*); a slash would cut the name to its tail.
    ctx.attachment(`${name.replace(/[\\/]/g, '-')}.pdf`, { type: 'inline' });
    ctx.type = 'application/pdf';
    ctx.body = pdf;
  };

  router.get(
    '/api/:instance/pipeline/:id/estimate.pdf',
    access.can('canRead'),
    async (ctx) => {
      const { job, order, shop, customer, timeZone } = await load(ctx);
      const estimate = latestEstimate(order);
      const pdf = estimate
        ? await renderDocument({
            kind: 'Estimate',
            title: `Estimate v${estimate.version}`,
            shop,
            jobNumber: job.jobNumber,
            customer,
            work: job.part,
            dated: `Sent ${dateInZone(estimate.sentAt, timeZone)}`,
            extra: [`Valid until ${dateInZone(estimate.expiresAt, timeZone)}`],
            lines: lineViews(
              estimate.lines,
              estimate.rates,
              estimate.decision?.approvedLineIds ?? [],
              estimate.decision?.declinedLineIds ?? estimate.declinedLineIds,
            ),
            totals: estimate.totals,
            // What the customer agreed to: the estimate's total without the lines they declined.
            approvedTotal:
              estimate.decision && estimate.decision.declinedLineIds.length > 0
                ? computeTotals(estimate.lines, estimate.rates, new Set(estimate.decision.declinedLineIds)).total
                : undefined,
            decision: estimate.decision && {
              name: estimate.decision.customerName,
              decidedAt: estimate.decision.decidedAt,
              address: estimate.decision.address,
            },
            timeZone,
          })
        : await renderDocument({
            kind: 'Estimate',
            title: 'Estimate (draft)',
            shop,
            jobNumber: job.jobNumber,
            customer,
            work: job.part,
            dated: dateInZone(deps.now().toISOString(), timeZone),
            extra: ['Not sent yet'],
            lines: lineViews(order.lines, order.rates, order.approved, order.declined),
            totals: draftTotals(order, jobQuoteCents(job)),
            timeZone,
          });
      send(ctx, pdf, `estimate-${job.jobNumber}`);
    },
    { feature: 'pipeline', doc: DOCS.estimate },
  );

  router.get(
    '/api/:instance/pipeline/:id/invoice.pdf',
    access.can('canRead'),
    async (ctx) => {
      const { pdf, invoiceNumber } = await invoicePdf(await load(ctx));
      send(ctx, pdf, `invoice-${invoiceNumber}`);
    },
    { feature: 'pipeline', doc: DOCS.invoice },
  );
}

/** A draft estimate's totals: its lines' as they stand, and the job's total (its quote while it has no lines). */
function draftTotals(order: RepairOrder, quoteCents: number): FrozenTotals {
  const totals = currentTotals(order);
  return { ...freezeTotals(totals), total: quotedTotal(order, quoteCents, totals) };
}

type DocumentDeps = Pick<AppDeps, 'store' | 'knex' | 'now'>;

/** What a job's documents are drawn from; `atRevision` reads the job as it was then (null: now). */
async function documentContext(deps: DocumentDeps, instanceId: string, jobId: string, atRevision: number | null) {
  const { detail, events: all } = await loadJobDetail(deps, { instanceId, jobId }, deps.now());
  if (!detail) throw new NotFoundError(JOB_MESSAGES.notFound);
  const events = atRevision === null ? all : all.filter((event) => event.revision <= atRevision);
  const job = jobViewFromEvents(events, instanceId)!;
  const order = repairOrderFromEvents(events);
  const { settings } = await loadShopSettings(deps, instanceId);
  const row = await getInstance(deps.knex, instanceId);
  const shop: DocumentShop = {
    name: settings.shopName || row.displayName || row.name,
    address: settings.address,
    phone: settings.phone,
    email: settings.email,
    terms: settings.terms,
    footer: settings.documentFooter,
  };
  // The phone as every screen shows it (555-010-4477), not as stored.
  const customer = { name: job.name, phone: displayPhone(job.phone), vehicle: job.makeModel, vin: job.vin };
  return { job, order, shop, customer, timeZone: row.timeZone };
}

async function invoicePdf({ job, order, shop, customer, timeZone }: Awaited<ReturnType<typeof documentContext>>) {
  const invoice = latestInvoice(order);
  if (!invoice) throw new NotFoundError('This job has no invoice yet');
  const pdf = await renderDocument({
    kind: 'Invoice',
    title: `Invoice #${invoice.invoiceNumber}`,
    shop,
    jobNumber: job.jobNumber,
    customer,
    work: job.part,
    dated: `Issued ${dateInZone(invoice.issuedAt, timeZone)}`,
    extra: invoice.revision > 1 ? [`Revision ${invoice.revision}`] : [],
    lines: lineViews(invoice.lines, invoice.rates, [], []).map((line) => ({ ...line, status: 'pending' as const })),
    totals: invoice.totals,
    paid: paidOf(order),
    timeZone,
  });
  return { pdf, invoiceNumber: invoice.invoiceNumber };
}

/**
 * A job's invoice as a PDF, as it was when the job's stream stood at `atRevision` (the
 * invoice e-mailed when it was issued shows that revision, whatever came after).
 */
export async function renderInvoicePdf(deps: DocumentDeps, instanceId: string, jobId: string, atRevision: number): Promise<Buffer> {
  return (await invoicePdf(await documentContext(deps, instanceId, jobId, atRevision))).pdf;
}
