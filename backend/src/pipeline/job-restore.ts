import { RECORD_MESSAGES } from '@crm/projections/records';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import type { AppendResult, StreamAppend } from '@crm/projections/eventstore/port';
import { customerStanding } from '../customers/index.ts';
import type { AppDeps } from '../deps.ts';
import { loadAggregate, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { reservationHolder } from '../shared/reservations.ts';
import { jobDecider, jobNumberStream, jobStream } from './job-decider.ts';
import { assignJobNumber, releaseJobNumber, typedNumberReservation } from './job-numbers.ts';
import type { JobTarget } from './job-queries.ts';
import { runJobCommand } from './job-state.ts';

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
