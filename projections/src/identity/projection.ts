import type { StoredDomainEvent } from '../events.ts';
import { assertNever } from '../shared/never.ts';
import { defineProjection } from '../runtime/projection.ts';
import { permissionColumns } from './permissions.ts';

type UserCreated = Extract<StoredDomainEvent, { type: 'UserCreated' }>;

// The rebuild's rows take the permission columns from here too.
export { permissionColumns };

/** A created user's `users` row: unlocked, active, never signed in, no sign-in throttle. */
export function userRow(event: UserCreated) {
  const d = event.data;
  return {
    id: d.userId,
    instance_id: d.instanceId,
    username: d.username,
    display_name: d.displayName,
    role: d.role,
    is_locked: false,
    is_active: true,
    created_at: event.metadata.occurredAt,
    last_login_at: null,
    revision: event.revision,
    sign_in_locked_until: null,
  };
}

/** A created user's `user_permissions` row: the role's and the user's own permissions. */
export function userPermissionsRow(event: UserCreated) {
  const d = event.data;
  return {
    user_id: d.userId,
    instance_id: d.instanceId,
    role: d.role,
    ...permissionColumns(d.permissions),
    created_at: event.metadata.occurredAt,
  };
}

/**
 * users and user_permissions. A user row's `revision` follows the account record's events
 * (USER_RECORD_EVENT_TYPES), never sign-ins.
 */
export const identityProjection = defineProjection({
  name: 'identity',
  // The record's own rows: written with its events (runtime/inline.ts).
  inline: true,
  eventTypes: [
    'UserCreated',
    'UserRoleChanged',
    'UserPermissionsChanged',
    'UserLocked',
    'UserUnlocked',
    'UserSignedIn',
    'UserPinChanged',
    'UserSignInLockCleared',
    'UserSignInThrottled',
    'UserDeleted',
  ],
  async apply(event, { table }) {
    switch (event.type) {
      case 'UserCreated':
        await table('users').insert(userRow(event)).onConflict('id').ignore();
        await table('user_permissions').insert(userPermissionsRow(event)).onConflict('user_id').ignore();
        return;
      case 'UserRoleChanged': {
        const d = event.data;
        await table('users').where({ id: d.userId }).update({ role: d.newRole, revision: event.revision });
        await table('user_permissions')
          .where({ user_id: d.userId })
          .update({ role: d.newRole, ...permissionColumns(d.permissions) });
        return;
      }
      case 'UserPermissionsChanged':
        await table('user_permissions').where({ user_id: event.data.userId }).update(permissionColumns(event.data.new));
        await table('users').where({ id: event.data.userId }).update({ revision: event.revision });
        return;
      case 'UserLocked':
        await table('users').where({ id: event.data.userId }).update({ is_locked: true, revision: event.revision });
        return;
      // An unlock, a sign-in, a new PIN and an admin's clearing all end a sign-in throttle.
      case 'UserUnlocked':
        await table('users')
          .where({ id: event.data.userId })
          .update({ is_locked: false, sign_in_locked_until: null, revision: event.revision });
        return;
      case 'UserSignedIn':
        await table('users')
          .where({ id: event.data.userId })
          .update({ last_login_at: event.metadata.occurredAt, sign_in_locked_until: null });
        return;
      case 'UserPinChanged':
      case 'UserSignInLockCleared':
        await table('users').where({ id: event.data.userId }).update({ sign_in_locked_until: null });
        return;
      case 'UserSignInThrottled':
        await table('users').where({ id: event.data.userId }).update({ sign_in_locked_until: event.data.lockedUntil });
        return;
      // A deleted user leaves the read models (its username may be taken again); the
      // event stream and the activity log keep the history.
      case 'UserDeleted':
        await table('user_permissions').where({ user_id: event.data.userId }).delete();
        await table('users').where({ id: event.data.userId }).delete();
        return;
      default:
        return assertNever(event, 'event');
    }
  },
});
