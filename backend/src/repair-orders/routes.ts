import {
  estimateSendInput,
  invoiceIssueInput,
  lineChangesInput,
  lineInput,
  lineOrderInput,
  paymentInput,
  shopSettingsInput,
  takingsQuery,
} from '@crm/projections/contract';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import { dayInZone } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import { access, userOf, type ApiContext, type ApiRouter } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { commandContext } from '../http/command-context.ts';
import type { JobTarget } from '../pipeline/index.ts';
import { loadAggregate, type InstanceContext } from '../shared/commands.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { AsOf } from '../shared/time-travel.ts';
import { jobStream } from '../pipeline/index.ts';
import { repairOrderDecider } from './repair-order-decider.ts';
import { takingsCsv, takingsReport } from './repair-order-queries.ts';
import {
  answerOf,
  loadJobDetail,
  newEstimateToken,
  newLineId,
  newPaymentId,
  reserveInvoiceNumber,
  runRepairOrderCommand,
} from './repair-order-service.ts';
import { registerPublicEstimateRoutes } from './public-estimate.ts';
import { loadShopSettings, ratesOf, shopSettingsView, updateShopSettings } from './shop-settings.ts';
import { registerDocumentRoutes } from './document-routes.ts';
import { REPAIR_ORDER_DOCS as DOCS } from './route-docs.ts';

/** How far ahead of the server's clock a payment's `when` may be (the caller's clock may run fast). */
const PAYMENT_CLOCK_SLACK_MS = 5 * 60_000;

const JOB = '/api/:instance/pipeline/:id';

/**
 * The repair order's routes. Permissions: lines, estimates, invoices and payments need
 * canWrite; the shop's settings are read by any user and changed by instance admins; the
 * takings report needs canWrite (who takes payments closes the day). The public estimate
 * page's routes are in public-estimate.ts, the PDFs in document-routes.ts.
 */
export function registerRepairOrderRoutes(router: ApiRouter, deps: AppDeps): void {
  const instanceCtx = (ctx: ApiContext): InstanceContext => {
    const instanceId = userOf(ctx).instance.id;
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };
  const targetOf = (ctx: ApiContext): JobTarget => ({ instanceId: userOf(ctx).instance.id, jobId: (ctx.params.id ?? '').toLowerCase() });
  const write = access.can('canWrite');
  const options = { feature: 'pipeline' as const };

  router.get(
    '/api/:instance/settings',
    access.can('canRead'),
    async (ctx) => {
      const { settings, revision, updatedAt } = await loadShopSettings(deps, userOf(ctx).instance.id);
      sendRecord(ctx, shopSettingsView(settings, revision, updatedAt));
    },
    { doc: DOCS.settings },
  );
  router.put(
    '/api/:instance/settings',
    access.admin,
    async (ctx) => {
      const expectedRevision = expectedRevisionOf(ctx);
      const changes = parseInput(shopSettingsInput, ctx.request.body);
      sendRecord(ctx, await updateShopSettings(deps, changes, instanceCtx(ctx), expectedRevision));
    },
    { doc: DOCS.saveSettings },
  );

  const shopRates = async (ctx: ApiContext) => ratesOf((await loadShopSettings(deps, userOf(ctx).instance.id)).settings);

  router.post(
    `${JOB}/lines`,
    write,
    async (ctx) => {
      const target = targetOf(ctx);
      const expectedRevision = expectedRevisionOf(ctx);
      const line = parseInput(lineInput, ctx.request.body);
      const shop = await shopRates(ctx);
      const command = { type: 'AddLine' as const, instanceId: target.instanceId, lineId: newLineId(), line, shop };
      const result = await runRepairOrderCommand(deps, target, command, instanceCtx(ctx), expectedRevision);
      sendRecord(ctx, await answerOf(deps, target, result), 201);
    },
    { ...options, doc: DOCS.addLine },
  );
  router.post(
    `${JOB}/lines/reorder`,
    write,
    async (ctx) => {
      const target = targetOf(ctx);
      const expectedRevision = expectedRevisionOf(ctx);
      const { lineIds } = parseInput(lineOrderInput, ctx.request.body);
      const result = await runRepairOrderCommand(
        deps,
        target,
        { type: 'ReorderLines', instanceId: target.instanceId, lineIds },
        instanceCtx(ctx),
        expectedRevision,
      );
      sendRecord(ctx, await answerOf(deps, target, result));
    },
    { ...options, doc: DOCS.reorder },
  );
  router.put(
    `${JOB}/lines/:lineId`,
    write,
    async (ctx) => {
      const target = targetOf(ctx);
      const expectedRevision = expectedRevisionOf(ctx);
      const changes = parseInput(lineChangesInput, ctx.request.body);
      const shop = await shopRates(ctx);
      const lineId = (ctx.params.lineId ?? '').toLowerCase();
      const result = await runRepairOrderCommand(
        deps,
        target,
        { type: 'ChangeLine', instanceId: target.instanceId, lineId, changes, shop },
        instanceCtx(ctx),
        expectedRevision,
      );
      sendRecord(ctx, await answerOf(deps, target, result));
    },
    { ...options, doc: DOCS.changeLine },
  );
  router.delete(
    `${JOB}/lines/:lineId`,
    write,
    async (ctx) => {
      const target = targetOf(ctx);
      const expectedRevision = expectedRevisionOf(ctx);
      const shop = await shopRates(ctx);
      const lineId = (ctx.params.lineId ?? '').toLowerCase();
      const result = await runRepairOrderCommand(
        deps,
        target,
        { type: 'RemoveLine', instanceId: target.instanceId, lineId, shop },
        instanceCtx(ctx),
        expectedRevision,
      );
      sendRecord(ctx, await answerOf(deps, target, result));
    },
    { ...options, doc: DOCS.removeLine },
  );

  router.post(
    `${JOB}/estimate/send`,
    write,
    async (ctx) => {
      const target = targetOf(ctx);
      const expectedRevision = expectedRevisionOf(ctx);
      const input = parseInput(estimateSendInput, ctx.request.body);
      const { settings } = await loadShopSettings(deps, target.instanceId);
      const days = input.expiresInDays ?? settings.estimateLinkDays;
      const context = instanceCtx(ctx);
      const token = newEstimateToken(target.jobId);
      const expiresAt = new Date(context.now.getTime() + days * 86_400_000).toISOString();
      const result = await runRepairOrderCommand(
        deps,
        target,
        { type: 'SendEstimate', instanceId: target.instanceId, token, expiresAt },
        context,
        expectedRevision,
      );
      const job = await answerOf(deps, target, result);
      const link = `/estimate/${token}`;
      ctx.status = 201;
      if (typeof job.revision === 'number') ctx.set('ETag', `"${job.revision}"`);
      // The address customers reach: PUBLIC_URL when set (as in the e-mail), else this request's
      // own scheme and host (Koa's ctx.origin is the Origin header, absent from API clients).
      const base = deps.config.PUBLIC_URL ?? `${ctx.protocol}://${ctx.host}`;
      ctx.body = { token, link, url: `${base}${link}`, expiresAt, version: job.estimate?.version ?? 1, job };
    },
    { ...options, doc: DOCS.send },
  );
  router.post(
    `${JOB}/estimate/revoke`,
    write,
    async (ctx) => {
      const target = targetOf(ctx);
      const expectedRevision = expectedRevisionOf(ctx);
      const result = await runRepairOrderCommand(
        deps,
        target,
        { type: 'RevokeEstimate', instanceId: target.instanceId },
        instanceCtx(ctx),
        expectedRevision,
      );
      sendRecord(ctx, await answerOf(deps, target, result));
    },
    { ...options, doc: DOCS.revoke },
  );

  router.post(
    `${JOB}/invoice`,
    write,
    async (ctx) => {
      const target = targetOf(ctx);
      const expectedRevision = expectedRevisionOf(ctx);
      parseInput(invoiceIssueInput, ctx.request.body);
      const context = instanceCtx(ctx);
      // Decided once on the stream as it is, so a refusal (nothing to invoice, frozen) takes no number.
      const loaded = await loadAggregate(deps.store, jobStream(target.jobId), repairOrderDecider);
      const probe = { type: 'IssueInvoice' as const, instanceId: target.instanceId, invoiceNumber: 1 };
      repairOrderDecider.decide(probe, loaded.state);
      const invoiced = loaded.state.order.invoices.length > 0;
      const invoiceNumber = invoiced ? 1 : await reserveInvoiceNumber(deps, context, target.jobId);
      const result = await runRepairOrderCommand(deps, target, { ...probe, invoiceNumber }, context, expectedRevision);
      sendRecord(ctx, await answerOf(deps, target, result), 201);
    },
    { ...options, doc: DOCS.invoice },
  );

  router.post(
    `${JOB}/payments`,
    write,
    async (ctx) => {
      const target = targetOf(ctx);
      const expectedRevision = expectedRevisionOf(ctx);
      const input = parseInput(paymentInput, ctx.request.body);
      const context = instanceCtx(ctx);
      // Money is recorded when it changed hands: one dated ahead would land in a future day's
      // takings and close a balance early. A few minutes allow for the caller's clock.
      if (input.when && Date.parse(input.when) > context.now.getTime() + PAYMENT_CLOCK_SLACK_MS) {
        const message = 'when must not be in the future';
        throw new ValidationError(message, { errors: [{ field: 'when', message }] });
      }
      const result = await runRepairOrderCommand(
        deps,
        target,
        {
          type: 'RecordPayment',
          instanceId: target.instanceId,
          paymentId: newPaymentId(),
          amount: input.amount!,
          method: input.method,
          reference: input.reference ?? '',
          reason: input.reason ?? '',
          receivedAt: input.when ? new Date(input.when).toISOString() : context.now.toISOString(),
        },
        context,
        expectedRevision,
      );
      sendRecord(ctx, await answerOf(deps, target, result), 201);
    },
    { ...options, doc: DOCS.payment },
  );

  const report = async (ctx: ApiContext) => {
    const { instance } = userOf(ctx);
    const query = parseInput(takingsQuery, ctx.query);
    const today = dayInZone(deps.now(), instance.timeZone);
    const from = query.from ?? query.to ?? today;
    const to = query.to ?? query.from ?? today;
    return await takingsReport(deps.knex, instance.id, instance.timeZone, from, to);
  };
  router.get(
    '/api/:instance/reports/takings',
    write,
    async (ctx) => {
      ctx.body = await report(ctx);
    },
    { doc: DOCS.takings },
  );
  router.get(
    '/api/:instance/reports/takings.csv',
    write,
    async (ctx) => {
      const data = await report(ctx);
      ctx.attachment(`takings-${data.from}-to-${data.to}.csv`);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = takingsCsv(data);
    },
    { doc: DOCS.takingsCsv },
  );

  registerPublicEstimateRoutes(router, deps);
  registerDocumentRoutes(router, deps);
}

/** The job with its repair order, as the job's own GET answers it (the pipeline slice asks for it). */
export async function jobWithRepairOrder(deps: AppDeps, target: JobTarget, asOf: AsOf | null) {
  const { detail } = await loadJobDetail(deps, target, deps.now(), asOf);
  if (!detail) throw new NotFoundError(JOB_MESSAGES.notFound);
  return detail;
}
