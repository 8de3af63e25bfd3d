import { z } from 'zod';
import { featuresSchema } from '../platform/index.ts';
import { superAdminViewSchema } from '../platform/index.ts';
import { pinSchema, usernameSchema } from '../shared/credentials.ts';
import { permissionsSchema, ROLES } from './permissions.ts';

/**
 * The identity slice's API contract: what its routes take (sign-in, users and their PINs,
 * roles and permissions) and what they answer with. The server validates with these and
 * the screens parse its answers with them; the OpenAPI document is made from them.
 * Browser-safe: zod only.
 */

// ---- requests -------------------------------------------------------------------------

/** Instance sign-in. `instance` is the subdomain slug; the /api/{instance}/auth/login route takes it from the path. */
export const signInInput = z.strictObject({
  username: usernameSchema,
  pin: pinSchema,
  instance: z.string({ error: 'Instance is required' }).trim().min(1, 'Instance is required').max(63).meta({ pattern: '\\S' }).optional(),
});

const roleInput = z.enum(ROLES, { error: 'Role must be user or admin' });

export const createUserInput = z.strictObject({
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

export const changeRoleInput = z.strictObject({ role: roleInput });

export const setLockInput = z.strictObject({ isLocked: z.boolean({ error: 'isLocked must be true or false' }) });

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

export const changeOwnPinInput = z.strictObject({
  currentPin: z.string({ error: 'Current PIN is required' }).min(1, 'Current PIN is required').max(100),
  newPin: pinSchema,
});

export const resetPinInput = z.strictObject({ pin: pinSchema });

// ---- responses ------------------------------------------------------------------------

/** A user as the admin screens list them. Never carries a PIN or its hash. */
export const userViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  isLocked: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  permissions: permissionsSchema,
  /**
   * The revision of the account record (its stream revision at the last change an admin
   * could see, USER_RECORD_EVENT_TYPES; sign-ins and PINs do not count), also its ETag
   * (`"3"`): send it back as If-Match to change only this version. Absent when not known
   * yet (a read model projected before revisions were kept, until the user's next change
   * or a rebuild): then there is no check.
   */
  revision: z.number().int().nonnegative().optional(),
  /**
   * Until when sign-in is refused after too many failed attempts (ISO); null when it never
   * was. Once that time has passed the user may sign in again: compare with the clock.
   */
  signInLockedUntil: z.string().nullable(),
});
export type UserView = z.infer<typeof userViewSchema>;

export const userListSchema = z.array(userViewSchema);

/** The signed-in instance user (GET /api/user/current and the sign-in answer). */
export const currentUserViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  permissions: permissionsSchema,
  instance: z.object({
    id: z.string(),
    name: z.string(),
    subdomain: z.string(),
    displayName: z.string(),
    features: featuresSchema,
    /** The shop's IANA time zone: screens show hours and days in it, whatever the browser's zone. */
    timeZone: z.string(),
  }),
});
export type CurrentUserView = z.infer<typeof currentUserViewSchema>;

/**
 * Why the server ended a user's session while they were working: an admin locked or removed
 * their account or reset its PIN, the PIN was changed in another session, or the provider
 * closed their CRM. A session that merely expired, or was signed out, has no reason.
 */
export const SESSION_ENDED_REASONS = ['account-locked', 'account-removed', 'pin-reset', 'pin-changed', 'instance-closed'] as const;
export type SessionEndedReason = (typeof SESSION_ENDED_REASONS)[number];

/** What the sign-in page says after such an end (and the 401's message). */
export const SESSION_ENDED_MESSAGES: Record<SessionEndedReason, string> = {
  'account-locked': 'You were signed out because your account was locked. Ask an admin of your shop to unlock it.',
  'account-removed': 'You were signed out because your account no longer exists. Ask an admin of your shop.',
  'pin-reset': 'You were signed out because an admin reset your PIN. Sign in with the new one.',
  'pin-changed': 'You were signed out because your PIN was changed in another session. Sign in with the new one.',
  'instance-closed': 'You were signed out because this CRM was closed. Ask your provider to open it again.',
};

/** GET /api/session: who is signed in (each null when nobody is); `ended` says why a session just ended, if the server ended it. */
export const sessionViewSchema = z.object({
  user: currentUserViewSchema.nullable(),
  superAdmin: superAdminViewSchema.nullable(),
  ended: z.enum(SESSION_ENDED_REASONS).nullable().optional(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/** A choice in the entry dialog's CSR and Tech selects: an active user of the instance. */
export const userChoiceSchema = z.object({
  id: z.string(),
  username: z.string(),
  /** May be ''; show the username then. */
  displayName: z.string(),
});
export type UserChoice = z.infer<typeof userChoiceSchema>;

export const userChoicesSchema = z.array(userChoiceSchema);
