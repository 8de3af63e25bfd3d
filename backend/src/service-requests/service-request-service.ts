import { createHash, randomUUID } from 'node:crypto';
import { readableEvents, unshowableEntry } from '@crm/projections/events';
import { WrongExpectedVersionError, type EventStore, type RecordedEvent } from '@crm/projections/eventstore/port';
import {
  EMPTY_JOB_FIELDS,
  isBlankJob,
  isStorableAppointment,
  JOB_MESSAGES,
  startOfDayInZone,
  type JobFields,
} from '@crm/projections/pipeline';
import {
  serviceRequestChangesInput,
  SERVICE_REQUEST_MESSAGES,
  type ServiceRequestFields,
  type ServiceRequestHistoryEntry,
  type ServiceRequestSource,
  type ServiceRequestView,
} from '@crm/projections/service-requests';
import { isEmailAddress, isUuid, phoneDigits } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { parseInput } from '../http/validation.ts';
import { createJob, jobAsOf } from '../pipeline/index.ts';
import { executeCommand, toNewEvents, type CommandResult, type InstanceContext } from '../shared/commands.ts';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { NumberAllocator, NumberExhaustedError } from '../shared/number-allocator.ts';
import {
  serviceRequestDecider,
  serviceRequestNumberStream,
  serviceRequestStream,
  type ServiceRequestCommand,
  type ServiceRequestEvent,
  type ServiceRequestState,
} from './service-request-decider.ts';
import {
  foldServiceRequest,
  instanceOfServiceRequest,
  serviceRequestEventsOf,
  serviceRequestHistory,
  type ServiceRequestStoredEvent,
} from './service-request-history.ts';
import { findServiceRequest, highestServiceRequestNumber } from './service-request-queries.ts';

// ---- numbers ------------------------------------------------------------------------

/** One allocator per event store (per API process; tests run several servers in one process). */
const allocators = new WeakMap<EventStore, NumberAllocator>();

/** The next free per-instance number, taken by a reservation stream appended with `no_stream` (see NumberAllocator). */
async function reserveNumber(deps: AppDeps, instanceId: string, serviceRequestId: string, ctx: InstanceContext): Promise<number> {
  let allocator = allocators.get(deps.store);
  if (!allocator) {
    allocator = new NumberAllocator({ highest: (id) => highestServiceRequestNumber(deps.knex, id) });
    allocators.set(deps.store, allocator);
  }
  try {
    return await allocator.allocate(instanceId, async (number) => {
      try {
        await deps.store.append(
          serviceRequestNumberStream(instanceId, number),
          toNewEvents([{ type: 'ServiceRequestNumberReserved', data: { instanceId, number, serviceRequestId } }], ctx),
          { expectedRevision: 'no_stream' },
        );
        return true;
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) return false;
        throw error;
      }
    });
  } catch (error) {
    if (error instanceof NumberExhaustedError)
      throw new AppError('unavailable', 'Could not assign a service request number. Please try again.');
    throw error;
  }
}

// ---- commands -----------------------------------------------------------------------

function staleConflict(current: ServiceRequestView): ConflictError {
  return new ConflictError('This service request was changed by someone else. Reload it and try again.', { current });
}

/**
 * Load, decide, append. `expectedRevision` (If-Match): the revision the caller saw; a
 * request that has moved on since is a 409 carrying it as it is now.
 */
async function runCommand(
  deps: AppDeps,
  serviceRequestId: string,
  command: ServiceRequestCommand,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<CommandResult<ServiceRequestState, ServiceRequestEvent>> {
  try {
    return await executeCommand({
      store: deps.store,
      streamId: serviceRequestStream(serviceRequestId),
      decider: serviceRequestDecider,
      command,
      ctx,
      expectedRevision,
    });
  } catch (error) {
    if (expectedRevision !== undefined && error instanceof ConflictError) {
      const current = foldServiceRequest(await streamOf(deps.store, ctx.instanceId, serviceRequestId));
      if (!current) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.notFound);
      if (current.revision !== expectedRevision) throw staleConflict(current);
    }
    throw error;
  }
}

/** Records a new request (fields already validated) with the next number, and answers with it as projected. */
export async function submitServiceRequest(
  deps: AppDeps,
  fields: ServiceRequestFields,
  source: ServiceRequestSource,
  ctx: InstanceContext,
): Promise<ServiceRequestView> {
  const serviceRequestId = randomUUID();
  const number = await reserveNumber(deps, ctx.instanceId, serviceRequestId, ctx);
  const result = await executeCommand({
    store: deps.store,
    streamId: serviceRequestStream(serviceRequestId),
    decider: serviceRequestDecider,
    command: { type: 'SubmitServiceRequest', serviceRequestId, instanceId: ctx.instanceId, number, source, fields },
    ctx,
    newStream: true,
  });
  return await projected(deps, ctx.instanceId, serviceRequestId, result);
}

/** Changes the fields given (others stay); If-Match makes a save on a stale copy a 409. */
export async function updateServiceRequest(
  deps: AppDeps,
  serviceRequestId: string,
  input: unknown,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<ServiceRequestView> {
  const changes = parseInput(serviceRequestChangesInput, input);
  if (!isUuid(serviceRequestId)) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.notFound);
  const result = await runCommand(
    deps,
    serviceRequestId,
    { type: 'UpdateServiceRequest', instanceId: ctx.instanceId, changes },
    ctx,
    expectedRevision,
  );
  return await projected(deps, ctx.instanceId, serviceRequestId, result);
}

/** Archives the request (kept, with its history; no longer edited). Archiving again changes nothing. */
export async function archiveServiceRequest(
  deps: AppDeps,
  serviceRequestId: string,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<ServiceRequestView> {
  if (!isUuid(serviceRequestId)) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.notFound);
  const result = await runCommand(
    deps,
    serviceRequestId,
    { type: 'ArchiveServiceRequest', instanceId: ctx.instanceId },
    ctx,
    expectedRevision,
  );
  return await projected(deps, ctx.instanceId, serviceRequestId, result);
}

/**
 * The job a request becomes has an id derived from the request's: a conversion that was cut
 * short after creating the job (or two clicks racing) finds that job again instead of
 * making a second one.
 */
export function jobIdForServiceRequest(serviceRequestId: string): string {
  const hex = createHash('sha256').update(`service-request-job:${serviceRequestId.toLowerCase()}`).digest('hex');
  // Shaped as a name-based UUID (version 5, RFC 4122 variant) so every id check accepts it.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Converts an open request into a job (the entry dialog's fields) and links them: the job
 * is created through the pipeline, then ServiceRequestConvertedToJob records its id and
 * number on the request. Idempotent: a request already converted answers with its job,
 * whatever fields are sent again; a retry after an interruption finds the job it made.
 */
export async function convertServiceRequest(
  deps: AppDeps,
  serviceRequestId: string,
  changes: Partial<JobFields>,
  ctx: InstanceContext,
  timeZone: string,
): Promise<{ serviceRequest: ServiceRequestView; created: boolean }> {
  const events = await streamOf(deps.store, ctx.instanceId, serviceRequestId);
  const current = foldServiceRequest(events);
  if (!current) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.notFound);
  if (current.jobId) return { serviceRequest: current, created: false };
  if (current.status === 'archived') throw new ConflictError(SERVICE_REQUEST_MESSAGES.archived);
  const job = jobFromRequest(current, changes, timeZone);

  const jobId = jobIdForServiceRequest(current.id);
  const target = { instanceId: ctx.instanceId, jobId };
  let made = await jobAsOf(deps.store, target, null);
  if (!made) {
    try {
      const { appended } = await createJob(
        deps,
        job,
        { ...ctx, causationId: events[0]?.id ?? null },
        // The customer it makes keeps the request's email (when a customer's email rule takes it).
        { jobId, newCustomer: { email: isEmailAddress(current.contactEmail) ? current.contactEmail : '' } },
      );
      await settle(deps, appended);
    } catch (error) {
      // A concurrent conversion may have created it first: that job is this request's job.
      made = await jobAsOf(deps.store, target, null);
      if (!made) throw error;
    }
    made ??= await jobAsOf(deps.store, target, null);
    if (!made) throw new ConflictError('The job could not be created. Please try again.');
  }
  const result = await runCommand(
    deps,
    current.id,
    { type: 'RecordConversion', instanceId: ctx.instanceId, jobId, jobNumber: made.jobNumber },
    ctx,
  );
  // `created`: this call recorded the conversion (of two racing calls, exactly one does).
  return { serviceRequest: await projected(deps, ctx.instanceId, current.id, result), created: result.events.length > 0 };
}

/** The number a request is shown by. */
const requestLabel = (request: ServiceRequestView) => `SR-${request.number}`;

/**
 * The job a request becomes: the fields sent, and the request's own for every field left
 * out (a conversion with no body takes them all): its name, its vehicle, its service as the
 * part, its wanted date at 9:00 in the shop's zone, and notes naming the request with its
 * email and notes. The email also goes onto the customer the job makes (see createJob).
 */
export function jobFromRequest(request: ServiceRequestView, changes: Partial<JobFields>, timeZone: string): JobFields {
  const wanted = request.scheduledDate ? startOfDayInZone(request.scheduledDate, timeZone).getTime() + 9 * 3_600_000 : null;
  const defaults: Partial<JobFields> = {
    name: request.customerName,
    // The phone to call back on goes onto the job (and so onto the customer it makes).
    phone: phoneDigits(request.contactPhone),
    makeModel: request.vehicleType,
    part: request.serviceType,
    appointment: wanted !== null && isStorableAppointment(wanted) ? new Date(wanted).toISOString() : null,
    notes: [
      `From service request ${requestLabel(request)}`,
      request.contactEmail ? `Email: ${request.contactEmail}` : '',
      request.additionalNotes,
    ]
      .filter(Boolean)
      .join('\n'),
  };
  const job: JobFields = { ...EMPTY_JOB_FIELDS, ...defaults, ...changes };
  if (isBlankJob(job))
    throw new ValidationError(JOB_MESSAGES.atLeastOne, { errors: [{ field: 'name', message: JOB_MESSAGES.atLeastOne }] });
  return job;
}

// ---- reads --------------------------------------------------------------------------

/** Read-your-writes: the request as the read model has it once the projector passed the command, or folded from its stream. */
async function projected(
  deps: AppDeps,
  instanceId: string,
  serviceRequestId: string,
  result: CommandResult<ServiceRequestState, ServiceRequestEvent>,
): Promise<ServiceRequestView> {
  await settle(deps, result.appended);
  const row = await findServiceRequest(deps.knex, instanceId, serviceRequestId);
  if (row && (result.revision === null || row.revision >= result.revision)) return row;
  const folded = foldServiceRequest(
    result.stream ? serviceRequestEventsOf(result.stream) : await streamOf(deps.store, instanceId, serviceRequestId),
  );
  if (!folded) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.notFound);
  return folded;
}

/** The request's events, when it is a request of this instance; otherwise none. */
async function streamOf(store: EventStore, instanceId: string, serviceRequestId: string): Promise<ServiceRequestStoredEvent[]> {
  return (await readRequestStream(store, instanceId, serviceRequestId)).events;
}

/** The request's events that pass their schemas, and those that do not (for the history). */
async function readRequestStream(
  store: EventStore,
  instanceId: string,
  serviceRequestId: string,
): Promise<{ events: ServiceRequestStoredEvent[]; unreadable: RecordedEvent[] }> {
  if (!isUuid(serviceRequestId)) return { events: [], unreadable: [] };
  const recorded = await store.readStream(serviceRequestStream(serviceRequestId.toLowerCase()));
  const { events: readable, unreadable } = readableEvents(recorded);
  const events = serviceRequestEventsOf(readable);
  return instanceOfServiceRequest(events) === instanceId ? { events, unreadable } : { events: [], unreadable: [] };
}

export async function getServiceRequest(deps: AppDeps, instanceId: string, serviceRequestId: string): Promise<ServiceRequestView> {
  const request = await findServiceRequest(deps.knex, instanceId, serviceRequestId);
  if (!request) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.notFound);
  return request;
}

/** Every change, newest first. */
export async function getServiceRequestHistory(
  deps: AppDeps,
  instanceId: string,
  serviceRequestId: string,
): Promise<ServiceRequestHistoryEntry[]> {
  const { events, unreadable } = await readRequestStream(deps.store, instanceId, serviceRequestId);
  if (events.length === 0) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.notFound);
  // A change whose event fails its schema is listed where it happened, without its values.
  const revisionOf = new Map(events.map((event) => [event.id, event.revision]));
  const rows = serviceRequestHistory(events).map((entry) => ({ entry, revision: revisionOf.get(entry.id) ?? 0 }));
  for (const event of unreadable) {
    const { id, action, userDisplayName, timestamp, revision } = unshowableEntry(event);
    rows.push({ entry: { id, action, userDisplayName, timestamp, changes: [] }, revision });
  }
  return rows.sort((a, b) => b.revision - a.revision).map(({ entry }) => entry);
}
