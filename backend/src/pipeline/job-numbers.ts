import type { DomainEvent } from '@crm/projections/events';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import { WrongExpectedVersionError, type AppendResult, type EventStore, type StreamAppend } from '@crm/projections/eventstore/port';
import type { AppDeps } from '../deps.ts';
import { toNewEvents, type InstanceContext } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';
import { NumberAllocator, NumberExhaustedError } from '../shared/number-allocator.ts';
import { release, reservationHolder } from '../shared/reservations.ts';
import { holderOf, reservationOf } from '../shared/reservation-decider.ts';
import { jobNumberStream, type JobState } from './job-decider.ts';
import { highestJobNumber, type JobTarget } from './job-queries.ts';

/**
 * A job's number: reserved on its own stream (one per instance and number) in the same
 * append as the job that takes it, freed in the same append as the change that gives it up.
 */

/** Frees a number if this job holds it (never another job's). */
export async function releaseJobNumber(store: EventStore, instanceId: string, jobNumber: string, jobId: string, ctx: InstanceContext) {
  const stream = jobNumberStream(instanceId, jobNumber);
  const holder = await reservationHolder(store, stream);
  if (holder?.jobId !== jobId) return null;
  return await release(store, stream, { type: 'JobNumberReleased', data: { instanceId, jobNumber, jobId } }, ctx);
}

/** One allocator per event store (per API process; tests run several servers in one process). */
const allocators = new WeakMap<EventStore, NumberAllocator>();

export function jobNumberAllocator(deps: Pick<AppDeps, 'store' | 'knex'>): NumberAllocator {
  let allocator = allocators.get(deps.store);
  if (!allocator) {
    allocator = new NumberAllocator({ highest: (instanceId) => highestJobNumber(deps.knex, instanceId) });
    allocators.set(deps.store, allocator);
  }
  return allocator;
}

/** A number's reservation, to be appended with the job that takes it. */
export function numberReservation(
  instanceId: string,
  jobNumber: string,
  jobId: string,
  ctx: InstanceContext,
  after: number | null,
): StreamAppend {
  return {
    streamId: jobNumberStream(instanceId, jobNumber),
    events: toNewEvents([{ type: 'JobNumberReserved', data: { instanceId, jobNumber, jobId } }], ctx),
    expectedRevision: after ?? 'no_stream',
  };
}

/** A typed number held by another job: a 409 naming the field, so the form shows it at the Job Number box. */
export function numberInUse(jobNumber: string): ConflictError {
  const message = JOB_MESSAGES.numberInUse(jobNumber);
  return new ConflictError(message, { errors: [{ field: 'jobNumber', message }] });
}

/** A typed number's reservation (after its last release); a number held by a job is a 409. */
export async function typedNumberReservation(
  store: EventStore,
  instanceId: string,
  jobNumber: string,
  jobId: string,
  ctx: InstanceContext,
) {
  const events = await store.readStream(jobNumberStream(instanceId, jobNumber));
  const last = events[events.length - 1];
  if (reservationOf(events).status === 'held') throw numberInUse(jobNumber);
  return numberReservation(instanceId, jobNumber, jobId, ctx, last ? last.revision : null);
}

export const isRefusal = (error: unknown, reservation: StreamAppend) =>
  error instanceof WrongExpectedVersionError && error.streamId === reservation.streamId;

/**
 * The next per-instance number on its own (a restored job whose number another job took):
 * handed out by the allocator and reserved with `no_stream`; see createJob.
 */
export async function assignJobNumber(deps: Pick<AppDeps, 'store' | 'knex'>, instanceId: string, jobId: string, ctx: InstanceContext) {
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

export const numberKey = (jobNumber: string) => jobNumber.toLowerCase();

/**
 * For a save that changes the job's number: the new number's reservation (a 409 when another
 * job holds it) and the old one's release, as appends of the same command, so a crash never
 * leaves the job holding two numbers or none. A change of letter case only keeps the number.
 */
export function numberSwap(store: EventStore, target: JobTarget, ctx: InstanceContext) {
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

/** For a deletion: the release of the number the deleted job holds, as an append of the same command. */
export function numberRelease(store: EventStore, target: JobTarget, ctx: InstanceContext) {
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
export async function releaseNumberOfDeleted(
  store: EventStore,
  target: JobTarget,
  state: JobState,
  ctx: InstanceContext,
  appended: AppendResult | null,
): Promise<AppendResult | null> {
  if (state.status !== 'deleted') return appended;
  return (await releaseJobNumber(store, target.instanceId, state.jobNumber, target.jobId, ctx)) ?? appended;
}
