import { CANCELED_STAGE, JOB_MESSAGES, type JobView } from '@crm/projections/pipeline';
import { fieldsOfRow, type JobRow } from '@crm/projections/pipeline/job-rows';
import type { AppendResult, StreamAppend } from '@crm/projections/eventstore/port';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { executeCommand, type CommandResult, type InstanceContext, type LoadedStream } from '../shared/commands.ts';
import { AppError, ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
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
 *
 * `known`: the row this process last wrote or read for the job is taken without a read (no
 * round trip) when it is of the target's instance and, with If-Match, at the revision
 * expected. The same guard holds it, since a row is a function of its stream's events up to
 * its revision (a rebuild writes the same row): one that another process has moved on since
 * only makes the append fail, nothing recorded, and the retry read the stream; a refusal
 * decided on it is decided again on the row as stored (mayBeStale).
 */
export async function jobFromRow(
  deps: JobDeps,
  target: JobTarget,
  options: { expectedRevision?: number | undefined; known?: boolean } = {},
): Promise<LoadedStream<JobState> | null> {
  if (!deps.store.projectsInline || !deps.knex) return null;
  const rows = knownRows(deps);
  const known = options.known ? rows.get(target.jobId.toLowerCase()) : undefined;
  const usable =
    known &&
    known.instance_id === target.instanceId &&
    (options.expectedRevision === undefined || known.revision === options.expectedRevision);
  const row = usable ? known : await findJobRow(deps.knex, target);
  if (!row) return null;
  rows.remember(row);
  const loaded = jobStateOfRow(row);
  if (usable) fromKnownRow.add(loaded);
  return loaded;
}

/** States decided on a row this process knew (jobFromRow), not one it read. */
const fromKnownRow = new WeakSet<LoadedStream<JobState>>();

/**
 * Whether a refusal of a decision on `loaded` may be the known row's doing: a row another
 * process moved on since can fail a check the job as it is passes. Such a decision is taken
 * again on the row as stored; a refusal is only an AppError (nothing was recorded).
 */
export function mayBeStale(deps: JobDeps, target: JobTarget, loaded: LoadedStream<JobState>, error: unknown): boolean {
  return error instanceof AppError && decidedOnKnownRow(deps, target, loaded);
}

/**
 * Whether `loaded` is a row this process knew (not one it read): a decision on it that
 * recorded nothing or was refused may be that row's doing, and is taken again on the row as
 * stored. The row is forgotten, so that decision reads it.
 */
export function decidedOnKnownRow(deps: JobDeps, target: JobTarget, loaded: LoadedStream<JobState>): boolean {
  if (!fromKnownRow.has(loaded)) return false;
  knownRows(deps).forget(target.jobId);
  return true;
}

function jobStateOfRow(row: JobRow): LoadedStream<JobState> {
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

/** Rows kept per process at most (about a kilobyte each), the least recently used leaving first. */
const KNOWN_ROWS = 2000;

/** The jobs rows this process last wrote or read, by job id (jobFromRow), per event store (one database). */
class KnownRows {
  private readonly rows = new Map<string, JobRow>();

  get(jobId: string): JobRow | undefined {
    return this.rows.get(jobId);
  }

  remember(row: JobRow): void {
    this.rows.delete(row.id);
    this.rows.set(row.id, row);
    if (this.rows.size > KNOWN_ROWS) this.rows.delete(this.rows.keys().next().value!);
  }

  forget(jobId: string): void {
    this.rows.delete(jobId.toLowerCase());
  }
}

const knownRowsByStore = new WeakMap<object, KnownRows>();

function knownRows(deps: JobDeps): KnownRows {
  let rows = knownRowsByStore.get(deps.store);
  if (!rows) knownRowsByStore.set(deps.store, (rows = new KnownRows()));
  return rows;
}

/** What a command left of the job's row: the row its append wrote, or nothing known (a deleted job, a replay). */
function rememberWritten(deps: JobDeps, target: JobTarget, appended: AppendResult | null): void {
  if (!appended) return;
  const written = writtenRow(target, appended);
  if (written) knownRows(deps).remember(written);
  else knownRows(deps).forget(target.jobId);
}

function writtenRow(target: JobTarget, appended: AppendResult | null): JobRow | undefined {
  return appended?.written?.jobs?.find((row) => row.id === target.jobId.toLowerCase()) as JobRow | undefined;
}

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
      recorded: (result) => rememberWritten(deps, target, result.appended),
    });
  } catch (error) {
    // A row known here may be what made it fail (another process moved the job on).
    knownRows(deps).forget(target.jobId);
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
  const written = writtenRow(target, result.appended);
  if (written) {
    // A create's row (an update's was remembered in its stream's turn, runJobCommand).
    knownRows(deps).remember(written);
    return jobViewOfRow(written);
  }
  await settle(deps, result.appended);
  const row = await findJob(deps.knex, target);
  if (row && (result.revision === null || row.revision >= result.revision)) return row;
  const folded = await jobAsOf(deps.store, target, null);
  if (!folded) throw new NotFoundError(JOB_MESSAGES.notFound);
  return folded;
}
