import { z } from 'zod';
import { ROLES } from './permissions.ts';

/** The identity slice's input schemas: sign-in, users and their PINs, roles and permissions. Browser-safe: zod only. */

export const USERNAME_MIN = 3;
export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(USERNAME_MIN, 'Username must be at least 3 characters')
  .max(64, 'Username must be at most 64 characters');

export const pinSchema = z
  .string({ error: 'PIN is required' })
  .length(4, 'PIN must be exactly 4 digits')
  .regex(/^\d+$/, 'PIN must contain only digits');

/** Instance sign-in. `instance` is the subdomain slug; the /api/{instance}/auth/login route takes it from the path. */
export const signInInput = z.object({
  username: usernameSchema,
  pin: pinSchema,
  instance: z.string({ error: 'Instance is required' }).trim().min(1, 'Instance is required').max(63).optional(),
});

const roleInput = z.enum(ROLES, { error: 'Role must be user or admin' });

export const createUserInput = z.object({
  username: usernameSchema,
  displayName: z
    .string({ error: 'Display name must be text' })
    .trim()
    .max(100, 'Display name must be at most 100 characters')
    .optional()
    .default(''),
  pin: pinSchema,
  role: roleInput.optional().default('user'),
});

export const changeRoleInput = z.object({ role: roleInput });

export const setLockInput = z.object({ isLocked: z.boolean({ error: 'isLocked must be true or false' }) });

const flag = (name: string) => z.boolean({ error: `${name} must be true or false` }).optional();
export const changePermissionsInput = z.strictObject(
  {
    canRead: flag('canRead'),
    canWrite: flag('canWrite'),
    canDelete: flag('canDelete'),
    canManageUsers: flag('canManageUsers'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown permission: ${issue.keys.join(', ')}` : undefined) },
);

export const changeOwnPinInput = z.object({
  currentPin: z.string({ error: 'Current PIN is required' }).min(1, 'Current PIN is required').max(100),
  newPin: pinSchema,
});

export const resetPinInput = z.object({ pin: pinSchema });
