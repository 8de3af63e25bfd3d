import { permissionsSchema, ROLES, type UserView } from '@crm/projections/domain';
import { z } from 'zod';

const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** A user of an instance as GET /api/crm-instances/:instanceId/users lists them (never with a PIN). */
export const instanceUserSchema = z.object({
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
}) satisfies z.ZodType<UserView, unknown>;

export const instanceUserListSchema = z.array(instanceUserSchema);
