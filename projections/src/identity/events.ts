import { z } from 'zod';
import { permissionsSchema, ROLES } from './permissions.ts';

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
  /** An admin lifted a sign-in throttle before it ran out. */
  UserSignInLockCleared: z.object({ userId: z.string(), username: z.string() }),
};
