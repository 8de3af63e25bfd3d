import { randomUUID } from 'node:crypto';
import { CUSTOMER_MESSAGES } from '@crm/projections/customers';
import type { DomainEvent, StoredDomainEvent } from '@crm/projections/events';
import { JOB_MESSAGES, type JobFields, type JobView, type Stage } from '@crm/projections/pipeline';
import { VEHICLE_MESSAGES } from '@crm/projections/vehicles';
import { WrongExpectedVersionError, type AppendResult, type EventStore, type StreamAppend } from '@crm/projections/eventstore/port';
import { RECORD_MESSAGES } from '@crm/projections/records';
import { createCustomer, customerStanding } from '../customers/index.ts';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import {
  decideNewStream,
  executeCommand,
  loadAggregate,
  toNewEvents,
  type CommandResult,
  type InstanceContext,
  type LoadedStream,
} from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError, ValidationError } from '../shared/errors.ts';
import { jobMileageAppends, vehicleForJob } from '../vehicles/index.ts';
import { NumberAllocator, NumberExhaustedError } from '../shared/number-allocator.ts';
import { release, reservationHolder } from '../shared/reservations.ts';
import { jobDecider, jobNumberStream, jobStream, type JobCommand, type JobEvent, type JobState } from './job-decider.ts';
import { findJob, highestJobNumber, jobAsOf, jobViewFromEvents, type JobTarget } from './job-queries.ts';
import { holderOf, reservationOf } from '../shared/reservation-decider.ts';

// ---- job numbers -------------------------------------------------------------------------

/** Frees a number if this job holds it (never another job's). */
async function releaseJobNumber(store: EventStore, instanceId: string, jobNumber: string, jobId: string, ctx: InstanceContext) {
  const stream = jobNumberStream(instanceId, jobNumber);
  const holder = await reservationHolder(store, stream);
  if (holder?.jobId !== jobId) return null;
  return await release(store, stream, { type: 'JobNumberReleased', data: { instanceId, jobNumber, jobId } }, ctx);
}

/** One allocator per event store (per API process; tests run several servers in one process). */
const allocators = new WeakMap<EventStore, NumberAllocator>();

function jobNumberAllocator(deps: Pick<AppDeps, 'store' | 'knex'>): NumberAllocator {
  let allocator = allocators.get(deps.store);
  if (!allocator) {
    allocator = new NumberAllocator({ highest: (instanceId) => highestJobNumber(deps.knex, instanceId) });
    allocators.set(deps.store, allocator);
  }
  return allocator;
}

/** A number's reservation, to be appended with the job that takes it. */
function numberReservation(instanceId: string, jobNumber: string, jobId: string, ctx: InstanceContext, after: number | null): StreamAppend {
  return {
    streamId: jobNumberStream(instanceId, jobNumber),
    events: toNewEvents([{ type: 'JobNumberReserved', data: { instanceId, jobNumber, jobId } }], ctx),
    expectedRevision: after ?? 'no_stream',
  };
}

/** A typed number held by another job: a 409 naming the field, so the form shows it at the Job Number box. */
function numberInUse(jobNumber: string): ConflictError {
  const message = JOB_MESSAGES.numberInUse(jobNumber);
  return new ConflictError(message, { errors: [{ field: 'jobNumber', message }] });
}

/** A typed number's reservation (after its last release); a number held by a job is a 409. */
async function typedNumberReservation(store: EventStore, instanceId: string, jobNumber: string, jobId: string, ctx: InstanceContext) {
  const events = await store.readStream(jobNumberStream(instanceId, jobNumber));
  const last = events[events.length - 1];
  if (reservationOf(events).status === 'held') throw numberInUse(jobNumber);
  return numberReservation(instanceId, jobNumber, jobId, ctx, last ? last.revision : null);
}

const isRefusal = (error: unknown, reservation: StreamAppend) =>
  error instanceof WrongExpectedVersionError && error.streamId === reservation.streamId;

/**
 * The next per-instance number on its own (a restored job whose number another job took):
 * handed out by the allocator and reserved with `no_stream`; see createJob.
 */
async function assignJobNumber(deps: Pick<AppDeps, 'store' | 'knex'>, instanceId: string, jobId: string, ctx: InstanceContext) {
  try {
    const number = await jobNumberAllocator(deps).allocate(instanceId, async (candidate) => {
      const reservation = numberReservation(instanceId, String(candidate), jobId, ctx, null);
      try {
        await deps.store.append(reservation.streamId, reservation.events, { expectedRevision: 'no_stream' });
        return true;
      } catch (error) {
        if (isRefusal(error, reservation)) return false;
        throw error;
      }
    });
    return String(number);
  } catch (error) {
    if (error instanceof NumberExhaustedError) throw new ConflictError('Could not assign a job number. Please try again.');
    throw error;
  }
}

const numberKey = (jobNumber: string) => jobNumber.toLowerCase();

// ---- customers ---------------------------------------------------------------------------

/** A customer of this instance that is not deleted, from its own stream (never stale). */
async function assertCustomerOf(store: EventStore, instanceId: string, customerId: string): Promise<void> {
  const customer = await customerStanding(store, customerId);
  if (!customer || customer.status === 'deleted' || customer.instanceId !== instanceId) {
    throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  }
}

// ---- vehicles ----------------------------------------------------------------------------

/** What a job on a vehicle says the vehicle is (its customer; its name and VIN where the job has none). */
async function onVehicle(
  store: EventStore,
  instanceId: string,
  vehicleId: string,
  job: Pick<JobFields, 'customerId' | 'makeModel' | 'vin'>,
): Promise<Pick<JobFields, 'customerId' | 'makeModel' | 'vin'>> {
  const vehicle = await vehicleForJob(store, instanceId, vehicleId);
  if (job.customerId && job.customerId !== vehicle.customerId) {
    const message = "This vehicle belongs to another customer: choose one of this customer's vehicles";
    throw new ValidationError(message, { errors: [{ field: 'vehicleId', message }] });
  }
  return { customerId: vehicle.customerId, makeModel: job.makeModel || vehicle.label, vin: job.vin || vehicle.vin };
}

function checkMileageOrder(fields: Pick<JobFields, 'mileageIn' | 'mileageOut'>): void {
  if (fields.mileageIn !== null && fields.mileageOut !== null && fields.mileageOut < fields.mileageIn) {
    throw new ValidationError(VEHICLE_MESSAGES.mileageOutBelowIn, {
      errors: [{ field: 'mileageOut', message: VEHICLE_MESSAGES.mileageOutBelowIn }],
    });
  }
}

/** The readings a job's change took (new or changed values, or all of them when the job moved to another vehicle), in order. */
function newReadings(after: JobFields, before: JobFields | null): number[] {
  const moved = !before || before.vehicleId !== after.vehicleId;
  const readings: number[] = [];
  if (after.mileageIn !== null && (moved || after.mileageIn !== before.mileageIn)) readings.push(after.mileageIn);
  if (after.mileageOut !== null && (moved || after.mileageOut !== before.mileageOut)) readings.push(after.mileageOut);
  return readings;
}

// ---- commands ----------------------------------------------------------------------------

/**
 * A conflict under If-Match: when the job has moved past `expectedRevision`, the caller's
 * copy is stale and gets the job as it is now, to merge or reload; otherwise the conflict
 * is the job's own (e.g. reopening an open job) and stays as it was.
 */
async function staleConflict(store: EventStore, target: JobTarget, expectedRevision: number, ownConflict?: Error): Promise<Error> {
  const current = await jobAsOf(store, target, null);
  if (!current) return new NotFoundError(JOB_MESSAGES.notFound);
  return ownConflict && current.revision === expectedRevision ? ownConflict : new StaleRecordError('job', current);
}

async function runJobCommand(
  deps: Pick<AppDeps, 'store'>,
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
      alongside,
    });
  } catch (error) {
    // With If-Match, any concurrent change is the caller's to resolve (no retry ran).
    if (expectedRevision !== undefined && error instanceof ConflictError)
      throw await staleConflict(deps.store, target, expectedRevision, error);
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
    const decide = (customerId: string | null) =>
      decideNewStream({
        streamId: jobStream(jobId),
        decider: jobDecider,
        command: { type: 'CreateJob', jobId, instanceId, fields: { ...input, jobNumber, customerId } },
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
            job = decide(customerId);
            return [reservation, job.append, ...mileage];
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
  if (result!.stream) createdStreams.set(result!.appended!, result!.stream);
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
  const loaded = await loadAggregate(deps.store, jobStream(target.jobId), jobDecider);
  const state = loaded.state;
  if ((state.status !== 'open' && state.status !== 'canceled') || state.instanceId !== target.instanceId) {
    throw new NotFoundError(JOB_MESSAGES.notFound);
  }
  if (expectedRevision !== undefined && loaded.revision !== expectedRevision) {
    throw await staleConflict(deps.store, target, expectedRevision);
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

/** For a save that takes odometer readings on a vehicle: their records on the vehicle's stream, as appends of the same command. */
function mileageOfChange(store: EventStore, target: JobTarget, ctx: InstanceContext, lowerReason: string | undefined) {
  return async (after: JobState, before: JobState): Promise<StreamAppend[]> => {
    if ((after.status !== 'open' && after.status !== 'canceled') || !after.fields.vehicleId) return [];
    const previous = before.status === 'open' || before.status === 'canceled' ? before.fields : null;
    const readings = newReadings(after.fields, previous);
    return await jobMileageAppends(store, ctx, { vehicleId: after.fields.vehicleId, jobId: target.jobId, readings, lowerReason });
  };
}

/**
 * For a save that changes the job's number: the new number's reservation (a 409 when another
 * job holds it) and the old one's release, as appends of the same command, so a crash never
 * leaves the job holding two numbers or none. A change of letter case only keeps the number.
 */
function numberSwap(store: EventStore, target: JobTarget, ctx: InstanceContext) {
  return async (after: JobState, before: JobState): Promise<StreamAppend[]> => {
    if ((after.status !== 'open' && after.status !== 'canceled') || (before.status !== 'open' && before.status !== 'canceled')) return [];
    const [oldNumber, newNumber] = [before.fields.jobNumber, after.fields.jobNumber];
    if (numberKey(oldNumber) === numberKey(newNumber)) return [];
    const { instanceId, jobId } = target;
    const appends: StreamAppend[] = [];
    if ((await reservationHolder(store, jobNumberStream(instanceId, newNumber)))?.jobId !== jobId) {
      appends.push(await typedNumberReservation(store, instanceId, newNumber, jobId, ctx));
    }
    const oldStream = jobNumberStream(instanceId, oldNumber);
    const held = await store.readStream(oldStream);
    const last = held[held.length - 1];
    if (last && holderOf(held)?.jobId === jobId) {
      const released: DomainEvent = { type: 'JobNumberReleased', data: { instanceId, jobNumber: oldNumber, jobId } };
      appends.push({ streamId: oldStream, events: toNewEvents([released], ctx), expectedRevision: last.revision });
    }
    return appends;
  };
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
export async function deleteJob(deps: Pick<AppDeps, 'store'>, target: JobTarget, ctx: InstanceContext): Promise<AppendResult | null> {
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

/** For a deletion: the release of the number the deleted job holds, as an append of the same command. */
function numberRelease(store: EventStore, target: JobTarget, ctx: InstanceContext) {
  return async (state: JobState): Promise<StreamAppend[]> => {
    if (state.status !== 'deleted' || !state.jobNumber) return [];
    const { instanceId, jobId } = target;
    const streamId = jobNumberStream(instanceId, state.jobNumber);
    const events = await store.readStream(streamId);
    const last = events[events.length - 1];
    if (!last || holderOf(events)?.jobId !== jobId) return [];
    const released: DomainEvent = { type: 'JobNumberReleased', data: { instanceId, jobNumber: state.jobNumber, jobId } };
    return [{ streamId, events: toNewEvents([released], ctx), expectedRevision: last.revision }];
  };
}

/** Frees a deleted job's number (if it still holds it); answers with the last append. */
async function releaseNumberOfDeleted(
  store: EventStore,
  target: JobTarget,
  state: JobState,
  ctx: InstanceContext,
  appended: AppendResult | null,
): Promise<AppendResult | null> {
  if (state.status !== 'deleted') return appended;
  return (await releaseJobNumber(store, target.instanceId, state.jobNumber, target.jobId, ctx)) ?? appended;
}

/**
 * Deletes a job because its customer was deleted (reason 'customer-deleted'; ctx.causationId
 * is the CustomerDeleted event's id). Safe to repeat after an interruption: a job this
 * deletion already deleted is not deleted again, only its number is freed if that was
 * still to do, and it still counts as deleted by it. A job deleted otherwise (by staff,
 * or gone from the instance) does not count.
 */
export async function deleteJobOfDeletedCustomer(
  deps: Pick<AppDeps, 'store'>,
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

/** A new job's stream as its creation recorded it, for its answer (keyed by that append). */
const createdStreams = new WeakMap<AppendResult, StoredDomainEvent[]>();

/**
 * Read-your-writes: waits until the command's events are projected (so a list read after
 * the answer shows them), and answers with the job as the read model has it then. When the
 * command knows the whole stream with its recorded times (the PostgreSQL store says when
 * it recorded an append), the job is folded from it, the very row the projection wrote,
 * without reading it back; otherwise (and when the projector lags beyond the wait) it is
 * read, or folded from the events, so it is never older than the command.
 */
export async function projectedJob(
  deps: AppDeps,
  target: JobTarget,
  result: { appended: AppendResult | null; revision: number | null; stream?: StoredDomainEvent[] | null },
): Promise<JobView> {
  const stream = result.stream ?? (result.appended ? createdStreams.get(result.appended) : undefined);
  const reached = await settle(deps, result.appended);
  if (stream && reached) {
    const folded = jobViewFromEvents(stream, target.instanceId);
    if (!folded) throw new NotFoundError(JOB_MESSAGES.notFound);
    return folded;
  }
  const row = await findJob(deps.knex, target);
  if (row && (result.revision === null || row.revision >= result.revision)) return row;
  const folded = await jobAsOf(deps.store, target, null);
  if (!folded) throw new NotFoundError(JOB_MESSAGES.notFound);
  return folded;
}

// ---- restore (a deleted job back, see the records slice) ---------------------------------

/**
 * Brings a deleted job back with its history (JobRestored, on its own stream). Its number
 * is taken again when free (or still its own); when another job took it meanwhile, the job
 * gets the next number instead. A job whose customer is still deleted is refused: its
 * customer's restore brings it back.
 *
 * `restoration` (the customer-restore cascade; ctx.causationId is the CustomerRestored
 * event's id): only a job that this customer's deletion removed comes back, and a job this
 * restoration brought back already counts without a second restore (safe to repeat).
 */
export async function restoreJob(
  deps: Pick<AppDeps, 'store'> & { knex?: AppDeps['knex'] },
  target: JobTarget,
  ctx: InstanceContext,
  restoration?: { deletionEventId: string },
): Promise<{ restored: boolean; appended: AppendResult | null }> {
  const loaded = await loadAggregate(deps.store, jobStream(target.jobId), jobDecider);
  const state = loaded.state;
  if (state.status === 'empty' || state.instanceId !== target.instanceId) throw new NotFoundError(JOB_MESSAGES.notFound);
  const lastOf = (type: string) => [...loaded.events].reverse().find((e) => e.type === type);
  if (restoration) {
    if (state.status !== 'deleted') return { restored: lastOf('JobRestored')?.metadata.causationId === ctx.causationId, appended: null };
    if (lastOf('JobDeleted')?.metadata.causationId !== restoration.deletionEventId) return { restored: false, appended: null };
  } else {
    if (state.status !== 'deleted') throw new ConflictError(RECORD_MESSAGES.notDeleted);
    const customerId = state.fields.customerId;
    if (customerId) {
      if ((await customerStanding(deps.store, customerId))?.status === 'deleted')
        throw new ConflictError(RECORD_MESSAGES.customerStillDeleted);
    }
  }
  const { instanceId, jobId } = target;
  const created = loaded.events.find((e) => e.type === 'JobCreated');
  if (!created) throw new NotFoundError(JOB_MESSAGES.notFound);
  const restoreUnder = (jobNumber: string, alongside?: () => Promise<StreamAppend[]>) =>
    runJobCommand(
      deps,
      target,
      {
        type: 'RestoreJob',
        instanceId,
        jobNumber,
        createdAt: created.recordedAt.toISOString(),
        createdBy: created.metadata.actor.displayName,
      },
      ctx,
      undefined,
      loaded,
      alongside,
    );
  const ownNumber = state.fields.jobNumber;
  if (ownNumber) {
    try {
      // Its own number again, reserved in the same append as the restore (all or nothing).
      const result = await restoreUnder(ownNumber, async () => {
        const holder = await reservationHolder(deps.store, jobNumberStream(instanceId, ownNumber));
        if (holder?.jobId === jobId) return [];
        if (holder) throw new NumberTakenError();
        return [await typedNumberReservation(deps.store, instanceId, ownNumber, jobId, ctx)];
      });
      return { restored: true, appended: result.appended };
    } catch (error) {
      if (
        !(error instanceof NumberTakenError) &&
        !(error instanceof ConflictError && error.message === JOB_MESSAGES.numberInUse(ownNumber))
      )
        throw error;
    }
  }
  // Another job has the number now: this one comes back under the next one, reserved on its
  // own first (as a new job's would be) and freed again if the restore fails.
  if (!deps.knex) throw new ConflictError(JOB_MESSAGES.numberInUse(ownNumber));
  const assigned = await assignJobNumber({ store: deps.store, knex: deps.knex }, instanceId, jobId, ctx);
  try {
    const result = await restoreUnder(assigned);
    return { restored: true, appended: result.appended };
  } catch (error) {
    await releaseJobNumber(deps.store, instanceId, assigned, jobId, ctx);
    throw error;
  }
}

/** A restored job's number is another job's now (see restoreJob). */
class NumberTakenError extends Error {}
