import type { DomainEventOf } from '@crm/projections/events';
import {
  isBlankServiceRequest,
  SERVICE_REQUEST_FIELDS,
  SERVICE_REQUEST_MESSAGES,
  type ServiceRequestChanges,
  type ServiceRequestFields,
  type ServiceRequestSource,
} from '@crm/projections/service-requests';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';

export const serviceRequestStream = (serviceRequestId: string) => `servicerequest-${serviceRequestId}`;
/** Reservation of a per-instance request number; numbers are never reused. */
export const serviceRequestNumberStream = (instanceId: string, number: number) => `servicerequestnumber-${instanceId}-${number}`;

export type ServiceRequestEvent = DomainEventOf<
  'ServiceRequestSubmitted' | 'ServiceRequestUpdated' | 'ServiceRequestConvertedToJob' | 'ServiceRequestArchived'
>;

interface Identity {
  serviceRequestId: string;
  instanceId: string;
  number: number;
  source: ServiceRequestSource;
}

export type ServiceRequestState =
  | { status: 'empty' }
  | ({
      status: 'open' | 'converted' | 'archived';
      fields: ServiceRequestFields;
      /** The job it became (kept when a converted request is archived). */
      job: { jobId: string; jobNumber: string } | null;
    } & Identity);

/** Every command after the submission names its instance: another instance's request is not found. */
export type ServiceRequestCommand =
  | {
      type: 'SubmitServiceRequest';
      serviceRequestId: string;
      instanceId: string;
      number: number;
      source: ServiceRequestSource;
      fields: ServiceRequestFields;
    }
  | { type: 'UpdateServiceRequest'; instanceId: string; changes: ServiceRequestChanges }
  | { type: 'RecordConversion'; instanceId: string; jobId: string; jobNumber: string }
  | { type: 'ArchiveServiceRequest'; instanceId: string };

type Existing = Extract<ServiceRequestState, { status: 'open' | 'converted' | 'archived' }>;

function existing(state: ServiceRequestState, instanceId: string): Existing {
  if (state.status === 'empty' || state.instanceId !== instanceId) throw new NotFoundError(SERVICE_REQUEST_MESSAGES.notFound);
  return state;
}

function notArchived(state: Existing): Existing {
  if (state.status === 'archived') throw new ConflictError(SERVICE_REQUEST_MESSAGES.archived);
  return state;
}

function atLeastOneField(): ValidationError {
  return new ValidationError(SERVICE_REQUEST_MESSAGES.atLeastOne, {
    errors: [{ field: 'customerName', message: SERVICE_REQUEST_MESSAGES.atLeastOne }],
  });
}

const label = (state: Existing, customerName = state.fields.customerName) => ({
  serviceRequestId: state.serviceRequestId,
  number: state.number,
  customerName,
});

export const serviceRequestDecider: Decider<ServiceRequestState, ServiceRequestCommand, ServiceRequestEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    switch (event.type) {
      case 'ServiceRequestSubmitted': {
        const { serviceRequestId, instanceId, number, source, ...fields } = event.data;
        return { status: 'open', serviceRequestId, instanceId, number, source, fields, job: null };
      }
      case 'ServiceRequestUpdated': {
        if (state.status === 'empty') return state;
        const fields = { ...state.fields };
        for (const change of event.data.changes) fields[change.field] = change.newValue;
        return { ...state, fields };
      }
      case 'ServiceRequestConvertedToJob':
        if (state.status === 'empty') return state;
        return { ...state, status: 'converted', job: { jobId: event.data.jobId, jobNumber: event.data.jobNumber } };
      case 'ServiceRequestArchived':
        if (state.status === 'empty') return state;
        return { ...state, status: 'archived' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'SubmitServiceRequest': {
        if (state.status !== 'empty') throw new ConflictError('This service request already exists');
        if (isBlankServiceRequest(command.fields)) throw atLeastOneField();
        const { serviceRequestId, instanceId, number, source, fields } = command;
        return [{ type: 'ServiceRequestSubmitted', data: { serviceRequestId, instanceId, number, source, ...fields } }];
      }
      case 'UpdateServiceRequest': {
        const request = notArchived(existing(state, command.instanceId));
        const next = { ...request.fields };
        const changes = [];
        for (const field of SERVICE_REQUEST_FIELDS) {
          const value = command.changes[field];
          if (value === undefined || value === request.fields[field]) continue;
          changes.push({ field, oldValue: request.fields[field], newValue: value });
          next[field] = value;
        }
        if (changes.length === 0) return [];
        if (isBlankServiceRequest(next)) throw atLeastOneField();
        return [{ type: 'ServiceRequestUpdated', data: { ...label(request, next.customerName), changes } }];
      }
      case 'RecordConversion': {
        const request = existing(state, command.instanceId);
        // Converting again is answered with the job it already became (idempotent).
        if (request.job) return [];
        notArchived(request);
        return [{ type: 'ServiceRequestConvertedToJob', data: { ...label(request), jobId: command.jobId, jobNumber: command.jobNumber } }];
      }
      case 'ArchiveServiceRequest': {
        const request = existing(state, command.instanceId);
        if (request.status === 'archived') return [];
        return [{ type: 'ServiceRequestArchived', data: label(request) }];
      }
    }
  },
};
