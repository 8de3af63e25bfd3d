import { z } from 'zod';

/**
 * What a CRM instance is made of: its features and its subdomain (the rules every side
 * checks a subdomain with). Browser-safe.
 */

export const FEATURE_KEYS = ['pipeline', 'customers', 'calendar', 'admin', 'serviceRequests'] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
export type Features = Record<FeatureKey, boolean>;

/** Every feature flag, each on or off (events and API answers alike). */
export const featuresSchema = z.object({
  pipeline: z.boolean(),
  customers: z.boolean(),
  calendar: z.boolean(),
  admin: z.boolean(),
  // Instances created before service requests had a flag have them on.
  serviceRequests: z.boolean().default(true),
}) satisfies z.ZodType<Features>;

/** Each feature as the screens name it (the instance form, its history, the audit log). */
export const FEATURE_LABELS: Record<FeatureKey, string> = {
  pipeline: 'Pipeline',
  customers: 'Customers',
  calendar: 'Calendar',
  admin: 'Admin',
  serviceRequests: 'Service Requests',
};

/** An instance's settings as its history and the audit log name them. */
export const INSTANCE_FIELD_LABELS: Record<string, string> = {
  displayName: 'Display name',
  description: 'Description',
  timeZone: 'Time zone',
  features: 'Features',
  publicRequests: 'Public request page',
  isActive: 'Active',
};

/** Defaults for a new instance: calendar off, the rest on. */
export const DEFAULT_FEATURES: Features = { pipeline: true, customers: true, calendar: false, admin: true, serviceRequests: true };

/**
 * An IANA time zone name the runtime knows (e.g. "America/Chicago"). A shop's calendar hours,
 * day boundaries and counts are in its zone, whatever the zone of the server or the browser.
 */
export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** This process's own zone: the server's, for instances that never chose one. */
export function runtimeTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export const timeZoneSchema = z
  .string({ error: 'Time zone must be a text such as America/Chicago' })
  .trim()
  .refine(isValidTimeZone, 'Time zone must be an IANA time zone such as America/Chicago')
  // The API document lists the zones this runtime knows (the check takes their aliases too).
  .meta({ enum: ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')] });

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

/** Lower-case, a-z and 0-9 only. */
export function normalizeSubdomain(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Features may arrive as an object or as a JSON string (older clients send one); missing flags take defaults. */
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
