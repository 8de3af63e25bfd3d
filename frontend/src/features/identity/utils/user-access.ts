import type { CurrentUserView } from '@crm/projections/identity';

/**
 * Who gets the Admin link, card and screen: role admin, or a user given the canManageUsers
 * permission (the server lets them manage non-admin users, DECISIONS.md §3).
 */
export function canManageUsers(user: Pick<CurrentUserView, 'role' | 'permissions'>): boolean {
  return user.role === 'admin' || user.permissions.canManageUsers;
}

/** Who may create and change records (role admin has every permission, as the server rules). */
export function canWrite(user: Pick<CurrentUserView, 'role' | 'permissions'>): boolean {
  return user.role === 'admin' || user.permissions.canWrite;
}

/** Who may delete records (role admin has every permission, as the server rules). */
export function canDelete(user: Pick<CurrentUserView, 'role' | 'permissions'>): boolean {
  return user.role === 'admin' || user.permissions.canDelete;
}

/** The display name, or the username when there is none (spec-platform.md §1). */
export function nameOf(user: Pick<CurrentUserView, 'displayName' | 'username'>): string {
  return user.displayName.trim() || user.username;
}
