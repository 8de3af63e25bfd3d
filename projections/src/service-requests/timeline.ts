import type { StoredDomainEvent } from '../events.ts';
import { changedFieldWords, type ActivityDescription } from '../shared/timeline.ts';
import { SERVICE_REQUEST_FIELDS, serviceRequestLabel } from './fields.ts';

type ServiceRequestEvent = Extract<
  StoredDomainEvent,
  { type: 'ServiceRequestSubmitted' | 'ServiceRequestUpdated' | 'ServiceRequestConvertedToJob' | 'ServiceRequestArchived' }
>;

/** How the instance timeline (the audit slice's activity) words service requests' events. */
export function describeServiceRequestEvent(event: ServiceRequestEvent): ActivityDescription {
  const entity = { entityType: 'serviceRequest', entityId: event.data.serviceRequestId };
  const name = serviceRequestLabel(event.data);
  switch (event.type) {
    case 'ServiceRequestSubmitted': {
      const d = event.data;
      return {
        ...entity,
        summary:
          d.source === 'public' ? `Received service request ${name} from the public request page` : `Submitted service request ${name}`,
        changes: SERVICE_REQUEST_FIELDS.filter((field) => d[field] !== '').map((field) => ({ field, oldValue: null, newValue: d[field] })),
      };
    }
    case 'ServiceRequestUpdated':
      return {
        ...entity,
        summary: `Updated service request ${name}: ${changedFieldWords(event.data.changes)}`,
        changes: event.data.changes.map(({ field, oldValue, newValue }) => ({ field, oldValue, newValue })),
      };
    case 'ServiceRequestConvertedToJob':
      return {
        ...entity,
        summary: `Converted service request ${name} to job #${event.data.jobNumber}`,
        changes: [{ field: 'status', oldValue: 'open', newValue: 'converted' }],
      };
    case 'ServiceRequestArchived':
      return { ...entity, summary: `Archived service request ${name}`, changes: [{ field: 'archived', oldValue: false, newValue: true }] };
  }
}
