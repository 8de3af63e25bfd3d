import { randomUUID } from 'node:crypto';
import { CUSTOMER_MESSAGES, customerMergeInput, type CustomerMergedView } from '@crm/projections/customers';
import { WrongExpectedVersionError, type StreamAppend } from '@crm/projections/eventstore/port';
import { isUuid } from '@crm/projections/shared';
import { customerDecider, customerStream, getCustomer, type CustomerMerge, type CustomerState } from '../customers/index.ts';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { parseInput } from '../http/validation.ts';
import { jobDecider, jobStream, type JobState } from '../pipeline/index.ts';
import { loadAggregate, toNewEvents, type InstanceContext, type LoadedStream } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { customerVehicleIds, vehicleDecider, vehicleStream } from '../vehicles/index.ts';
import { customerJobIds } from './merge-queries.ts';

const MERGE_CONFLICT = 'These customers changed while merging; please try again';

type Loaded<S> = LoadedStream<S> & { streamId: string };

async function load<S>(deps: AppDeps, streamId: string, decider: Parameters<typeof loadAggregate<S, never>>[2]): Promise<Loaded<S>> {
  return { ...(await loadAggregate(deps.store, streamId, decider)), streamId };
}

/** One stream's decided events as an append that expects the revision they were decided on. */
function appendOf(
  loaded: { streamId: string; revision: number | null },
  events: Parameters<typeof toNewEvents>[0],
  ctx: InstanceContext,
): StreamAppend | null {
  if (events.length === 0) return null;
  return { streamId: loaded.streamId, events: toNewEvents(events, ctx), expectedRevision: loaded.revision ?? 'no_stream' };
}

/**
 * Every stream of a merge (or its undo) in one appendMany: all or nothing on the PostgreSQL
 * store. A stream that moved on since it was read is a 409 (nothing was recorded).
 */
async function appendAll(deps: AppDeps, appends: Array<StreamAppend | null>): Promise<void> {
  const all = appends.filter((a): a is StreamAppend => a !== null);
  try {
    const results = await deps.store.appendMany(all);
    const last = results[results.length - 1];
    if (last) await settle(deps, { position: last.position });
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) throw new ConflictError(MERGE_CONFLICT);
    throw error;
  }
}

function liveCustomer(loaded: LoadedStream<CustomerState>, instanceId: string) {
  const state = loaded.state;
  if (state.status !== 'active' || state.instanceId !== instanceId) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  return state;
}

/**
 * Merges customer `fromId` into the body's `intoId`: CustomerMerged on both streams, each of
 * `from`'s jobs re-pointed to `into` (a job named after `from` takes `into`'s name) and each
 * of its vehicles moved (VehicleMoved), in one append. `from` leaves the lists; its stream
 * keeps its history, and the merge can be undone.
 */
export async function mergeCustomer(deps: AppDeps, fromId: string, input: unknown, ctx: InstanceContext): Promise<CustomerMergedView> {
  const { intoId: rawInto } = parseInput(customerMergeInput, input);
  if (!isUuid(fromId)) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const from = fromId.toLowerCase();
  const into = rawInto.toLowerCase();
  const [fromStream, intoStream] = await Promise.all([
    load<CustomerState>(deps, customerStream(from), customerDecider),
    load<CustomerState>(deps, customerStream(into), customerDecider),
  ]);
  const fromCustomer = liveCustomer(fromStream, ctx.instanceId);
  const intoCustomer = liveCustomer(intoStream, ctx.instanceId);
  const [jobIds, vehicleIds] = await Promise.all([
    customerJobIds(deps.knex, ctx.instanceId, from),
    customerVehicleIds(deps.knex, ctx.instanceId, from),
  ]);
  const jobs = await Promise.all(jobIds.map((id) => load<JobState>(deps, jobStream(id), jobDecider)));
  const vehicles = await Promise.all(vehicleIds.map((id) => load(deps, vehicleStream(id), vehicleDecider)));

  const mergeId = randomUUID();
  const jobAppends: Array<StreamAppend | null> = [];
  const renamedJobIds: string[] = [];
  const movedJobIds: string[] = [];
  for (const [i, job] of jobs.entries()) {
    const state = job.state;
    if (state.status !== 'open' && state.status !== 'canceled') continue;
    const renamed = state.fields.name === fromCustomer.fields.name && fromCustomer.fields.name !== intoCustomer.fields.name;
    if (renamed) renamedJobIds.push(jobIds[i]!);
    const changes = { customerId: into, ...(renamed ? { name: intoCustomer.fields.name } : {}) };
    movedJobIds.push(jobIds[i]!);
    jobAppends.push(appendOf(job, jobDecider.decide({ type: 'UpdateJob', instanceId: ctx.instanceId, changes }, state), ctx));
  }
  const vehicleAppends = vehicles.map((vehicle) =>
    appendOf(
      vehicle,
      vehicleDecider.decide({ type: 'MoveVehicle', instanceId: ctx.instanceId, toCustomerId: into, mergeId }, vehicle.state),
      ctx,
    ),
  );
  const merge: CustomerMerge = {
    mergeId,
    fromId: from,
    fromName: fromCustomer.fields.name,
    intoId: into,
    intoName: intoCustomer.fields.name,
    jobIds: movedJobIds,
    renamedJobIds,
    vehicleIds,
  };
  const command = { type: 'MergeCustomer', instanceId: ctx.instanceId, merge } as const;
  await appendAll(deps, [
    appendOf(fromStream, customerDecider.decide(command, fromStream.state), ctx),
    appendOf(intoStream, customerDecider.decide(command, intoStream.state), ctx),
    ...jobAppends,
    ...vehicleAppends,
  ]);
  return {
    mergeId,
    fromId: from,
    intoId: into,
    jobsMoved: jobAppends.filter(Boolean).length,
    vehiclesMoved: vehicleAppends.filter(Boolean).length,
    customer: await getCustomer(deps, ctx.instanceId, into),
  };
}

/**
 * Undoes the merge that took customer `fromId` away: CustomerMergeUndone on both streams,
 * `from` back on the lists as it was merged, and the merge's jobs and vehicles that are still
 * on `into` moved back (a job renamed by the merge gets its old name while it still has the
 * one the merge gave). A job or vehicle moved on since (another customer, deleted) stays.
 */
export async function undoCustomerMerge(deps: AppDeps, fromId: string, ctx: InstanceContext): Promise<CustomerMergedView> {
  if (!isUuid(fromId)) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const fromStream = await load<CustomerState>(deps, customerStream(fromId.toLowerCase()), customerDecider);
  const state = fromStream.state;
  if (state.status === 'empty' || state.instanceId !== ctx.instanceId) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  if (state.status !== 'merged') throw new ConflictError('This customer is not merged into another');
  const { merge } = state;
  const intoStream = await load<CustomerState>(deps, customerStream(merge.intoId), customerDecider);
  const created = fromStream.events.find((e) => e.type === 'CustomerCreated');
  if (!created) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const command = {
    type: 'UndoCustomerMerge',
    instanceId: ctx.instanceId,
    mergeId: merge.mergeId,
    createdAt: created.recordedAt.toISOString(),
    createdBy: created.metadata.actor.displayName,
  } as const;
  const customerAppends = [
    appendOf(fromStream, customerDecider.decide(command, fromStream.state), ctx),
    appendOf(intoStream, customerDecider.decide(command, intoStream.state), ctx),
  ];

  const jobs = await Promise.all(merge.jobIds.map((id) => load<JobState>(deps, jobStream(id), jobDecider)));
  const jobAppends = jobs.map((job, i) => {
    const s = job.state;
    if ((s.status !== 'open' && s.status !== 'canceled') || s.fields.customerId !== merge.intoId) return null;
    const rename = merge.renamedJobIds.includes(merge.jobIds[i]!) && s.fields.name === merge.intoName;
    const changes = { customerId: merge.fromId, ...(rename ? { name: merge.fromName } : {}) };
    return appendOf(job, jobDecider.decide({ type: 'UpdateJob', instanceId: ctx.instanceId, changes }, s), ctx);
  });
  const vehicles = await Promise.all(merge.vehicleIds.map((id) => load(deps, vehicleStream(id), vehicleDecider)));
  const vehicleAppends = vehicles.map((vehicle) => {
    const s = vehicle.state;
    if (s.status !== 'active' || s.customerId !== merge.intoId) return null;
    const command = { type: 'MoveVehicle', instanceId: ctx.instanceId, toCustomerId: merge.fromId, mergeId: merge.mergeId } as const;
    return appendOf(vehicle, vehicleDecider.decide(command, s), ctx);
  });
  await appendAll(deps, [...customerAppends, ...jobAppends, ...vehicleAppends]);
  return {
    mergeId: merge.mergeId,
    fromId: merge.fromId,
    intoId: merge.intoId,
    jobsMoved: jobAppends.filter(Boolean).length,
    vehiclesMoved: vehicleAppends.filter(Boolean).length,
    customer: await getCustomer(deps, ctx.instanceId, merge.fromId),
  };
}
