import type { StoredDomainEvent } from '../events.ts';
import { tableRows } from '../runtime/bulk-rows.ts';
import type { BulkRebuilder } from '../runtime/projection.ts';
import { assertNever } from '../shared/never.ts';
import { permissionColumns, userPermissionsRow, userRow } from './projection.ts';

type UserEvent = Extract<
  StoredDomainEvent,
  {
    type:
      | 'UserCreated'
      | 'UserRoleChanged'
      | 'UserPermissionsChanged'
      | 'UserLocked'
      | 'UserUnlocked'
      | 'UserSignedIn'
      | 'UserPinChanged'
      | 'UserSignInLockCleared'
      | 'UserSignInThrottled'
      | 'UserDeleted';
  }
>;

const USER_COLUMNS = {
  id: 'uuid',
  instance_id: 'uuid',
  username: 'text',
  display_name: 'text',
  role: 'text',
  is_locked: 'boolean',
  is_active: 'boolean',
  created_at: 'timestamptz',
  last_login_at: 'timestamptz',
  revision: 'integer',
  sign_in_locked_until: 'timestamptz',
};

const PERMISSION_COLUMNS = {
  user_id: 'uuid',
  instance_id: 'uuid',
  role: 'text',
  can_read: 'boolean',
  can_write: 'boolean',
  can_delete: 'boolean',
  can_manage_users: 'boolean',
  created_at: 'timestamptz',
};

type Row = Record<string, unknown>;

/**
 * The identity projection in a rebuild: `users` and `user_permissions` folded over the whole
 * log in memory by the live projection's rules (a creation only for a user without a row,
 * every other event only on a row that exists, a deletion removing both), written at the end.
 * Sign-ins are most of a shop's user events: the live path sends a statement for each.
 */
export function identityBulk(): BulkRebuilder {
  const users = new Map<string, Row>();
  const permissions = new Map<string, Row>();
  const update = (rows: Map<string, Row>, id: string, columns: Row) => {
    const row = rows.get(id);
    if (row) Object.assign(row, columns);
  };
  return {
    page(events) {
      for (const event of events as UserEvent[]) {
        const id = event.data.userId;
        switch (event.type) {
          case 'UserCreated':
            if (!users.has(id)) users.set(id, userRow(event));
            if (!permissions.has(id)) permissions.set(id, userPermissionsRow(event));
            break;
          case 'UserRoleChanged':
            update(users, id, { role: event.data.newRole, revision: event.revision });
            update(permissions, id, { role: event.data.newRole, ...permissionColumns(event.data.permissions) });
            break;
          case 'UserPermissionsChanged':
            update(permissions, id, permissionColumns(event.data.new));
            update(users, id, { revision: event.revision });
            break;
          case 'UserLocked':
            update(users, id, { is_locked: true, revision: event.revision });
            break;
          case 'UserUnlocked':
            update(users, id, { is_locked: false, sign_in_locked_until: null, revision: event.revision });
            break;
          case 'UserSignedIn':
            update(users, id, { last_login_at: event.metadata.occurredAt, sign_in_locked_until: null });
            break;
          case 'UserPinChanged':
          case 'UserSignInLockCleared':
            update(users, id, { sign_in_locked_until: null });
            break;
          case 'UserSignInThrottled':
            update(users, id, { sign_in_locked_until: event.data.lockedUntil });
            break;
          case 'UserDeleted':
            users.delete(id);
            permissions.delete(id);
            break;
          default:
            assertNever(event, 'event');
        }
      }
      return [];
    },
    finish() {
      const result = [
        tableRows('users', USER_COLUMNS, [...users.values()]),
        tableRows('user_permissions', PERMISSION_COLUMNS, [...permissions.values()]),
      ];
      users.clear();
      permissions.clear();
      return result;
    },
  };
}
