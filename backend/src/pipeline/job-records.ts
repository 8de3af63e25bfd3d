import type { StoredDomainEvent } from '@crm/projections/events';
import { CANCELED_STAGE, JOB_MESSAGES, jobEventChanges, type JobFields, type JobStreamEvent } from '@crm/projections/pipeline';
import { RECORD_MESSAGES, type RestoredView } from '@crm/projections/records';
import { assertNever, isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import type { CommandResult, InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import type { JobEvent, JobState } from './job-decider.ts';
import type { JobTarget } from './job-queries.ts';
import { updateJob } from './job-commands.ts';
import { restoreJob } from './job-restore.ts';

/**
 * Undo from a job's history and the restore of a deleted job. A revert is a compensating
 * change that sets the fields one change set back to what they were before it, recorded as
 * an ordinary change of those fields that names the change it undoes (`revertOf`).
 */

export type StoredJobEvent = StoredDomainEvent & JobStreamEvent;

/** The record fields one job event set (a creation, deletion or restore sets none that can be undone). */
export function jobFieldsSetBy(event: StoredJobEvent): string[] {
  if (event.type === 'JobCreated' || event.type === 'JobDeleted' || event.type === 'JobRestored') return [];
  return jobEventChanges(event).map((change) => change.field);
}

/** What the fields were before the change, in the record's terms; null for what is no change of fields. */
export function jobValuesBefore(event: StoredJobEvent): Partial<JobFields> | null {
  switch (event.type) {
    case 'JobUpdated': {
      const values: Record<string, unknown> = {};
      for (const change of event.data.changes) values[change.field] = change.oldValue;
      return values as Partial<JobFields>;
    }
    case 'JobStageChanged':
      return { stage: event.data.from };
    case 'JobRescheduled':
      return { appointment: event.data.from, duration: event.data.fromDuration };
    case 'JobCanceled':
      return { stage: event.data.previousStage };
    case 'JobReopened':
      return { stage: CANCELED_STAGE };
    case 'JobCreated':
    case 'JobDeleted':
    case 'JobRestored':
      return null;
    default:
      return assertNever(event, 'event');
  }
}

/**
 * Sets back what one change of the job set (the caller checked that it may be reverted, on
 * the stream read at `revision`). The save expects that revision, so a change racing the
 * revert makes it a 409 instead of being undone unseen.
 */
export async function revertJobChange(
  deps: AppDeps,
  target: JobTarget,
  event: StoredJobEvent,
  ctx: InstanceContext,
  revision: number | undefined,
): Promise<CommandResult<JobState, JobEvent>> {
  const before = jobValuesBefore(event);
  if (!before) throw new ConflictError(RECORD_MESSAGES.notRevertible);
  const result = await updateJob(deps, target, before, ctx, revision, event.id);
  if (result.events.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
  return result;
}

/** A deleted job back (its number again, or the next one when another job took it); waits for the projection. */
export async function restoreDeletedJob(deps: AppDeps, jobId: string, ctx: InstanceContext): Promise<RestoredView> {
  if (!isUuid(jobId)) throw new NotFoundError(JOB_MESSAGES.notFound);
  const id = jobId.toLowerCase();
  const outcome = await restoreJob(deps, { instanceId: ctx.instanceId, jobId: id }, ctx);
  await settle(deps, outcome.appended);
  return { restored: true, kind: 'job', id, jobsRestored: 0, vehiclesRestored: 0, vinsNotRestored: [] };
}
