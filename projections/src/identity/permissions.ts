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

/** Role admin has every permission; otherwise the per-user flags decide. The server rules by this and the screens show what it allows. */
export function hasPermission(user: { role: Role; permissions: Permissions }, permission: Permission): boolean {
  return user.role === 'admin' || user.permissions[permission];
}
