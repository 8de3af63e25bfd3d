import { z } from 'zod';
import { pinSchema, usernameSchema } from '../identity/schemas.ts';
import { isRouteSubdomain, normalizeSubdomain, parseFeatures } from './instances.ts';

/** The platform's input schemas: a new instance, opening or closing one, the super admin's sign-in. Browser-safe: zod only. */

const featuresInput = z
  .union([
    z.string(),
    z.object({
      pipeline: z.boolean().optional(),
      customers: z.boolean().optional(),
      calendar: z.boolean().optional(),
      admin: z.boolean().optional(),
    }),
  ])
  .optional()
  .transform((value) => parseFeatures(value));
export const createInstanceInput = z
  .object({
    name: z.string({ error: 'Name and Display Name are required' }).trim().max(100, 'Name must be at most 100 characters'),
    displayName: z.string({ error: 'Name and Display Name are required' }).trim().max(100, 'Display name must be at most 100 characters'),
    description: z.string().trim().max(1000, 'Description must be at most 1000 characters').optional().default(''),
    subdomain: z.string().max(63, 'Subdomain must be at most 63 characters').optional(),
    features: featuresInput,
    adminUsername: usernameSchema,
    adminDisplayName: z.string().trim().max(100).optional().default(''),
    adminPin: pinSchema,
  })
  .superRefine((value, ctx) => {
    if (!value.name || !value.displayName) {
      ctx.addIssue({ code: 'custom', message: 'Name and Display Name are required', path: ['name'] });
    }
  })
  .transform((value, ctx) => {
    const subdomain = normalizeSubdomain(value.subdomain?.trim() ? value.subdomain : value.name);
    if (!subdomain) {
      ctx.addIssue({ code: 'custom', message: 'Subdomain must contain only lowercase letters and numbers', path: ['subdomain'] });
      return z.NEVER;
    }
    if (isRouteSubdomain(subdomain)) {
      ctx.addIssue({ code: 'custom', message: `Subdomain "${subdomain}" is reserved; choose another`, path: ['subdomain'] });
      return z.NEVER;
    }
    return { ...value, subdomain };
  });
export type CreateInstanceInput = z.input<typeof createInstanceInput>;

export const setInstanceActiveInput = z.object({
  isActive: z.boolean({ error: 'isActive must be true or false' }),
});

export const superAdminLoginInput = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(200),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
});
