import { randomUUID } from 'node:crypto';
import { CANCELED_STAGE, JOB_MESSAGES, type JobFields, type JobView, type Stage } from '@crm/projections/pipeline';
import { fieldsOfRow, type JobRow } from '@crm/projections/pipeline/job-rows';
import type { AppendResult, StreamAppend } from '@crm/projections/eventstore/port';
import { createCustomer } from '../customers/index.ts';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import {
  decideNewStream,
  executeCommand,
  loadAggregate,
  type CommandResult,
  type InstanceContext,
  type LoadedStream,
} from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { jobMileageAppends, newCustomerVehicleAppend } from '../vehicles/index.ts';
import { NumberExhaustedError } from '../shared/number-allocator.ts';
import { jobDecider, jobStream, type JobCommand, type JobEvent, type JobState } from './job-decider.ts';
import { assertCustomerOf, checkMileageOrder, mileageOfChange, newReadings, onVehicle } from './job-links.ts';
import {
  isRefusal,
  jobNumberAllocator,
  numberInUse,
  numberRelease,
  numberReservation,
  numberSwap,
  releaseJobNumber,
  releaseNumberOfDeleted,
  typedNumberReservation,
} from './job-numbers.ts';
import { findJob, findJobRow, jobAsOf, jobViewOfRow, type JobTarget } from './job-queries.ts';

// ---- commands ----------------------------------------------------------------------------

/**
 * A conflict under If-Match: when the job has moved past `expectedRevision`, the caller's
 * copy is stale and gets the job as it is now, to merge or reload; otherwise the conflict
 * is the job's own (e.g. reopening an open job) and stays as it was.
 */
async function staleConflict(deps: JobDeps, target: JobTarget, expectedRevision: number, ownConflict?: Error): Promise<Error> {
  const current = await currentJob(deps, target);
  if (!current) return new NotFoundError(JOB_MESSAGES.notFound);
  return ownConflict && current.revision === expectedRevision ? ownConflict : new StaleRecordError('job', current);
}

/** Without `knex` (no read model to read: some callers) the job is folded from its stream. */
type JobDeps = Pick<AppDeps, 'store'> & Partial<Pick<AppDeps, 'knex'>>;

/** The job as it is now: its row where every append writes it inline, else folded from its stream (EventStoreDB). */
export async function currentJob(deps: JobDeps, target: JobTarget): Promise<JobView | null> {
  return deps.store.projectsInline && deps.knex ? await findJob(deps.knex, target) : await jobAsOf(deps.store, target, null);
}

/**
 * The decider's state from the job's row (one indexed read, no stream read and fold) where
 * appends write it inline: its revision is then the stream's, since every append to the
 * stream writes the row in its own transaction; the append expects that revision, so a
 * row that has moved on since, or trails the stream (events the projector has still to
 * apply), makes it fail and the retry fold the stream. The row also stands in for the
 * pipeline projection's own read of it in the append (`read`). Null (fold the stream):
 * EventStoreDB, or no row (an unknown, deleted or other instance's job: the fold tells which).
 */
export async function jobFromRow(deps: JobDeps, target: JobTarget): Promise<LoadedStream<JobState> | null> {
  if (!deps.store.projectsInline || !deps.knex) return null;
  const row = await findJobRow(deps.knex, target);
  if (!row) return null;
  const fields = fieldsOfRow(row);
  const state: JobState = {
    status: fields.stage === CANCELED_STAGE ? 'canceled' : 'open',
    jobId: row.id,
    instanceId: row.instance_id,
    fields,
  };
  return { state, revision: row.revision, events: [], read: new Map([[PIPELINE_PROJECTION, [row as unknown as Record<string, unknown>]]]) };
}

/** The inline projection that writes `jobs` (its name, as AppendOptions.read keys it). */
const PIPELINE_PROJECTION = 'pipeline';

export async function runJobCommand(
  deps: JobDeps,
  target: JobTarget,
  command: JobCommand,
  ctx: InstanceContext,
  expectedRevision?: number,
  loaded?: LoadedStream<JobState>,
  alongside?: (state: JobState, before: JobState) => Promise<StreamAppend[]>,
): Promise<CommandResult<JobState, JobEvent>> {
  try {
    return await executeCommand({
      store: deps.store,
      streamId: jobStream(target.jobId),
      decider: jobDecider,
      command,
      ctx,
      expectedRevision,
      loaded,
      load: () => jobFromRow(deps, target),
      alongside,
    });
  } catch (error) {
    // With If-Match, any concurrent change is the caller's to resolve (no retry ran).
    if (expectedRevision !== undefined && error instanceof ConflictError) throw await staleConflict(deps, target, expectedRevision, error);
    throw error;
  }
}

/**
 * Records a new job with its number's reservation and, for a name without a chosen customer,
 * the new customer it links, in one append: all or nothing, so a job that
 * cannot be recorded leaves no customer and no number behind (a crash included). A typed
 * number is reserved after its last release; a blank one is the next per-instance number,
 * handed out by this process's allocator and confirmed by that append (`no_stream` on the
 * number's stream), so concurrent creations never wait for each other and never share a
 * number, whichever API process serves them; a number once reserved is never handed out
 * again, even after its job is deleted.
 */
export async function createJob(
  deps: AppDeps,
  input: JobFields,
  ctx: InstanceContext,
  /**
   * `jobId`: the new job's id when the caller must know it beforehand (a conversion that may
   * be retried: a second try finds the job). `newCustomer`: more of the customer the job
   * makes when it names no existing one (a service request's email).
   */
  options: { jobId?: string; mileageLowerReason?: string; newCustomer?: { email?: string } } = {},
): Promise<{ jobId: string; appended: AppendResult }> {
  const { instanceId } = ctx;
  const jobId = options.jobId ?? randomUUID();
  checkMileageOrder(input);
  if (input.vehicleId) input = { ...input, ...(await onVehicle(deps.store, instanceId, input.vehicleId, input)) };
  if (input.customerId) await assertCustomerOf(deps.store, instanceId, input.customerId);
  const mileage = input.vehicleId
    ? await jobMileageAppends(deps.store, ctx, {
        vehicleId: input.vehicleId,
        jobId,
        readings: newReadings(input, null),
        lowerReason: options.mileageLowerReason,
      })
    : [];

  const record = async (jobNumber: string, reservation: StreamAppend): Promise<CommandResult<JobState, JobEvent>> => {
    const decide = (customerId: string | null, vehicleId = input.vehicleId) =>
      decideNewStream({
        streamId: jobStream(jobId),
        decider: jobDecider,
        command: { type: 'CreateJob', jobId, instanceId, fields: { ...input, jobNumber, customerId, vehicleId } },
        ctx,
      });
    try {
      if (!input.customerId && input.name) {
        let job: ReturnType<typeof decide> | undefined;
        const customer = await createCustomer(
          deps,
          {
            name: input.name,
            phone: input.phone,
            vehicles: input.makeModel ? [input.makeModel] : [],
            ...(options.newCustomer?.email ? { email: options.newCustomer.email } : {}),
          },
          ctx,
          (customerId) => {
            // The vehicle typed for a new customer becomes their vehicle record, the job on it.
            const vehicleId = randomUUID();
            const vehicle = input.vehicleId
              ? null
              : newCustomerVehicleAppend(ctx, {
                  vehicleId,
                  customerId,
                  text: input.makeModel,
                  vin: input.vin,
                  jobId,
                  readings: newReadings(input, null),
                });
            job = decide(customerId, vehicle ? vehicleId : input.vehicleId);
            return [reservation, ...(vehicle ? [vehicle] : []), job.append, ...mileage];
          },
        );
        return job!.result(customer.alongside[1]!);
      }
      const job = decide(input.customerId);
      const [, appended] = await deps.store.appendMany([reservation, job.append, ...mileage]);
      return job.result(appended!);
    } catch (error) {
      // EventStoreDB appends in order: a job that failed after its number was reserved frees it again.
      if (!deps.store.atomicMultiStream && !isRefusal(error, reservation)) {
        await releaseJobNumber(deps.store, instanceId, jobNumber, jobId, ctx);
      }
      throw error;
    }
  };

  let result: CommandResult<JobState, JobEvent> | undefined;
  if (input.jobNumber) {
    const reservation = await typedNumberReservation(deps.store, instanceId, input.jobNumber, jobId, ctx);
    try {
      result = await record(input.jobNumber, reservation);
    } catch (error) {
      if (isRefusal(error, reservation)) throw numberInUse(input.jobNumber);
      throw error;
    }
  } else {
    try {
      await jobNumberAllocator(deps).allocate(instanceId, async (candidate) => {
        const reservation = numberReservation(instanceId, String(candidate), jobId, ctx, null);
        try {
          result = await record(String(candidate), reservation);
          return true;
        } catch (error) {
          if (isRefusal(error, reservation)) return false;
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof NumberExhaustedError) throw new ConflictError('Could not assign a job number. Please try again.');
      throw error;
    }
  }
  return { jobId, appended: result!.appended! };
}

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
  const loaded = (await jobFromRow(deps, target)) ?? (await loadAggregate(deps.store, jobStream(target.jobId), jobDecider));
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
    async (after, before) => [
      ...(await numberSwap(deps.store, target, ctx)(after, before)),
      ...(await mileageOfChange(deps.store, target, ctx, options.mileageLowerReason)(after, before)),
    ],
  );
}

/** `expectedRevision` (If-Match, optional): like a save, only over that version. */
export async function changeJobStage(deps: AppDeps, target: JobTarget, stage: Stage, ctx: InstanceContext, expectedRevision?: number) {
  return await runJobCommand(deps, target, { type: 'ChangeStage', instanceId: target.instanceId, stage }, ctx, expectedRevision);
}

export async function cancelJob(deps: AppDeps, target: JobTarget, ctx: InstanceContext, expectedRevision?: number) {
  return await runJobCommand(deps, target, { type: 'CancelJob', instanceId: target.instanceId }, ctx, expectedRevision);
}

export async function reopenJob(deps: AppDeps, target: JobTarget, ctx: InstanceContext, expectedRevision?: number) {
  return await runJobCommand(deps, target, { type: 'ReopenJob', instanceId: target.instanceId }, ctx, expectedRevision);
}

/**
 * Deletes the job and frees its number in one append (a crash between the two would leave
 * a typed number held by a deleted job); answers with the last append (for read-your-writes).
 */
export async function deleteJob(deps: JobDeps, target: JobTarget, ctx: InstanceContext): Promise<AppendResult | null> {
  const result = await runJobCommand(
    deps,
    target,
    { type: 'DeleteJob', instanceId: target.instanceId },
    ctx,
    undefined,
    undefined,
    numberRelease(deps.store, target, ctx),
  );
  return await releaseNumberOfDeleted(deps.store, target, result.state, ctx, result.alongside?.at(-1) ?? result.appended);
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

/**
 * A command's answer: the job as its row was stored. Where appends write the row inline it
 * came back with the append (AppendResult.written): the very row the list and GET read,
 * mapped the same way, with no read and no second fold. Otherwise (EventStoreDB, a replayed
 * append, a command that recorded nothing) read-your-writes: wait until the projector has
 * the command's events, then read the row; a row older than the command (the projector
 * lags beyond the wait) gives way to the job folded from its stream.
 */
export async function projectedJob(
  deps: AppDeps,
  target: JobTarget,
  result: { appended: AppendResult | null; revision: number | null },
): Promise<JobView> {
  const written = result.appended?.written?.jobs?.find((row) => row.id === target.jobId.toLowerCase()) as JobRow | undefined;
  if (written) return jobViewOfRow(written);
  await settle(deps, result.appended);
  const row = await findJob(deps.knex, target);
  if (row && (result.revision === null || row.revision >= result.revision)) return row;
  const folded = await jobAsOf(deps.store, target, null);
  if (!folded) throw new NotFoundError(JOB_MESSAGES.notFound);
  return folded;
}
