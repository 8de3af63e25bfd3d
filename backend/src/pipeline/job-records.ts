import type { StoredDomainEvent } from '@crm/projections/events';
import {
  CANCELED_STAGE,
  isJobStreamEvent,
  JOB_FIELD_LABELS,
  JOB_MESSAGES,
  jobEventChanges,
  type JobFields,
  type JobStreamEvent,
} from '@crm/projections/pipeline';
import { RECORD_MESSAGES, type Reverter, type RestoredView } from '@crm/projections/records';
import { assertNever, isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { loadAggregate, type CommandResult, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { assertMayRevert, assertNoLaterChange } from '../shared/reverts.ts';
import { jobDecider, jobStream, type JobEvent, type JobState } from './job-decider.ts';
import { jobAsOf, type JobTarget } from './job-queries.ts';
import { updateJob } from './job-commands.ts';
import { restoreJob } from './job-restore.ts';

/**
 * Undo from a job's history and the restore of a deleted job. A revert is a compensating
 * change that sets the fields one change set back to what they were before it, recorded as
 * an ordinary change of those fields that names the change it undoes (`revertOf`).
 */

type StoredJobEvent = StoredDomainEvent & JobStreamEvent;

/** The record fields one job event set (a creation, deletion or restore sets none that can be undone). */
function jobFieldsSetBy(event: StoredJobEvent): string[] {
  if (event.type === 'JobCreated' || event.type === 'JobDeleted' || event.type === 'JobRestored') return [];
  return jobEventChanges(event).map((change) => change.field);
}

/** What the fields were before the change, in the record's terms; null for what is no change of fields. */
function jobValuesBefore(event: StoredJobEvent): Partial<JobFields> | null {
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
 * Reverts one change of a job. `expectedRevision` (If-Match): the revision the history was
 * read at; without it, the revision read here guards the append, so a change racing the
 * revert makes it a 409 instead of being undone unseen.
 */
export async function revertJobChange(
  deps: AppDeps,
  target: JobTarget,
  eventId: string,
  reader: Reverter,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<CommandResult<JobState, JobEvent>> {
  if (!isUuid(target.jobId)) throw new NotFoundError(JOB_MESSAGES.notFound);
  const loaded = await loadAggregate(deps.store, jobStream(target.jobId), jobDecider);
  const state = loaded.state;
  if ((state.status !== 'open' && state.status !== 'canceled') || state.instanceId !== target.instanceId) {
    throw new NotFoundError(JOB_MESSAGES.notFound);
  }
  if (expectedRevision !== undefined && loaded.revision !== expectedRevision) {
    throw new StaleRecordError('job', await jobAsOf(deps.store, target, null));
  }
  const events = loaded.events.filter((event): event is StoredJobEvent => isJobStreamEvent(event));
  const index = events.findIndex((event) => event.id === eventId);
  if (index < 0) throw new NotFoundError(RECORD_MESSAGES.changeNotFound);
  const event = events[index]!;
  const before = jobValuesBefore(event);
  if (!before) throw new ConflictError(RECORD_MESSAGES.notRevertible);
  assertMayRevert(reader, event, deps.now());
  assertNoLaterChange(
    events.slice(index + 1),
    jobFieldsSetBy(event),
    jobFieldsSetBy,
    (field) => JOB_FIELD_LABELS[field as keyof JobFields],
  );
  const result = await updateJob(deps, target, before, ctx, loaded.revision ?? undefined, event.id);
  if (result.events.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
  return result;
}

/** A deleted job back (its number again, or the next one when another job took it); waits for the projection. */
export async function restoreDeletedJob(deps: AppDeps, jobId: string, ctx: InstanceContext): Promise<RestoredView> {
  if (!isUuid(jobId)) throw new NotFoundError(JOB_MESSAGES.notFound);
  const id = jobId.toLowerCase();
  const outcome = await restoreJob(deps, { instanceId: ctx.instanceId, jobId: id }, ctx);
  await settle(deps, outcome.appended);
  return { restored: true, kind: 'job', id, jobsRestored: 0 };
}
