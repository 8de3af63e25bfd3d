import { CANCELED_STAGE, JOB_MESSAGES, type JobView } from '@crm/projections/pipeline';
import { fieldsOfRow, type JobRow } from '@crm/projections/pipeline/job-rows';
import type { AppendResult, StreamAppend } from '@crm/projections/eventstore/port';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { executeCommand, type CommandResult, type InstanceContext, type LoadedStream } from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { jobDecider, jobStream, type JobCommand, type JobEvent, type JobState } from './job-decider.ts';
import { findJob, findJobRow, jobAsOf, jobViewOfRow, type JobTarget } from './job-queries.ts';

/**
 * A job command's state and answer: the decider's state read from the job's row, one job
 * command decided and appended on it (with the If-Match conflict answered with the job as
 * it is now), and the job as the command stored it.
 */

/**
 * A conflict under If-Match: when the job has moved past `expectedRevision`, the caller's
 * copy is stale and gets the job as it is now, to merge or reload; otherwise the conflict
 * is the job's own (e.g. reopening an open job) and stays as it was.
 */
export async function staleConflict(deps: JobDeps, target: JobTarget, expectedRevision: number, ownConflict?: Error): Promise<Error> {
  const current = await currentJob(deps, target);
  if (!current) return new NotFoundError(JOB_MESSAGES.notFound);
  return ownConflict && current.revision === expectedRevision ? ownConflict : new StaleRecordError('job', current);
}

/** Without `knex` (no read model to read: some callers) the job is folded from its stream. */
export type JobDeps = Pick<AppDeps, 'store'> & Partial<Pick<AppDeps, 'knex'>>;

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
