import { readableEvents } from '@crm/projections/events';
import { JOB_MESSAGES, type JobFields, type Stage } from '@crm/projections/pipeline';
import { quoteFollowsLines, repairOrderFromEvents } from '@crm/projections/repair-orders';
import type { AppendResult } from '@crm/projections/eventstore/port';
import type { AppDeps } from '../deps.ts';
import { loadAggregate, type CommandResult, type InstanceContext, type LoadedStream } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { jobDecider, jobStream, type JobEvent, type JobState } from './job-decider.ts';
import { assertCustomerOf, checkMileageOrder, mileageOfChange, onVehicle } from './job-links.ts';
import { numberRelease, numberSwap, releaseNumberOfDeleted } from './job-numbers.ts';
import type { JobTarget } from './job-queries.ts';
import { decidedOnKnownRow, jobFromRow, mayBeStale, runJobCommand, staleConflict, type JobDeps } from './job-state.ts';

/** The commands on an existing job: save, stage, cancel, reopen, delete. */

/**
 * Saves an entry: what is left out stays, only what differs is recorded. A new job number
 * is reserved before and the old one freed after; `expectedRevision` (If-Match) makes a
 * save on a stale copy a 409 that carries the current job.
 */
export async function updateJob(
  deps: AppDeps,
  target: JobTarget,
  changes: Partial<JobFields>,
  ctx: InstanceContext,
  expectedRevision?: number,
  /** The change this save undoes (a revert from the history): its events say so. */
  revertOf?: string,
  options: { mileageLowerReason?: string } = {},
): Promise<CommandResult<JobState, JobEvent>> {
  return await onKnownRow(deps, target, expectedRevision, (loaded) =>
    updateOn(deps, target, changes, ctx, loaded, expectedRevision, revertOf, options),
  );
}

/**
 * Runs a command decided on the job's row as this process last wrote or read it (no read:
 * one round trip), else on the row as stored, else (no row) on its stream folded. Another
 * process may have moved the job on since this one knew its row: a decision on that row that
 * is appended fails (the append expects the row's revision) and is decided again on the
 * stream; one that is refused or records nothing (the change already made, or undone, by
 * the other writer) is decided again here on the row as stored (jobFromRow, mayBeStale).
 */
async function onKnownRow(
  deps: JobDeps,
  target: JobTarget,
  expectedRevision: number | undefined,
  run: (loaded: LoadedStream<JobState>) => Promise<CommandResult<JobState, JobEvent>>,
): Promise<CommandResult<JobState, JobEvent>> {
  const fold = () => loadAggregate(deps.store, jobStream(target.jobId), jobDecider);
  const known = await jobFromRow(deps, target, { expectedRevision, known: true });
  try {
    const result = await run(known ?? (await fold()));
    if (result.events.length > 0 || !known || !decidedOnKnownRow(deps, target, known)) return result;
  } catch (error) {
    if (!known || !mayBeStale(deps, target, known, error)) throw error;
  }
  return await run((await jobFromRow(deps, target)) ?? (await fold()));
}

/** updateJob on the job as `loaded` has it. */
async function updateOn(
  deps: AppDeps,
  target: JobTarget,
  changes: Partial<JobFields>,
  ctx: InstanceContext,
  loaded: LoadedStream<JobState>,
  expectedRevision: number | undefined,
  revertOf: string | undefined,
  options: { mileageLowerReason?: string },
): Promise<CommandResult<JobState, JobEvent>> {
  const state = loaded.state;
  if ((state.status !== 'open' && state.status !== 'canceled') || state.instanceId !== target.instanceId) {
    throw new NotFoundError(JOB_MESSAGES.notFound);
  }
  if (expectedRevision !== undefined && loaded.revision !== expectedRevision) {
    throw await staleConflict(deps, target, expectedRevision);
  }
  checkMileageOrder({ ...state.fields, ...changes });
  if (changes.vehicleId && changes.vehicleId !== state.fields.vehicleId) {
    // Another vehicle: the job's vehicle text and VIN follow it, unless the save sets them itself.
    const job = {
      ...state.fields,
      makeModel: changes.makeModel ?? '',
      vin: changes.vin ?? '',
      customerId: changes.customerId ?? state.fields.customerId,
    };
    changes = { ...changes, ...(await onVehicle(deps.store, target.instanceId, changes.vehicleId, job)) };
  }
  if (changes.customerId && changes.customerId !== state.fields.customerId)
    await assertCustomerOf(deps.store, target.instanceId, changes.customerId);
  // Decided on the stream just read (a concurrent change makes the append fail and the retry
  // read again); a new number's reservation and the old one's release go in the same append.
  return await runJobCommand(
    deps,
    target,
    { type: 'UpdateJob', instanceId: target.instanceId, changes, ...(revertOf ? { revertOf } : {}) },
    ctx,
    expectedRevision,
    loaded,
    async (after, before) => {
      await refuseQuoteOverLines(deps, target, after, before);
      return [
        ...(await numberSwap(deps.store, target, ctx)(after, before)),
        ...(await mileageOfChange(deps.store, target, ctx, options.mileageLowerReason)(after, before)),
      ];
    },
  );
}

const QUOTE_FOLLOWS_LINES = "This job's quote is its lines' total: change its lines instead";

const quoteOf = (state: JobState) => (state.status === 'empty' ? null : state.fields.quote);

/**
 * Refuses a save that sets the quote of a job with repair-order lines (quoteFollowsLines). It
 * runs in each attempt of the append, after the decision: the stream it reads is at least as
 * new as the revision the append expects, so a line added after the job was read is either
 * seen here or makes the append fail and this check run again on the next attempt.
 */
async function refuseQuoteOverLines(deps: AppDeps, target: JobTarget, after: JobState, before: JobState): Promise<void> {
  if (quoteOf(after) === quoteOf(before)) return;
  const { events } = readableEvents(await deps.store.readStream(jobStream(target.jobId)));
  if (quoteFollowsLines(repairOrderFromEvents(events))) throw new ConflictError(QUOTE_FOLLOWS_LINES);
}

/** `expectedRevision` (If-Match, optional): like a save, only over that version. */
export async function changeJobStage(deps: AppDeps, target: JobTarget, stage: Stage, ctx: InstanceContext, expectedRevision?: number) {
  return await onKnownRow(deps, target, expectedRevision, (known) =>
    runJobCommand(deps, target, { type: 'ChangeStage', instanceId: target.instanceId, stage }, ctx, expectedRevision, known),
  );
}

export async function cancelJob(deps: AppDeps, target: JobTarget, ctx: InstanceContext, expectedRevision?: number) {
  return await onKnownRow(deps, target, expectedRevision, (known) =>
    runJobCommand(deps, target, { type: 'CancelJob', instanceId: target.instanceId }, ctx, expectedRevision, known),
  );
}

export async function reopenJob(deps: AppDeps, target: JobTarget, ctx: InstanceContext, expectedRevision?: number) {
  return await onKnownRow(deps, target, expectedRevision, (known) =>
    runJobCommand(deps, target, { type: 'ReopenJob', instanceId: target.instanceId }, ctx, expectedRevision, known),
  );
}

/**
 * Deletes the job and frees its number in one append (a crash between the two would leave
 * a typed number held by a deleted job); answers with the last append (for read-your-writes).
 * The number is not checked again after the append: the release went with it when the job
 * held the number, and a number it did not hold then is not its to free afterwards.
 */
export async function deleteJob(deps: JobDeps, target: JobTarget, ctx: InstanceContext): Promise<AppendResult | null> {
  const result = await onKnownRow(deps, target, undefined, (known) =>
    runJobCommand(
      deps,
      target,
      { type: 'DeleteJob', instanceId: target.instanceId },
      ctx,
      undefined,
      known,
      numberRelease(deps.store, target, ctx),
    ),
  );
  return result.alongside?.at(-1) ?? result.appended;
}

/**
 * Deletes a job because its customer was deleted (reason 'customer-deleted'; ctx.causationId
 * is the CustomerDeleted event's id). Safe to repeat after an interruption: a job this
 * deletion already deleted is not deleted again, only its number is freed if that was
 * still to do, and it still counts as deleted by it. A job deleted otherwise (by staff,
 * or gone from the instance) does not count.
 */
export async function deleteJobOfDeletedCustomer(
  deps: JobDeps,
  target: JobTarget,
  ctx: InstanceContext & { causationId: string },
): Promise<{ deleted: boolean; appended: AppendResult | null }> {
  try {
    const result = await runJobCommand(
      deps,
      target,
      { type: 'DeleteJob', instanceId: target.instanceId, reason: 'customer-deleted' },
      ctx,
      undefined,
      undefined,
      numberRelease(deps.store, target, ctx),
    );
    const appended = result.alongside?.at(-1) ?? result.appended;
    return { deleted: true, appended: await releaseNumberOfDeleted(deps.store, target, result.state, ctx, appended) };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const loaded = await loadAggregate(deps.store, jobStream(target.jobId), jobDecider);
    const deletion = loaded.events.find((e) => e.type === 'JobDeleted');
    if (
      loaded.state.status !== 'deleted' ||
      loaded.state.instanceId !== target.instanceId ||
      deletion?.metadata.causationId !== ctx.causationId
    ) {
      return { deleted: false, appended: null };
    }
    return { deleted: true, appended: await releaseNumberOfDeleted(deps.store, target, loaded.state, ctx, null) };
  }
}
