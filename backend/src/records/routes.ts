import { customerViewSchema, jobHistorySchema, jobViewSchema } from '@crm/projections/contract';
import { readableEvents, unshowableEntry } from '@crm/projections/events';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import { isUuid } from '@crm/projections/shared';
import { deletedListQuery, deletedListSchema, restoredSchema } from '@crm/projections/records';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { CUSTOMER_FAMILIES, restoreDeletedCustomer, revertCustomerChange, type CustomerVehicleRecords } from '../customers/index.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import { access, userOf, type ApiContext, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { jobHistory, jobStream, PIPELINE_BASES, projectedJob, restoreDeletedJob } from '../pipeline/index.ts';
import { commandContext } from '../http/command-context.ts';
import { jobChangeOffer, jobStreamRead, revertJobHistoryChange } from '../repair-orders/index.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { NotFoundError } from '../shared/errors.ts';
import { listDeleted } from './restore-service.ts';

/** The admins' list of deleted records and their restore. */
export const DELETED_RECORDS_PATH = '/api/:instance/deleted-records';

const restoreKind = z.object({ kind: z.enum(['job', 'customer'], { error: 'kind must be job or customer' }) });

const DOCS = {
  history: {
    summary: "A job's changes, field by field, newest first, each saying whether the caller can revert it now",
    tag: 'pipeline',
    response: jobHistorySchema,
  },
  revertJob: {
    summary:
      "Revert one change from a job's history: its fields back as they were before it (If-Match). An admin any change; a user who may write their own changes of the last 24 h; 409 when a later change set one of its fields. A line added, changed or removed comes back as the opposite line change; a payment as a refund of it; 409 when an invoice issued since froze the line",
    tag: 'records',
    response: jobViewSchema,
    status: 200,
  },
  revertCustomer: {
    summary:
      "Revert one change from a customer's history: its fields back as they were before it (If-Match). An admin any change; a user who may write their own changes of the last 24 h; 409 when a later change set one of its fields",
    tag: 'records',
    response: customerViewSchema,
    status: 200,
  },
  deleted: {
    summary: 'Deleted jobs and customers, newest deletion first, with who deleted them and when (admins)',
    tag: 'records',
    query: deletedListQuery,
    response: deletedListSchema,
  },
  restore: {
    summary: 'Restore a deleted job or customer with its history (admins); a customer brings back the jobs its deletion removed',
    tag: 'records',
    params: restoreKind,
    response: restoredSchema,
    status: 200,
  },
} satisfies Record<string, RouteDoc>;

/** `vehicles`: a customer's vehicle records, which come back with its restore (the vehicles slice, handed in by the composition root). */
export function registerRecordRoutes(router: ApiRouter, deps: AppDeps, vehicles: CustomerVehicleRecords): void {
  const instanceCtx = (ctx: ApiContext): InstanceContext => {
    const instanceId = userOf(ctx).instance.id;
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };
  // Who may revert which change is decided per change (revert-service): writers reach it.
  const write = access.can('canWrite');

  for (const { base, options } of PIPELINE_BASES) {
    router.get(
      `${base}/:id/history`,
      access.can('canRead'),
      async (ctx) => {
        const target = { instanceId: userOf(ctx).instance.id, jobId: (ctx.params.id ?? '').toLowerCase() };
        // The job's stream, read once: by the revert command's own rule each row says whether
        // it can be reverted now, and a change whose event fails its schema (the read model has
        // no row for it: the projector parked it) is listed as a change that could not be shown.
        const { events, unreadable } = readableEvents(isUuid(target.jobId) ? await deps.store.readStream(jobStream(target.jobId)) : []);
        const read = jobStreamRead(target.instanceId, events);
        const now = deps.now();
        const history = await jobHistory(deps.knex, target, (eventId) => jobChangeOffer(read, eventId, userOf(ctx), now));
        if (!history) throw new NotFoundError(JOB_MESSAGES.notFound);
        ctx.body = unreadable.length ? [...history, ...unreadable.map(unshowableEntry)].sort((a, b) => b.revision - a.revision) : history;
      },
      { ...options, doc: DOCS.history },
    );

    router.post(
      `${base}/:id/history/:eventId/revert`,
      write,
      async (ctx) => {
        const target = { instanceId: userOf(ctx).instance.id, jobId: (ctx.params.id ?? '').toLowerCase() };
        const expectedRevision = expectedRevisionOf(ctx);
        const eventId = ctx.params.eventId ?? '';
        // A line or payment is undone by the repair order (the answer carries its lines); any other change by the job itself.
        const reverted = await revertJobHistoryChange(deps, target, eventId, userOf(ctx), instanceCtx(ctx), expectedRevision);
        sendRecord(ctx, 'order' in reverted ? reverted.order : await projectedJob(deps, target, reverted.job));
      },
      { ...options, doc: DOCS.revertJob },
    );
  }

  for (const { base, options } of CUSTOMER_FAMILIES) {
    router.post(
      `${base}/:id/history/:eventId/revert`,
      write,
      async (ctx) => {
        const expectedRevision = expectedRevisionOf(ctx);
        const customer = await revertCustomerChange(
          deps,
          ctx.params.id ?? '',
          ctx.params.eventId ?? '',
          userOf(ctx),
          instanceCtx(ctx),
          expectedRevision,
        );
        sendRecord(ctx, customer);
      },
      // A change to a customer: gone with the rest of Customers while the instance has it off.
      { ...options, feature: 'customers', doc: DOCS.revertCustomer },
    );
  }

  router.get(
    DELETED_RECORDS_PATH,
    access.admin,
    async (ctx) => {
      const { kind } = parseInput(deletedListQuery, ctx.query);
      ctx.body = { items: await listDeleted(deps, userOf(ctx).instance.id, kind) };
    },
    { doc: DOCS.deleted },
  );

  router.post(
    `${DELETED_RECORDS_PATH}/:kind/:id/restore`,
    access.admin,
    async (ctx) => {
      const { kind } = parseInput(restoreKind, { kind: ctx.params.kind });
      const id = ctx.params.id ?? '';
      ctx.body =
        kind === 'job'
          ? await restoreDeletedJob(deps, id, instanceCtx(ctx))
          : await restoreDeletedCustomer(deps, id, instanceCtx(ctx), vehicles);
    },
    { doc: DOCS.restore },
  );
}
