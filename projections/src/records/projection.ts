import { assertNever } from '../shared/never.ts';
import { defineProjection } from '../runtime/projection.ts';

/**
 * rm.deleted_records: one row per deleted job or customer, from its deletion event (who
 * and when from the event), gone again at its restore. Guarded by the stream revision, so
 * a replayed deletion cannot overwrite a newer one. A job deleted with its customer keeps
 * the customer's deletion event id (its causation): the list shows which customer it went with.
 */
export const deletedRecordsProjection = defineProjection({
  name: 'deleted-records',
  // The record's own rows: written with its events (runtime/inline.ts).
  inline: true,
  eventTypes: ['JobDeleted', 'JobRestored', 'CustomerDeleted', 'CustomerRestored'],
  async apply(event, { table }) {
    switch (event.type) {
      case 'JobDeleted':
      case 'CustomerDeleted': {
        const instanceId = event.metadata.instanceId;
        if (!instanceId) return;
        const isJob = event.type === 'JobDeleted';
        await table('deleted_records')
          .insert({
            record_id: isJob ? event.data.jobId : event.data.customerId,
            instance_id: instanceId,
            kind: isJob ? 'job' : 'customer',
            number: isJob ? event.data.jobNumber : String(event.data.number),
            name: event.data.name,
            deleted_at: event.recordedAt,
            deleted_by: event.metadata.actor.displayName,
            deletion_event_id: event.id,
            caused_by: isJob && event.data.reason === 'customer-deleted' ? event.metadata.causationId : null,
            revision: event.revision,
          })
          .onConflict('record_id')
          .merge()
          .where('deleted_records.revision', '<', event.revision);
        return;
      }
      case 'JobRestored':
      case 'CustomerRestored': {
        const id = event.type === 'JobRestored' ? event.data.jobId : event.data.customerId;
        await table('deleted_records').where('record_id', id).andWhere('revision', '<', event.revision).delete();
        return;
      }
      default:
        return assertNever(event, 'event');
    }
  },
});
