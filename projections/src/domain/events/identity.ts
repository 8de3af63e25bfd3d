import { z } from 'zod';

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

/** DECISIONS.md §3: role user → read + write; role admin → all four. */
export function defaultPermissions(role: Role): Permissions {
  return role === 'admin'
    ? { canRead: true, canWrite: true, canDelete: true, canManageUsers: true }
    : { canRead: true, canWrite: true, canDelete: false, canManageUsers: false };
}

const role = z.enum(ROLES);

/**
 * Instance users. Events hold PIN hashes only, never a PIN. Every user event after
 * UserCreated names the username too, so the audit log reads in words without a lookup.
 */
export const identityEventSchemas = {
  UsernameReserved: z.object({ instanceId: z.string(), username: z.string(), userId: z.string() }),
  UsernameReleased: z.object({ instanceId: z.string(), username: z.string(), userId: z.string() }),
  UserCreated: z.object({
    userId: z.string(),
    instanceId: z.string(),
    username: z.string(),
    displayName: z.string(),
    role,
    permissions: permissionsSchema,
    pinHash: z.string(),
  }),
  /** A role change resets the permissions to the new role's defaults. */
  UserRoleChanged: z.object({
    userId: z.string(),
    username: z.string(),
    oldRole: role,
    newRole: role,
    oldPermissions: permissionsSchema,
    permissions: permissionsSchema,
  }),
  UserLocked: z.object({ userId: z.string(), username: z.string() }),
  UserUnlocked: z.object({ userId: z.string(), username: z.string() }),
  UserDeleted: z.object({ userId: z.string(), instanceId: z.string(), username: z.string() }),
  UserPinChanged: z.object({ userId: z.string(), username: z.string(), pinHash: z.string() }),
  UserPermissionsChanged: z.object({
    userId: z.string(),
    username: z.string(),
    old: permissionsSchema,
    new: permissionsSchema,
  }),
  UserSignedIn: z.object({ userId: z.string(), username: z.string() }),
  UserSignInFailed: z.object({ userId: z.string(), username: z.string(), consecutiveFailures: z.number().int().positive() }),
  /** Too many failures in a row: sign-in refused until `lockedUntil` (ISO time). */
  UserSignInThrottled: z.object({ userId: z.string(), username: z.string(), lockedUntil: z.string() }),
};
