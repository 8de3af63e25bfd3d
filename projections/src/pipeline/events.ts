import { z } from 'zod';
import { JOB_FIELDS, type JobField, type JobFields } from './fields.ts';
import { CANCELED_STAGE, STAGES } from './stages.ts';
import { jobApiValue, type JobFieldChange, type JobHistoryAction } from './api.ts';

const stage = z.enum(STAGES);
const fieldValue = z.union([z.string(), z.number(), z.null()]);

/**
 * A job's fields as recorded (see JobFields): phone digits, quote in dollars (whole dollars
 * in events written before quotes carried cents, which read the same), appointment ISO.
 */
const jobFields = {
  jobNumber: z.string(),
  name: z.string(),
  phone: z.string(),
  part: z.string(),
  makeModel: z.string(),
  quote: z.number().nonnegative().nullable(),
  stage,
  vin: z.string(),
  csr: z.string(),
  // Free text in events: the job-type vocabulary may grow without old events failing to parse.
  jobType: z.string(),
  appointment: z.string().nullable(),
  duration: z.number().int().positive().nullable(),
  tech: z.string(),
  notes: z.string(),
  customerId: z.string().nullable(),
  // Jobs recorded before vehicles were records have none of these: they read as null.
  vehicleId: z.string().nullable().default(null),
  mileageIn: z.number().int().nonnegative().nullable().default(null),
  mileageOut: z.number().int().nonnegative().nullable().default(null),
};

/** Every job event after JobCreated names the job (number and name after the change), so the audit log reads in words without a lookup. */
const label = { jobId: z.string(), jobNumber: z.string(), name: z.string() };

/**
 * A change that undoes an earlier one from the history carries that event's id: it is an
 * ordinary change of the same fields (every read model applies it as such) that history
 * shows as the revert of that event.
 */
const revert = { revertOf: z.string().optional() };

/** Fields a JobUpdated carries; stage and the schedule have events of their own. */
export const JOB_UPDATE_FIELDS = JOB_FIELDS.filter(
  (field) => field !== 'stage' && field !== 'appointment' && field !== 'duration',
) as Exclude<(typeof JOB_FIELDS)[number], 'stage' | 'appointment' | 'duration'>[];

export const JOB_DELETE_REASONS = ['customer-deleted'] as const;

/**
 * Pipeline jobs (stream `job-{id}`), job-number reservations (stream
 * `jobnumber-{instanceId}-{lower-cased number}`) and the per-instance counter that hands
 * out numbers (stream `jobcounter-{instanceId}`). Who and when live in the metadata.
 */
export const jobEventSchemas = {
  /** The number is taken while this is its reservation stream's last event. */
  JobNumberReserved: z.object({ instanceId: z.string(), jobNumber: z.string(), jobId: z.string() }),
  /** Freed when its job is deleted (or could not be created). */
  JobNumberReleased: z.object({ instanceId: z.string(), jobNumber: z.string(), jobId: z.string() }),
  /** The counter moved on: `number` is handed out (and never again, even if the job is not created). */
  JobNumberAssigned: z.object({ instanceId: z.string(), number: z.number().int().positive() }),
  JobCreated: z.object({ jobId: z.string(), instanceId: z.string(), ...jobFields }),
  /** Only the fields that changed, with old and new values. */
  JobUpdated: z.object({
    ...label,
    changes: z.array(z.object({ field: z.enum(JOB_UPDATE_FIELDS), oldValue: fieldValue, newValue: fieldValue })).min(1),
    ...revert,
  }),
  JobStageChanged: z.object({ ...label, from: stage, to: stage, ...revert }),
  /** The appointment or its duration changed. */
  JobRescheduled: z.object({
    ...label,
    from: z.string().nullable(),
    to: z.string().nullable(),
    fromDuration: z.number().int().positive().nullable(),
    toDuration: z.number().int().positive().nullable(),
    ...revert,
  }),
  JobCanceled: z.object({ ...label, previousStage: stage, ...revert }),
  /** A canceled job back on the board, in `stage` (Quote; a revert of its cancellation: where it was). */
  JobReopened: z.object({ ...label, stage, ...revert }),
  /** `reason`: why, when it was not deleted for itself ('customer-deleted': its customer was). */
  JobDeleted: z.object({ ...label, reason: z.enum(JOB_DELETE_REASONS).optional() }),
  /**
   * A deleted job back, with its history, as it was when deleted (its number may be a new
   * one when another job took the old one meanwhile). `createdAt`/`createdBy`: its first
   * creation, which the restored record keeps. Restored with its customer (the causation
   * is then the CustomerRestored event), or on its own.
   */
  JobRestored: z.object({ jobId: z.string(), instanceId: z.string(), ...jobFields, createdAt: z.string(), createdBy: z.string() }),
};

// ---- a job's own stream: folding and describing its events ------------------------------

type JobEventSchemas = typeof jobEventSchemas;

/** Events of a `job-{id}` stream. */
export const JOB_STREAM_EVENT_TYPES = [
  'JobCreated',
  'JobUpdated',
  'JobStageChanged',
  'JobRescheduled',
  'JobCanceled',
  'JobReopened',
  'JobDeleted',
  'JobRestored',
] as const satisfies readonly (keyof JobEventSchemas)[];
export type JobStreamEventType = (typeof JOB_STREAM_EVENT_TYPES)[number];
export type JobStreamEvent = { [K in JobStreamEventType]: { type: K; data: z.infer<JobEventSchemas[K]> } }[JobStreamEventType];

export function isJobStreamEvent<E extends { type: string }>(event: E): event is E & JobStreamEvent {
  return (JOB_STREAM_EVENT_TYPES as readonly string[]).includes(event.type);
}

/**
 * A job's fields after one more of its events; null before JobCreated and after
 * JobDeleted. The decider, the read model and time travel all fold with this.
 */
export function applyJobEvent(fields: JobFields | null, event: JobStreamEvent): JobFields | null {
  if (event.type === 'JobCreated') {
    const { jobId: _jobId, instanceId: _instanceId, ...created } = event.data;
    return created;
  }
  if (event.type === 'JobRestored') return restoredFields(event.data);
  if (!fields) return null;
  switch (event.type) {
    case 'JobUpdated': {
      const next: Record<string, unknown> = { ...fields };
      for (const change of event.data.changes) next[change.field] = change.newValue;
      return next as unknown as JobFields;
    }
    case 'JobStageChanged':
      return { ...fields, stage: event.data.to };
    case 'JobRescheduled':
      return { ...fields, appointment: event.data.to, duration: event.data.toDuration };
    case 'JobCanceled':
      return { ...fields, stage: CANCELED_STAGE };
    case 'JobReopened':
      return { ...fields, stage: event.data.stage };
    case 'JobDeleted':
      return null;
  }
}

/** The fields a JobRestored brings back. */
export function restoredFields(data: z.infer<JobEventSchemas['JobRestored']>): JobFields {
  const { jobId: _jobId, instanceId: _instanceId, createdAt: _createdAt, createdBy: _createdBy, ...fields } = data;
  return fields;
}

export function jobHistoryAction(event: JobStreamEvent): JobHistoryAction {
  switch (event.type) {
    case 'JobCreated':
      return 'created';
    case 'JobUpdated':
      return 'updated';
    case 'JobStageChanged':
      return 'stage-changed';
    case 'JobRescheduled':
      return 'rescheduled';
    case 'JobCanceled':
      return 'canceled';
    case 'JobReopened':
      return 'reopened';
    case 'JobDeleted':
      return 'deleted';
    case 'JobRestored':
      return 'restored';
  }
}

const change = <F extends JobField>(field: F, oldValue: JobFields[F], newValue: JobFields[F]): JobFieldChange => ({
  field,
  oldValue: jobApiValue(field, oldValue),
  newValue: jobApiValue(field, newValue),
});

/**
 * What an event changed, field by field, in the API's representation (history rows and
 * the audit log). A creation lists every field it filled, with null as the old value.
 */
export function jobEventChanges(event: JobStreamEvent): JobFieldChange[] {
  switch (event.type) {
    case 'JobCreated': {
      const { jobId: _jobId, instanceId: _instanceId, ...fields } = event.data;
      return JOB_FIELDS.filter((field) => fields[field] !== null && fields[field] !== '').map((field) => ({
        field,
        oldValue: null,
        newValue: jobApiValue(field, fields[field]),
      }));
    }
    case 'JobUpdated':
      return event.data.changes.map((c) => ({
        field: c.field,
        oldValue: jobApiValue(c.field, c.oldValue as never),
        newValue: jobApiValue(c.field, c.newValue as never),
      }));
    case 'JobStageChanged':
      return [change('stage', event.data.from, event.data.to)];
    case 'JobRescheduled': {
      const changes: JobFieldChange[] = [];
      if (event.data.from !== event.data.to) changes.push(change('appointment', event.data.from, event.data.to));
      if (event.data.fromDuration !== event.data.toDuration)
        changes.push(change('duration', event.data.fromDuration, event.data.toDuration));
      return changes;
    }
    case 'JobCanceled':
      return [change('stage', event.data.previousStage, CANCELED_STAGE)];
    case 'JobReopened':
      return [change('stage', CANCELED_STAGE, event.data.stage)];
    case 'JobDeleted':
      return [];
    case 'JobRestored':
      return [];
  }
}
