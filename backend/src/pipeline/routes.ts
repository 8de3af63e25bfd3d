import {
  appointmentInput,
  asOfQuery,
  jobChangesInput,
  mileageConfirmationInput,
  jobDetailSchema,
  jobInput,
  jobListQuery,
  jobPageSchema,
  jobViewSchema,
  stageInput,
} from '@crm/projections/contract';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import { access, userOf, type ApiContext, type ApiRouter, type RouteDoc, type RouteOptions } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { commandContext } from '../http/command-context.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { unassignableReason } from '../identity/index.ts';
import { type AsOf, asOfOf } from '../shared/time-travel.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { listJobsJson } from './job-list.ts';
import { findJob, jobAsOf, type JobTarget } from './job-queries.ts';
import type { JobView } from '@crm/projections/pipeline';
import { rescheduleJob } from './job-reschedule.ts';
import { cancelJob, changeJobStage, deleteJob, reopenJob, updateJob } from './job-commands.ts';
import { createJob } from './job-create.ts';
import { projectedJob } from './job-state.ts';

/**
 * The pipeline in every path family: the canonical one, the older clients'
 * `/api/user-info`, and the Maven variant's, which names the reserved instance.
 * Whatever the path, the instance is the session's.
 */
export const PIPELINE_BASES: ReadonlyArray<{ base: string; options?: RouteOptions }> = [
  // While the instance has the Pipeline off, every route of it answers 404.
  { base: '/api/:instance/pipeline', options: { feature: 'pipeline' } },
  { base: '/api/user-info', options: { feature: 'pipeline' } },
  { base: '/api/crm/maven/user-info', options: { pathInstance: 'maven', feature: 'pipeline' } },
];

const DOCS = {
  list: {
    summary: 'Jobs, filtered, sorted and searched, in keyset pages (phones masked)',
    tag: 'pipeline',
    query: jobListQuery,
    response: jobPageSchema,
  },
  create: {
    summary: "A new job (a new name creates its customer; ETag: the job's revision)",
    tag: 'pipeline',
    body: jobInput,
    response: jobViewSchema,
    status: 201,
  },
  show: {
    summary: 'One job (ETag: its revision); with asOf, as it was then (no ETag)',
    tag: 'pipeline',
    query: asOfQuery,
    response: jobDetailSchema,
  },
  update: {
    summary: 'Change a job: the fields sent (If-Match: the revision the dialog loaded)',
    tag: 'pipeline',
    body: jobChangesInput,
    response: jobViewSchema,
  },
  stage: { summary: 'Move a job to another stage (If-Match)', tag: 'pipeline', body: stageInput, response: jobViewSchema },
  cancel: { summary: 'Cancel a job (If-Match)', tag: 'pipeline', response: jobViewSchema, status: 200 },
  reopen: { summary: 'Put a canceled job back on the board, in Quote (If-Match)', tag: 'pipeline', response: jobViewSchema, status: 200 },
  remove: { summary: 'Delete a job', tag: 'pipeline', status: 204 },
  appointment: {
    summary: 'The calendar moves, resizes or re-lanes a job: its appointment, duration (left out: as it was) and tech (If-Match)',
    tag: 'pipeline',
    body: appointmentInput,
    response: jobViewSchema,
  },
} satisfies Record<string, RouteDoc>;

/** One job with its repair order (lines, totals, estimate, invoice, payments), at a moment or now. */
export type JobDetailReader = (deps: AppDeps, target: JobTarget, asOf: AsOf | null) => Promise<JobView & Record<string, unknown>>;

/**
 * Pipeline jobs (the calendar's range reads are the calendar slice's). `detail`: how one
 * job's GET adds its repair order (the repair-orders slice's, given by the route list).
 */
export function registerPipelineRoutes(router: ApiRouter, deps: AppDeps, detail?: JobDetailReader): void {
  const instanceCtx = (ctx: ApiContext): InstanceContext => {
    const instanceId = userOf(ctx).instance.id;
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };
  const targetOf = (ctx: ApiContext): JobTarget => ({ instanceId: userOf(ctx).instance.id, jobId: (ctx.params.id ?? '').toLowerCase() });
  // A technician newly put on a job must be someone who can do the work; a job keeps the one
  // it has (a tech made read-only later does not block saving its other fields).
  const checkTech = async (ctx: ApiContext, tech: string | undefined, current?: string) => {
    if (tech === undefined || tech.trim() === (current ?? '').trim()) return;
    const reason = await unassignableReason(deps.knex, userOf(ctx).instance.id, tech);
    if (reason) throw new ValidationError(reason, { errors: [{ field: 'tech', message: reason }] });
  };
  const currentTech = async (target: JobTarget) => (await findJob(deps.knex, target))?.tech;
  const read = access.can('canRead');
  const write = access.can('canWrite');

  for (const { base, options } of PIPELINE_BASES) {
    router.get(
      base,
      read,
      async (ctx) => {
        const query = parseInput(jobListQuery, ctx.query);
        ctx.type = 'json';
        ctx.body = await listJobsJson(deps.knex, userOf(ctx).instance.id, query);
      },
      { ...options, doc: DOCS.list },
    );

    router.post(
      base,
      write,
      async (ctx) => {
        const input = parseInput(jobInput, ctx.request.body);
        const { mileageLowerReason } = parseInput(mileageConfirmationInput, ctx.request.body);
        await checkTech(ctx, input.tech);
        const context = instanceCtx(ctx);
        const { jobId, appended } = await createJob(deps, input, context, { mileageLowerReason });
        const job = await projectedJob(deps, { instanceId: context.instanceId, jobId }, { appended, revision: appended.nextRevision });
        sendRecord(ctx, job, 201);
      },
      { ...options, doc: DOCS.create },
    );

    router.get(
      `${base}/:id`,
      read,
      async (ctx) => {
        const asOf = asOfOf(parseInput(asOfQuery, ctx.query));
        if (detail) {
          // Folded from the job's stream: the job and its repair order at one revision.
          const job = await detail(deps, targetOf(ctx), asOf ?? null);
          if (asOf) ctx.body = job;
          else sendRecord(ctx, job);
          return;
        }
        if (asOf) {
          // A moment in the past: no ETag, it is not something to save over.
          const then = await jobAsOf(deps.store, targetOf(ctx), asOf);
          if (!then) throw new NotFoundError(JOB_MESSAGES.notFound);
          ctx.body = then;
          return;
        }
        const job = await findJob(deps.knex, targetOf(ctx));
        if (!job) throw new NotFoundError(JOB_MESSAGES.notFound);
        sendRecord(ctx, job);
      },
      { ...options, doc: DOCS.show },
    );

    router.put(
      `${base}/:id`,
      write,
      async (ctx) => {
        const target = targetOf(ctx);
        const expectedRevision = expectedRevisionOf(ctx);
        const changes = parseInput(jobChangesInput, ctx.request.body);
        const { mileageLowerReason } = parseInput(mileageConfirmationInput, ctx.request.body);
        if (changes.tech !== undefined) await checkTech(ctx, changes.tech, await currentTech(target));
        const result = await updateJob(deps, target, changes, instanceCtx(ctx), expectedRevision, undefined, { mileageLowerReason });
        sendRecord(ctx, await projectedJob(deps, target, result));
      },
      { ...options, doc: DOCS.update },
    );

    router.patch(
      `${base}/:id/stage`,
      write,
      async (ctx) => {
        const target = targetOf(ctx);
        const expectedRevision = expectedRevisionOf(ctx);
        const { stage } = parseInput(stageInput, ctx.request.body);
        sendRecord(ctx, await projectedJob(deps, target, await changeJobStage(deps, target, stage, instanceCtx(ctx), expectedRevision)));
      },
      { ...options, doc: DOCS.stage },
    );

    router.patch(
      `${base}/:id/appointment`,
      write,
      async (ctx) => {
        const target = targetOf(ctx);
        const expectedRevision = expectedRevisionOf(ctx);
        const input = parseInput(appointmentInput, ctx.request.body);
        if (input.tech !== undefined) await checkTech(ctx, input.tech, await currentTech(target));
        sendRecord(ctx, await projectedJob(deps, target, await rescheduleJob(deps, target, input, instanceCtx(ctx), expectedRevision)));
      },
      { ...options, doc: DOCS.appointment },
    );

    router.post(
      `${base}/:id/cancel`,
      write,
      async (ctx) => {
        const target = targetOf(ctx);
        sendRecord(ctx, await projectedJob(deps, target, await cancelJob(deps, target, instanceCtx(ctx), expectedRevisionOf(ctx))));
      },
      { ...options, doc: DOCS.cancel },
    );

    router.post(
      `${base}/:id/reopen`,
      write,
      async (ctx) => {
        const target = targetOf(ctx);
        sendRecord(ctx, await projectedJob(deps, target, await reopenJob(deps, target, instanceCtx(ctx), expectedRevisionOf(ctx))));
      },
      { ...options, doc: DOCS.reopen },
    );

    router.delete(
      `${base}/:id`,
      access.can('canDelete'),
      async (ctx) => {
        await settle(deps, await deleteJob(deps, targetOf(ctx), instanceCtx(ctx)));
        ctx.status = 204;
      },
      { ...options, doc: DOCS.remove },
    );
  }
}
