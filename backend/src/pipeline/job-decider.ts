import type { DomainEventOf } from '@crm/projections/events';
import {
  applyJobEvent,
  CANCELED_STAGE,
  isJobStreamEvent,
  INITIAL_STAGE,
  isBlankJob,
  JOB_MESSAGES,
  JOB_UPDATE_FIELDS,
  type JobFields,
  type JobStreamEventType,
  type Stage,
} from '@crm/projections/pipeline';
import { RECORD_MESSAGES } from '@crm/projections/records';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, invalidField, NotFoundError } from '../shared/errors.ts';

export const jobStream = (jobId: string) => `job-${jobId}`;
/** Job numbers are unique per instance whatever their case. */
export const jobNumberStream = (instanceId: string, jobNumber: string) => `jobnumber-${instanceId}-${jobNumber.toLowerCase()}`;
/** Hands out the next per-instance number. */
export const jobCounterStream = (instanceId: string) => `jobcounter-${instanceId}`;

export type JobEvent = DomainEventOf<JobStreamEventType>;

interface JobIdentity {
  jobId: string;
  instanceId: string;
}

/** `canceled`: the terminal stage; only Reopen (or choosing a stage) brings it back on the board. */
export type JobState =
  | { status: 'empty' }
  | ({ status: 'open'; fields: JobFields } & JobIdentity)
  | ({ status: 'canceled'; fields: JobFields } & JobIdentity)
  /** `fields`: as it was deleted (what a restore brings back). */
  | ({ status: 'deleted'; jobNumber: string; fields: JobFields } & JobIdentity);

/** Every command names the instance it comes from: a job of another instance does not exist for it. */
export type JobCommand =
  | { type: 'CreateJob'; jobId: string; instanceId: string; fields: JobFields }
  /**
   * The entry as a form saves it: what is left out stays; only what differs is recorded. A
   * blank job number keeps the number. `revertOf`: the change this one undoes (a revert from
   * the history), carried by every event it records.
   */
  | { type: 'UpdateJob'; instanceId: string; changes: Partial<JobFields>; revertOf?: string }
  | { type: 'ChangeStage'; instanceId: string; stage: Stage }
  /**
   * The calendar's drag, resize or lane change: the block's start, its length (undefined:
   * as it was) and its technician (undefined: as it was).
   */
  | { type: 'RescheduleJob'; instanceId: string; appointment: string; duration?: number | null; tech?: string }
  | { type: 'CancelJob'; instanceId: string }
  | { type: 'ReopenJob'; instanceId: string }
  | { type: 'DeleteJob'; instanceId: string; reason?: 'customer-deleted' }
  /** A deleted job back as it was deleted, under `jobNumber` (its own, or a new one when another job took it). */
  | { type: 'RestoreJob'; instanceId: string; jobNumber: string; createdAt: string; createdBy: string };

type ExistingJob = Extract<JobState, { status: 'open' | 'canceled' }>;

function existing(state: JobState, instanceId: string): ExistingJob {
  if ((state.status !== 'open' && state.status !== 'canceled') || state.instanceId !== instanceId) {
    throw new NotFoundError(JOB_MESSAGES.notFound);
  }
  return state;
}

const labelOf = (job: ExistingJob, fields: JobFields = job.fields) => ({
  jobId: job.jobId,
  jobNumber: fields.jobNumber,
  name: fields.name,
});

/** Moving to Canceled is a cancellation (it remembers where the job was); any other move a stage change. */
function stageEvents(job: ExistingJob, to: Stage, fields: JobFields = job.fields): JobEvent[] {
  const from = job.fields.stage;
  if (from === to) return [];
  const label = labelOf(job, fields);
  if (to === CANCELED_STAGE) return [{ type: 'JobCanceled', data: { ...label, previousStage: from } }];
  return [{ type: 'JobStageChanged', data: { ...label, from, to } }];
}

export const jobDecider: Decider<JobState, JobCommand, JobEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    // The stream also holds the job's repair order (lines, estimate, invoice, payments): not the job's fields.
    if (!isJobStreamEvent(event)) return state;
    if (event.type === 'JobCreated') {
      const fields = applyJobEvent(null, event)!;
      return {
        status: fields.stage === CANCELED_STAGE ? 'canceled' : 'open',
        jobId: event.data.jobId,
        instanceId: event.data.instanceId,
        fields,
      };
    }
    if (event.type === 'JobRestored') {
      if (state.status !== 'deleted') return state;
      const fields = applyJobEvent(null, event)!;
      return { status: fields.stage === CANCELED_STAGE ? 'canceled' : 'open', jobId: state.jobId, instanceId: state.instanceId, fields };
    }
    if (state.status !== 'open' && state.status !== 'canceled') return state;
    const fields = applyJobEvent(state.fields, event);
    if (!fields)
      return {
        status: 'deleted',
        jobId: state.jobId,
        instanceId: state.instanceId,
        jobNumber: state.fields.jobNumber,
        fields: state.fields,
      };
    return { status: fields.stage === CANCELED_STAGE ? 'canceled' : 'open', jobId: state.jobId, instanceId: state.instanceId, fields };
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateJob': {
        if (state.status !== 'empty') throw new ConflictError('This job already exists');
        if (isBlankJob(command.fields)) throw invalidField('name', JOB_MESSAGES.atLeastOne);
        return [{ type: 'JobCreated', data: { jobId: command.jobId, instanceId: command.instanceId, ...command.fields } }];
      }
      case 'UpdateJob': {
        const job = existing(state, command.instanceId);
        const { jobNumber, ...rest } = command.changes;
        const next: JobFields = { ...job.fields, ...rest, ...(jobNumber ? { jobNumber } : {}) };
        if (isBlankJob(next)) throw invalidField('name', JOB_MESSAGES.atLeastOne);
        const label = labelOf(job, next);
        const events: JobEvent[] = [];
        const changes = JOB_UPDATE_FIELDS.filter((field) => next[field] !== job.fields[field]).map((field) => ({
          field,
          oldValue: job.fields[field],
          newValue: next[field],
        }));
        if (changes.length > 0) events.push({ type: 'JobUpdated', data: { ...label, changes } });
        if (next.appointment !== job.fields.appointment || next.duration !== job.fields.duration) {
          events.push({
            type: 'JobRescheduled',
            data: {
              ...label,
              from: job.fields.appointment,
              to: next.appointment,
              fromDuration: job.fields.duration,
              toDuration: next.duration,
            },
          });
        }
        events.push(...stageEvents(job, next.stage, next));
        const { revertOf } = command;
        return revertOf ? events.map((event) => ({ ...event, data: { ...event.data, revertOf } }) as JobEvent) : events;
      }
      case 'ChangeStage':
        return stageEvents(existing(state, command.instanceId), command.stage);
      case 'RescheduleJob': {
        const job = existing(state, command.instanceId);
        const label = labelOf(job);
        const duration = command.duration === undefined ? job.fields.duration : command.duration;
        const events: JobEvent[] = [];
        if (command.appointment !== job.fields.appointment || duration !== job.fields.duration) {
          events.push({
            type: 'JobRescheduled',
            data: {
              ...label,
              from: job.fields.appointment,
              to: command.appointment,
              fromDuration: job.fields.duration,
              toDuration: duration,
            },
          });
        }
        // A lane change is the technician's field like any other edit (history shows it as such).
        if (command.tech !== undefined && command.tech !== job.fields.tech) {
          events.push({
            type: 'JobUpdated',
            data: { ...label, changes: [{ field: 'tech', oldValue: job.fields.tech, newValue: command.tech }] },
          });
        }
        return events;
      }
      case 'CancelJob':
        return stageEvents(existing(state, command.instanceId), CANCELED_STAGE);
      case 'ReopenJob': {
        const job = existing(state, command.instanceId);
        if (job.status !== 'canceled') throw new ConflictError(JOB_MESSAGES.reopenOnlyCanceled);
        return [{ type: 'JobReopened', data: { ...labelOf(job), stage: INITIAL_STAGE } }];
      }
      case 'DeleteJob': {
        const job = existing(state, command.instanceId);
        return [{ type: 'JobDeleted', data: { ...labelOf(job), ...(command.reason ? { reason: command.reason } : {}) } }];
      }
      case 'RestoreJob': {
        if (state.status === 'empty' || state.instanceId !== command.instanceId) throw new NotFoundError(JOB_MESSAGES.notFound);
        if (state.status !== 'deleted') throw new ConflictError(RECORD_MESSAGES.notDeleted);
        const { jobId, instanceId } = state;
        const { jobNumber, createdAt, createdBy } = command;
        return [{ type: 'JobRestored', data: { jobId, instanceId, ...state.fields, jobNumber, createdAt, createdBy } }];
      }
    }
  },
};
