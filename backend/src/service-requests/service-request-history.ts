import type { StoredDomainEvent } from '@crm/projections/events';
import { SERVICE_REQUEST_FIELDS, type ServiceRequestHistoryEntry, type ServiceRequestView } from '@crm/projections/service-requests';
import { serviceRequestDecider, type ServiceRequestEvent, type ServiceRequestState } from './service-request-decider.ts';

/**
 * History comes from the request's own stream (a handful of events), so it needs no read
 * model; the same fold answers when the projector trails a command.
 */
export type ServiceRequestStoredEvent = Extract<StoredDomainEvent, { type: ServiceRequestEvent['type'] }>;

const TYPES = new Set<string>([
  'ServiceRequestSubmitted',
  'ServiceRequestUpdated',
  'ServiceRequestConvertedToJob',
  'ServiceRequestArchived',
]);

export function serviceRequestEventsOf(events: StoredDomainEvent[]): ServiceRequestStoredEvent[] {
  return events.filter((e): e is ServiceRequestStoredEvent => TYPES.has(e.type));
}

/** The instance a request stream belongs to (from its submission), or null for no request. */
export function instanceOfServiceRequest(events: ServiceRequestStoredEvent[]): string | null {
  const submitted = events.find((e) => e.type === 'ServiceRequestSubmitted');
  return submitted?.type === 'ServiceRequestSubmitted' ? submitted.data.instanceId : null;
}

/** Each change with its values, newest first. */
export function serviceRequestHistory(events: ServiceRequestStoredEvent[]): ServiceRequestHistoryEntry[] {
  let status = 'open';
  return events
    .map((event): ServiceRequestHistoryEntry => {
      const base = { id: event.id, userDisplayName: event.metadata.actor.displayName, timestamp: event.recordedAt.toISOString() };
      switch (event.type) {
        case 'ServiceRequestSubmitted':
          return {
            ...base,
            action: 'submitted',
            changes: SERVICE_REQUEST_FIELDS.filter((field) => event.data[field] !== '').map((field) => ({
              field,
              oldValue: null,
              newValue: event.data[field],
            })),
          };
        case 'ServiceRequestUpdated':
          return {
            ...base,
            action: 'updated',
            changes: event.data.changes.map(({ field, oldValue, newValue }) => ({ field, oldValue, newValue })),
          };
        case 'ServiceRequestConvertedToJob':
          status = 'converted';
          return {
            ...base,
            action: 'converted',
            changes: [
              { field: 'status', oldValue: 'open', newValue: 'converted' },
              { field: 'job', oldValue: null, newValue: `#${event.data.jobNumber}` },
            ],
          };
        case 'ServiceRequestArchived': {
          const before = status;
          status = 'archived';
          return { ...base, action: 'archived', changes: [{ field: 'status', oldValue: before, newValue: 'archived' }] };
        }
      }
    })
    .reverse();
}

/** The request as it stood after these events; null when there is none. Times are the recorded ones, as the read model has them. */
export function foldServiceRequest(events: ServiceRequestStoredEvent[]): ServiceRequestView | null {
  const state = events.reduce<ServiceRequestState>(
    (s, e) => serviceRequestDecider.evolve(s, e as ServiceRequestEvent),
    serviceRequestDecider.initialState,
  );
  const submitted = events.find((e) => e.type === 'ServiceRequestSubmitted');
  const last = events[events.length - 1];
  if (state.status === 'empty' || !submitted || !last) return null;
  return {
    id: state.serviceRequestId,
    number: state.number,
    ...state.fields,
    status: state.status,
    source: state.source,
    jobId: state.job?.jobId ?? null,
    jobNumber: state.job?.jobNumber ?? null,
    createdAt: submitted.recordedAt.toISOString(),
    createdBy: submitted.metadata.actor.displayName,
    lastModifiedAt: last.recordedAt.toISOString(),
    lastModifiedBy: last.metadata.actor.displayName,
    revision: last.revision,
  };
}
