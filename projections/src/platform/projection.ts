import { assertNever } from '../shared/never.ts';
import { defineProjection } from '../runtime/projection.ts';

/** crm_instances: one row per CRM instance, open or closed. */
export const platformProjection = defineProjection({
  name: 'platform',
  // The record's own rows: written with its events (runtime/inline.ts).
  inline: true,
  eventTypes: ['CrmInstanceCreated', 'CrmInstanceUpdated', 'CrmInstanceDeactivated', 'CrmInstanceReactivated'],
  async apply(event, { table }) {
    switch (event.type) {
      case 'CrmInstanceCreated': {
        const d = event.data;
        await table('crm_instances')
          .insert({
            id: d.instanceId,
            name: d.name,
            subdomain: d.subdomain,
            display_name: d.displayName,
            description: d.description,
            features: JSON.stringify(d.features),
            time_zone: d.timeZone ?? null,
            is_active: true,
            created_at: event.metadata.occurredAt,
            created_by: event.metadata.actor.displayName,
          })
          .onConflict('id')
          .ignore();
        return;
      }
      case 'CrmInstanceUpdated': {
        const columns: Record<string, unknown> = {};
        for (const change of event.data.changes) {
          switch (change.field) {
            case 'displayName':
              columns.display_name = change.newValue;
              break;
            case 'description':
              columns.description = change.newValue;
              break;
            case 'timeZone':
              columns.time_zone = change.newValue;
              break;
            case 'features':
              columns.features = JSON.stringify(change.newValue);
              break;
            case 'publicRequests':
              columns.public_requests = change.newValue;
              break;
          }
        }
        await table('crm_instances').where({ id: event.data.instanceId }).update(columns);
        return;
      }
      case 'CrmInstanceDeactivated':
      case 'CrmInstanceReactivated':
        await table('crm_instances')
          .where({ id: event.data.instanceId })
          .update({ is_active: event.type === 'CrmInstanceReactivated' });
        return;
      default:
        return assertNever(event, 'event');
    }
  },
});
