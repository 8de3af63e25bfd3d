import type { Projection } from './projection.ts';

/** crm_instances, users and user_permissions. */
export const platformProjection: Projection = {
  name: 'platform',
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
            is_active: true,
            created_at: event.metadata.occurredAt,
            created_by: event.metadata.actor.displayName,
          })
          .onConflict('id')
          .ignore();
        return;
      }
      case 'UserCreated': {
        const d = event.data;
        await table('users')
          .insert({
            id: d.userId,
            instance_id: d.instanceId,
            username: d.username,
            display_name: d.displayName,
            role: d.role,
            is_locked: false,
            is_active: true,
            created_at: event.metadata.occurredAt,
          })
          .onConflict('id')
          .ignore();
        await table('user_permissions')
          .insert({
            user_id: d.userId,
            instance_id: d.instanceId,
            role: d.role,
            can_read: d.permissions.canRead,
            can_write: d.permissions.canWrite,
            can_delete: d.permissions.canDelete,
            can_manage_users: d.permissions.canManageUsers,
            created_at: event.metadata.occurredAt,
          })
          .onConflict('user_id')
          .ignore();
        return;
      }
      default:
        return;
    }
  },
};
