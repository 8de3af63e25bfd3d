import type { StoredDomainEvent } from '../domain/events/index.ts';
import type { Projection } from './projection.ts';

export interface FieldChange {
  field: string;
  oldValue: unknown;
  newValue: unknown;
}

export interface ActivityDescription {
  entityType: string;
  entityId: string;
  summary: string;
  changes: FieldChange[];
}

/**
 * Plain words for every event of an instance: the audit log and Recent Activity read
 * them. Returns null for events that are not part of an instance's timeline.
 */
export function describeEvent(event: StoredDomainEvent): ActivityDescription | null {
  switch (event.type) {
    case 'CrmInstanceCreated':
      return {
        entityType: 'instance',
        entityId: event.data.instanceId,
        summary: `Created the CRM instance ${event.data.displayName}`,
        changes: [],
      };
    case 'UserCreated':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Created user ${event.data.username} (${event.data.role})`,
        changes: [],
      };
    case 'SuperAdminCreated':
    case 'SuperAdminCredentialsChanged':
    case 'SuperAdminSignedIn':
    case 'SuperAdminSignInFailed':
    case 'SubdomainReserved':
    case 'UsernameReserved':
    case 'UsernameReleased':
      return null;
    default:
      return assertNever(event);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled event ${JSON.stringify(value)}`);
}

export const activityProjection: Projection = {
  name: 'activity',
  async apply(event, { table }) {
    const instanceId = event.metadata.instanceId;
    if (!instanceId) return;
    const description = describeEvent(event);
    if (!description) return;
    await table('activity')
      .insert({
        event_id: event.id,
        instance_id: instanceId,
        position_commit: event.position.commit.toString(),
        position_prepare: event.position.prepare.toString(),
        stream_id: event.streamId,
        event_type: event.type,
        entity_type: description.entityType,
        entity_id: description.entityId,
        actor_kind: event.metadata.actor.kind,
        actor_id: event.metadata.actor.id,
        actor_name: event.metadata.actor.displayName,
        summary: description.summary,
        changes: JSON.stringify(description.changes),
        occurred_at: event.metadata.occurredAt,
      })
      .onConflict('event_id')
      .ignore();
  },
};
