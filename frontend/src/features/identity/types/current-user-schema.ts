import { type CurrentUserView, permissionsSchema, ROLES } from '@crm/projections/identity';
import { parseFeatures } from '@crm/projections/platform';
import { z } from 'zod';

const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** The signed-in instance user as GET /api/user/current and the sign-in answer return it. */
export const currentUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: text,
  role: z.enum(ROLES),
  permissions: permissionsSchema,
  instance: z.object({
    id: z.string(),
    name: z.string(),
    subdomain: z.string(),
    displayName: text,
    features: z.unknown().transform(parseFeatures),
  }),
}) satisfies z.ZodType<CurrentUserView, unknown>;
