import { CUSTOMER_MESSAGES, type CustomerChanges, type CustomerView } from '@crm/projections/customers';
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
import { laterChangeMessage, mayRevert, RECORD_MESSAGES, type Reverter } from '@crm/projections/records';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { customerDecider, customerStream } from '../customers/customer-decider.ts';
import { customerEventsOf, foldCustomer, instanceOfCustomer } from '../customers/customer-history.ts';
import { findCustomer } from '../customers/customer-queries.ts';
import { jobDecider, jobStream } from '../pipeline/job-decider.ts';
import { jobAsOf, type JobTarget } from '../pipeline/job-queries.ts';
import { updateJob } from '../pipeline/job-service.ts';
import { executeCommand, loadAggregate, type CommandResult, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, ForbiddenError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import type { JobEvent, JobState } from '../pipeline/job-decider.ts';

/**
 * Undo from history: a revert is a compensating change that sets the fields one change set
 * back to what they were before it, recorded as an ordinary change of those fields that
 * names the change it undoes (`revertOf`). It is refused when a later change set any of
 * those fields again (undoing it would silently drop that later change), and allowed to an
 * admin for any change, to a user who may write for their own changes of the last 24 hours.
 */

type StoredJobEvent = StoredDomainEvent & JobStreamEvent;

/** 'pastAppointments' → 'Past appointments': a customer field in words. */
const customerFieldLabel = (field: string) => {
  const words = field.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const at = (event: StoredDomainEvent) => `${event.recordedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The record fields one job event set (a creation, deletion or restore sets none that can be undone). */
function jobFieldsSetBy(event: StoredJobEvent): string[] {
  if (event.type === 'JobCreated' || event.type === 'JobDeleted' || event.type === 'JobRestored') return [];
  return jobEventChanges(event).map((change) => change.field);
}

/** What the fields were before the change, in the record's terms. */
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
    default:
      return null;
  }
}

/** Refuses what the reader may not revert: not theirs (and not an admin), or too old. */
function assertMayRevert(reader: Reverter, event: StoredDomainEvent, now: Date): void {
  if (!mayRevert(reader, { actorId: event.metadata.actor.id, recordedAt: event.recordedAt }, now)) {
    throw new ForbiddenError(RECORD_MESSAGES.notYours);
  }
}

/**
 * A later event that set one of `fields` again refuses the revert, naming it; a later change
 * that a later revert undid does not count (undo the newest first, then the one before).
 */
function assertNoLaterChange<E extends StoredDomainEvent>(
  later: E[],
  fields: string[],
  fieldsOf: (event: E) => string[],
  label: (field: string) => string,
): void {
  // A later change undone by a later revert cancels out with it (an undo stack): neither stands in the way.
  const revertOf = (event: E) => (event.data as { revertOf?: string }).revertOf;
  const laterIds = new Set(later.map((event) => event.id));
  const undone = new Set(later.map(revertOf).filter((id): id is string => id !== undefined && laterIds.has(id)));
  for (const event of later) {
    if (undone.has(event.id) || undone.has(revertOf(event) ?? '')) continue;
    const overlap = fieldsOf(event).filter((field) => fields.includes(field));
    if (overlap.length > 0) throw new ConflictError(laterChangeMessage(overlap.map(label), event.metadata.actor.displayName, at(event)));
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

/** Reverts one change of a customer (see revertJobChange); answers with the customer after it. */
export async function revertCustomerChange(
  deps: AppDeps,
  customerId: string,
  eventId: string,
  reader: Reverter,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<CustomerView> {
  if (!isUuid(customerId)) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const loaded = await loadAggregate(deps.store, customerStream(customerId), customerDecider);
  const events = customerEventsOf(loaded.events);
  if (loaded.state.status !== 'active' || instanceOfCustomer(events) !== ctx.instanceId)
    throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  if (expectedRevision !== undefined && loaded.revision !== expectedRevision) {
    throw new StaleRecordError('customer', foldCustomer(events));
  }
  const index = events.findIndex((event) => event.id === eventId);
  if (index < 0) throw new NotFoundError(RECORD_MESSAGES.changeNotFound);
  const event = events[index]!;
  if (event.type !== 'CustomerUpdated') throw new ConflictError(RECORD_MESSAGES.notRevertible);
  assertMayRevert(reader, event, deps.now());
  const fieldsOf = (e: (typeof events)[number]) => (e.type === 'CustomerUpdated' ? e.data.changes.map((c) => c.field as string) : []);
  assertNoLaterChange(events.slice(index + 1), fieldsOf(event), fieldsOf, customerFieldLabel);
  const changes: CustomerChanges = {};
  for (const change of event.data.changes) changes[change.field] = change.oldValue;
  let result;
  try {
    result = await executeCommand({
      store: deps.store,
      streamId: customerStream(customerId),
      decider: customerDecider,
      command: { type: 'UpdateCustomer', instanceId: ctx.instanceId, changes, revertOf: event.id },
      ctx,
      expectedRevision: loaded.revision ?? undefined,
      loaded,
    });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const current = await loadAggregate(deps.store, customerStream(customerId), customerDecider);
    throw new StaleRecordError('customer', foldCustomer(customerEventsOf(current.events)));
  }
  if (result.events.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
  await settle(deps, result.appended);
  const projected = await findCustomer(deps.knex, ctx.instanceId, customerId);
  if (projected && (projected.revision ?? -1) >= (result.revision ?? 0)) return projected;
  // The projection trails by more than read-your-writes waits for: answer from the stream.
  const folded = foldCustomer(
    customerEventsOf(result.stream ?? (await loadAggregate(deps.store, customerStream(customerId), customerDecider)).events),
  );
  if (!folded) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  return folded;
}
