import { JOB_MESSAGES } from '@crm/projections/pipeline';
import type { AppDeps } from '../deps.ts';
import { executeCommand, type CommandResult, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { jobDecider, jobStream, type JobEvent, type JobState } from './job-decider.ts';
import type { JobTarget } from './job-queries.ts';
import { currentJob, jobFromRow } from './job-service.ts';

/** Where the calendar puts a job: its start, its length (left out: as it was) and its technician's lane (left out: as it was). */
export interface RescheduleInput {
  appointment: string;
  duration?: number | null;
  tech?: string;
}

/**
 * The calendar moves, resizes or re-lanes a job: a JobRescheduled (and a JobUpdated of the
 * technician for a lane change), decided on the job's row (or its stream, see jobFromRow).
 * With `expectedRevision` (If-Match) a move of a stale copy is a 409 that carries the job
 * as it is now, so the calendar can put the block back where the job really is; the command
 * has no conflict of its own, so any conflict under If-Match is that.
 */
export async function rescheduleJob(
  deps: Pick<AppDeps, 'store' | 'knex'>,
  target: JobTarget,
  input: RescheduleInput,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<CommandResult<JobState, JobEvent>> {
  try {
    return await executeCommand({
      store: deps.store,
      streamId: jobStream(target.jobId),
      decider: jobDecider,
      command: { type: 'RescheduleJob', instanceId: target.instanceId, ...input },
      ctx,
      expectedRevision,
      load: () => jobFromRow(deps, target),
    });
  } catch (error) {
    if (expectedRevision === undefined || !(error instanceof ConflictError)) throw error;
    const current = await currentJob(deps, target);
    if (!current) throw new NotFoundError(JOB_MESSAGES.notFound);
    throw new StaleRecordError('job', current);
  }
}
