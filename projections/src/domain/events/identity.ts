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

/** DECISIONS.md §3: role user → read + write; role admin → all four. */
export function defaultPermissions(role: Role): Permissions {
  return role === 'admin'
    ? { canRead: true, canWrite: true, canDelete: true, canManageUsers: true }
    : { canRead: true, canWrite: true, canDelete: false, canManageUsers: false };
}

/** Instance users. Events hold PIN hashes only, never a PIN. */
export const identityEventSchemas = {
  UsernameReserved: z.object({ instanceId: z.string(), username: z.string(), userId: z.string() }),
  UsernameReleased: z.object({ instanceId: z.string(), username: z.string(), userId: z.string() }),
  UserCreated: z.object({
    userId: z.string(),
    instanceId: z.string(),
    username: z.string(),
    displayName: z.string(),
    role: z.enum(ROLES),
    permissions: permissionsSchema,
    pinHash: z.string(),
  }),
};
