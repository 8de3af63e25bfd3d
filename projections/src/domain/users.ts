import { z } from 'zod';
import { ROLES, type Permissions, type Role } from './events/identity.ts';
import { pinSchema, usernameSchema, type Features } from './instances.ts';

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

/**
 * The events that change a user's account record as the admin screens show it (role,
 * permissions, lock; creation and deletion). Its revision (`UserView.revision`, the ETag
 * of the user commands) is the stream revision of the last of these. Sign-in bookkeeping
 * (signed in, failed, throttled) and PIN changes are left out: they show nowhere an admin
 * could have read them, so a user signing in or changing their PIN (or an admin resetting
 * it) never makes an admin's copy stale.
 */
export const USER_RECORD_EVENT_TYPES = [
  'UserCreated',
  'UserRoleChanged',
  'UserPermissionsChanged',
  'UserLocked',
  'UserUnlocked',
  'UserDeleted',
] as const;

export function isUserRecordEvent(type: string): boolean {
  return (USER_RECORD_EVENT_TYPES as readonly string[]).includes(type);
}

/** The account record's revision: the stream revision of its last record event; null when there is none. */
export function userRecordRevision(events: ReadonlyArray<{ type: string; revision: number }>): number | null {
  for (let i = events.length - 1; i >= 0; i--) if (isUserRecordEvent(events[i]!.type)) return events[i]!.revision;
  return null;
}

/** A user as the admin screens list them. Never carries a PIN or its hash. */
export interface UserView {
  id: string;
  username: string;
  displayName: string;
  role: Role;
  isLocked: boolean;
  isActive: boolean;
  createdAt: string;
  lastLoginAt: string | null;
  permissions: Permissions;
  /**
   * The revision of the account record (its stream revision at the last change an admin
   * could see, USER_RECORD_EVENT_TYPES; sign-ins and PINs do not count), also its ETag
   * (`"3"`): send it back as If-Match to change only this version. Absent when not known
   * yet (a read model projected before revisions were kept, until the user's next change
   * or a rebuild): then there is no check.
   */
  revision?: number;
}

/** The signed-in instance user (GET /api/user/current and the sign-in answer). */
export interface CurrentUserView {
  id: string;
  username: string;
  displayName: string;
  role: Role;
  permissions: Permissions;
  instance: {
    id: string;
    name: string;
    subdomain: string;
    displayName: string;
    features: Features;
  };
}
