import type { SuperAdminView } from '@crm/projections/platform';
import { z } from 'zod';

export const superAdminViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
}) satisfies z.ZodType<SuperAdminView, unknown>;
