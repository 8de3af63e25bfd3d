import { z } from 'zod';

/** Roles and permissions of an instance's users. Browser-safe: zod only. */

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const permissionsSchema = z.object({
  canRead: z.boolean(),
  canWrite: z.boolean(),
  canDelete: z.boolean(),
  canManageUsers: z.boolean(),
});
export type Permissions = z.infer<typeof permissionsSchema>;

export const PERMISSION_KEYS = ['canRead', 'canWrite', 'canDelete', 'canManageUsers'] as const satisfies readonly (keyof Permissions)[];

/** Role user → read + write; role admin → all four. */
export function defaultPermissions(role: Role): Permissions {
  return role === 'admin'
    ? { canRead: true, canWrite: true, canDelete: true, canManageUsers: true }
    : { canRead: true, canWrite: true, canDelete: false, canManageUsers: false };
}

export type Permission = keyof Permissions;

/** A user's permissions as the user_permissions read model stores them. */
export interface PermissionColumns {
  can_read: boolean;
  can_write: boolean;
  can_delete: boolean;
  can_manage_users: boolean;
}

/** The columns of `p` (typed as the literal it is, so a rebuild's plain row records take it too). */
export function permissionColumns(p: Permissions) {
  return { can_read: p.canRead, can_write: p.canWrite, can_delete: p.canDelete, can_manage_users: p.canManageUsers };
}

export function permissionsOfColumns(row: PermissionColumns): Permissions {
  return { canRead: row.can_read, canWrite: row.can_write, canDelete: row.can_delete, canManageUsers: row.can_manage_users };
}

/** Role admin has every permission; otherwise the per-user flags decide. The server rules by this and the screens show what it allows. */
export function hasPermission(user: { role: Role; permissions: Permissions }, permission: Permission): boolean {
  return user.role === 'admin' || user.permissions[permission];
}
