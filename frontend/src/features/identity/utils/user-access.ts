import { hasPermission, type CurrentUserView } from '@crm/projections/contract';

/**
 * Who gets the Admin link, card and screen: role admin, or a user given the canManageUsers
 * permission (the server lets them manage non-admin users, DECISIONS.md §3).
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

/** The display name, or the username when there is none (spec-platform.md §1). */
export function nameOf(user: Pick<CurrentUserView, 'displayName' | 'username'>): string {
  return user.displayName.trim() || user.username;
}
