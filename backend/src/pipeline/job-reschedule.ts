import type { AppDeps } from '../deps.ts';
import type { CommandResult, InstanceContext } from '../shared/commands.ts';
import type { JobEvent, JobState } from './job-decider.ts';
import type { JobTarget } from './job-queries.ts';
import { runJobCommand } from './job-state.ts';

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
 * as it is now, so the calendar can put the block back where the job really is.
 */
export async function rescheduleJob(
  deps: Pick<AppDeps, 'store' | 'knex'>,
  target: JobTarget,
  input: RescheduleInput,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<CommandResult<JobState, JobEvent>> {
  return await runJobCommand(deps, target, { type: 'RescheduleJob', instanceId: target.instanceId, ...input }, ctx, expectedRevision);
}
