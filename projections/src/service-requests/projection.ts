import { assertNever } from '../shared/never.ts';
import { defineProjection } from '../runtime/projection.ts';
import type { ServiceRequestField } from './fields.ts';

/** Read-model columns of the fields (the search text is a generated column). */
export const SERVICE_REQUEST_COLUMNS: Record<ServiceRequestField, string> = {
  customerName: 'customer_name',
  contactEmail: 'contact_email',
  contactPhone: 'contact_phone',
  vehicleType: 'vehicle_type',
  serviceType: 'service_type',
  scheduledDate: 'scheduled_date',
  additionalNotes: 'additional_notes',
};

/**
 * rm.service_requests: one row per request, archived ones included (status says). Times
 * are when the event store recorded the events, who from the metadata. Changes apply only
 * over an older revision, so a replayed event never moves a row backwards. Whatever staff
 * do to a public request (edit, convert, archive) makes it no longer new.
 */
export const serviceRequestsProjection = defineProjection({
  name: 'service-requests',
  // The record's own rows: written with its events (runtime/inline.ts).
  inline: true,
  eventTypes: ['ServiceRequestSubmitted', 'ServiceRequestUpdated', 'ServiceRequestConvertedToJob', 'ServiceRequestArchived'],
  async apply(event, ctx) {
    const { table } = ctx;
    const touched = {
      last_modified_at: event.recordedAt,
      last_modified_by: event.metadata.actor.displayName,
      revision: event.revision,
      is_new_public: false,
    };
    const newer = (id: string) => table('service_requests').where('id', id).andWhere('revision', '<', event.revision);
    switch (event.type) {
      case 'ServiceRequestSubmitted': {
        const d = event.data;
        await table('service_requests')
          .insert({
            id: d.serviceRequestId,
            instance_id: d.instanceId,
            number: d.number,
            customer_name: d.customerName,
            contact_email: d.contactEmail,
            contact_phone: d.contactPhone,
            vehicle_type: d.vehicleType,
            service_type: d.serviceType,
            scheduled_date: d.scheduledDate,
            additional_notes: d.additionalNotes,
            status: 'open',
            source: d.source,
            is_new_public: d.source === 'public',
            job_id: null,
            job_number: null,
            created_at: event.recordedAt,
            created_by: event.metadata.actor.displayName,
            last_modified_at: event.recordedAt,
            last_modified_by: event.metadata.actor.displayName,
            revision: event.revision,
          })
          .onConflict('id')
          .ignore();
        return;
      }
      case 'ServiceRequestUpdated': {
        const columns: Record<string, string> = {};
        for (const change of event.data.changes) columns[SERVICE_REQUEST_COLUMNS[change.field]] = change.newValue;
        await newer(event.data.serviceRequestId).update({ ...columns, ...touched });
        return;
      }
      case 'ServiceRequestConvertedToJob':
        await newer(event.data.serviceRequestId).update({
          status: 'converted',
          job_id: event.data.jobId,
          job_number: event.data.jobNumber,
          ...touched,
        });
        return;
      case 'ServiceRequestArchived':
        await newer(event.data.serviceRequestId).update({ status: 'archived', ...touched });
        return;
      default:
        return assertNever(event, 'event');
    }
  },
});
