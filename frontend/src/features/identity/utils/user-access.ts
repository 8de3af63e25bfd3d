import { hasPermission, type CurrentUserView } from '@crm/projections/contract';
import type { Permissions, UserView } from '@crm/projections/identity';

/**
 * Who gets the Admin link, card and screen: role admin, or a user given the canManageUsers
 * permission (the server lets them manage non-admin users).
 */
export function canManageUsers(user: Pick<CurrentUserView, 'role' | 'permissions'>): boolean {
  return hasPermission(user, 'canManageUsers');
}

/** Who may read records (role admin has every permission, as the server rules). */
export function canRead(user: Pick<CurrentUserView, 'role' | 'permissions'>): boolean {
  return hasPermission(user, 'canRead');
}

/** Who may create and change records (role admin has every permission, as the server rules). */
export function canWrite(user: Pick<CurrentUserView, 'role' | 'permissions'>): boolean {
  return hasPermission(user, 'canWrite');
}

/** Who may delete records (role admin has every permission, as the server rules). */
export function canDelete(user: Pick<CurrentUserView, 'role' | 'permissions'>): boolean {
  return hasPermission(user, 'canDelete');
}

/** The display name, or the username when there is none. */
export function nameOf(user: Pick<CurrentUserView, 'displayName' | 'username'>): string {
  return user.displayName.trim() || user.username;
}

/**
 * Whether `viewer` may change `target`'s account (lock, delete, reset the PIN, permissions), as
 * the server rules: an admin anyone; a user manager only users who are not admins and who hold
 * no permission the manager lacks. Role changes are the admins' alone.
 */
export function mayManageUser(
  viewer: Pick<CurrentUserView, 'role' | 'permissions'>,
  target: Pick<UserView, 'role' | 'permissions'>,
): boolean {
  if (viewer.role === 'admin') return true;
  if (!canManageUsers(viewer) || target.role === 'admin') return false;
  return (Object.keys(target.permissions) as Array<keyof Permissions>).every((key) => !target.permissions[key] || viewer.permissions[key]);
}

/** Only admins make admins (or users of admins). */
export function mayChangeRoles(viewer: Pick<CurrentUserView, 'role'>): boolean {
  return viewer.role === 'admin';
}

/** What a user may do, in words: 'All permissions' (admins), 'Read only', 'Read, write, delete'. */
export function permissionsText(user: Pick<UserView, 'role' | 'permissions'>): string {
  if (user.role === 'admin') return 'All permissions';
  const words: Array<[keyof Permissions, string]> = [
    ['canRead', 'read'],
    ['canWrite', 'write'],
    ['canDelete', 'delete'],
    ['canManageUsers', 'manage users'],
  ];
  const held = words.filter(([key]) => user.permissions[key]).map(([, word]) => word);
  if (held.length === 0) return 'No access';
  if (held.length === 1 && held[0] === 'read') return 'Read only';
  const text = held.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
