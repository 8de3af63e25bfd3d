import { z } from 'zod';

export const FEATURE_KEYS = ['pipeline', 'customers', 'calendar', 'admin'] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
export type Features = Record<FeatureKey, boolean>;

/** Defaults from spec-platform.md §3: calendar off, the rest on. */
export const DEFAULT_FEATURES: Features = { pipeline: true, customers: true, calendar: false, admin: true };

/** The provider's own instance: created on first start, hidden from the selection list. */
export const RESERVED_INSTANCE_SUBDOMAIN = 'maven';

/**
 * Slugs the app's own routes use at the top level (`/{subdomain}` serves an instance), so
 * no instance may take them.
 */
export const ROUTE_SUBDOMAINS = [
  'admin',
  'api',
  'assets',
  'calendar',
  'crm',
  'customers',
  'dashboard',
  'healthz',
  'login',
  'metrics',
  'pipeline',
  'profile',
  'readyz',
  'register',
  'settings',
] as const;

export function isRouteSubdomain(subdomain: string): boolean {
  return (ROUTE_SUBDOMAINS as readonly string[]).includes(subdomain);
}

/** Lower-case, a-z and 0-9 only (spec-platform.md §5). */
export function normalizeSubdomain(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Features may arrive as an object or as the specs' JSON string; missing flags take defaults. */
export function parseFeatures(value: unknown): Features {
  let raw: unknown = value;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      raw = {};
    }
  }
  const flags = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const features = { ...DEFAULT_FEATURES };
  for (const key of FEATURE_KEYS) {
    if (typeof flags[key] === 'boolean') features[key] = flags[key];
  }
  return features;
}

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

/** What the API returns for an instance. */
export interface CrmInstanceView {
  id: string;
  name: string;
  subdomain: string;
  displayName: string;
  description: string;
  features: Features;
  isActive: boolean;
  createdAt: string;
}

export interface SuperAdminView {
  id: string;
  username: string;
  displayName: string;
}

/** What anyone may know of an instance: enough for its login page. */
export interface PublicInstanceView {
  subdomain: string;
  name: string;
  displayName: string;
  isActive: boolean;
}

export interface AppInfo {
  version: string;
  providerName: string;
  /** Host (and port) the app is reached at, PUBLIC_HOST or the request's: the start of the shops' addresses the builder shows. */
  host: string;
}
