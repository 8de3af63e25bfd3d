import { permissionsSchema, ROLES, type UserView } from '@crm/projections/identity';
import { z } from 'zod';

const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/**
 * A user as the API returns it (never with a PIN): GET /api/admin/users and
 * GET /api/crm-instances/:instanceId/users list them, the user commands answer with one.
 */
export const userViewSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  username: z.string(),
  displayName: text,
  role: z.enum(ROLES),
  isLocked: z.boolean().optional().default(false),
  isActive: z.boolean().optional().default(true),
  createdAt: text,
  lastLoginAt: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
  permissions: permissionsSchema,
  /** Until when sign-in is refused after failed PINs (ISO); the list says "Locked out until HH:MM". */
  signInLockedUntil: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
  /** Sent back as If-Match with every change (see lib/concurrency); absent: no check. */
  revision: z.number().int().nonnegative().optional(),
}) satisfies z.ZodType<UserView, unknown>;

export const userListSchema = z.array(userViewSchema);
