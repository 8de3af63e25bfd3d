import { z } from 'zod';
import { FILLED_TEXT_PATTERN, isBlankText } from '../shared/blank-text.ts';
import { pinSchema, usernameSchema } from '../shared/credentials.ts';
import { FEATURE_KEYS, featuresSchema, isRouteSubdomain, normalizeSubdomain, parseFeatures, timeZoneSchema } from './instances.ts';

/**
 * The platform's API contract: what its routes take (a new instance, opening or closing
 * one, the super admin's sign-in) and what they answer with. The server validates with
 * these and the screens parse its answers with them; the OpenAPI document is made from
 * them. Browser-safe: zod only.
 */

// ---- requests -------------------------------------------------------------------------

/**
 * Some feature flags, on or off. A key that names no feature is refused (a typo would
 * otherwise be dropped silently); events stored earlier are read by featuresSchema, which
 * stays lenient.
 */
const featureFlagsInput = z.strictObject(featuresSchema.partial().shape, {
  error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown feature: ${issue.keys.join(', ')}` : undefined),
});

/** Features on a new instance: flags, or the same flags as a JSON string. */
const featuresInput = z
  .union([z.string(), z.looseObject(featuresSchema.partial().shape)])
  .optional()
  .transform((value, ctx) => {
    let raw = value;
    if (typeof raw === 'string') {
      try {
        raw = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Features must be JSON flags' });
        return z.NEVER;
      }
    }
    if (raw === undefined) return parseFeatures(undefined);
    const flags = featureFlagsInput.safeParse(raw);
    if (!flags.success) {
      for (const issue of flags.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return parseFeatures(flags.data);
  })
  // The document gives the object form only (the JSON-string form is kept for old clients).
  .meta({
    type: 'object',
    anyOf: undefined,
    properties: Object.fromEntries(FEATURE_KEYS.map((key) => [key, { type: 'boolean' }])),
    additionalProperties: false,
  });

/** Text with something besides spaces in it (a login's name, a record to look up). */
const NOT_BLANK = '\\S';

export const createInstanceInput = z
  .strictObject({
    name: z
      .string({ error: 'Name and Display Name are required' })
      .trim()
      .max(100, 'Name must be at most 100 characters')
      .meta({ pattern: FILLED_TEXT_PATTERN }),
    displayName: z
      .string({ error: 'Name and Display Name are required' })
      .trim()
      .max(100, 'Display name must be at most 100 characters')
      .meta({ pattern: FILLED_TEXT_PATTERN }),
    description: z.string().trim().max(1000, 'Description must be at most 1000 characters').optional().default(''),
    // Its letters and digits make the subdomain (the name's, when it is left out or blank).
    subdomain: z.string().max(63, 'Subdomain must be at most 63 characters').meta({ pattern: '[A-Za-z0-9]' }).optional(),
    features: featuresInput,
    /** The shop's IANA time zone; the server's zone when left out. */
    timeZone: timeZoneSchema.optional(),
    adminUsername: usernameSchema,
    adminDisplayName: z.string().trim().max(100).optional().default(''),
    adminPin: pinSchema,
  })
  .superRefine((value, ctx) => {
    if (isBlankText(value.name) || isBlankText(value.displayName)) {
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
  })
  .meta({ anyOf: [{ required: ['subdomain'] }, { properties: { name: { pattern: '[A-Za-z0-9]' } } }] });
export type CreateInstanceInput = z.input<typeof createInstanceInput>;

export const setInstanceActiveInput = z.strictObject({
  isActive: z.boolean({ error: 'isActive must be true or false' }),
});

/**
 * The super admin's edit of an instance: only the fields sent change (its subdomain and
 * name are its address and stay). Features may be sent in part.
 */
export const updateInstanceInput = z
  .object({
    displayName: z
      .string({ error: 'Display name must be a text' })
      .trim()
      .max(100, 'Display name must be at most 100 characters')
      .refine((value) => !isBlankText(value), 'Display name is required')
      .meta({ pattern: FILLED_TEXT_PATTERN })
      .optional(),
    description: z
      .string({ error: 'Description must be a text' })
      .trim()
      .max(1000, 'Description must be at most 1000 characters')
      .optional(),
    timeZone: timeZoneSchema.optional(),
    features: featureFlagsInput.optional(),
    publicRequests: z.boolean({ error: 'publicRequests must be true or false' }).optional(),
  })
  .strict();
export type UpdateInstanceInput = z.input<typeof updateInstanceInput>;

/** An instance admin's switch for the shop's public request page. */
export const publicRequestsSettingInput = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
});

export const superAdminLoginInput = z.strictObject({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(200).meta({ pattern: NOT_BLANK }),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
});

// ---- responses ------------------------------------------------------------------------

/** What the API returns for an instance. */
export const crmInstanceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  subdomain: z.string(),
  displayName: z.string(),
  description: z.string(),
  features: featuresSchema,
  /** IANA zone the shop's calendar, day boundaries and counts are in. */
  timeZone: z.string(),
  /** Whether the shop's public service-request page (/{subdomain}/request) is on. */
  publicRequests: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.string(),
  /** The revision of the instance's stream (its ETag) where one instance is answered; absent in lists. */
  revision: z.number().int().optional(),
});
export type CrmInstanceView = z.infer<typeof crmInstanceViewSchema>;

export const crmInstanceListSchema = z.array(crmInstanceViewSchema);

/** Whether the shop's public request page is on, and where its customers find it. */
export const publicRequestsSettingSchema = z.object({ enabled: z.boolean(), path: z.string() });
export type PublicRequestsSetting = z.infer<typeof publicRequestsSettingSchema>;

/** `unshowable`: a change whose recorded event fails its schema; listed without its values. */
export const INSTANCE_HISTORY_ACTIONS = ['created', 'updated', 'deactivated', 'reactivated', 'unshowable'] as const;

/** A setting's value as recorded: text (names, the zone), on or off (the public page, active), the feature flags. */
const instanceHistoryValueSchema = z.union([z.string(), z.boolean(), featuresSchema]).nullable();

/**
 * One row of an instance's history: who changed which setting when, each value as recorded
 * (the screens put it in words with the one change formatter, as the audit log does).
 */
export const instanceHistoryEntrySchema = z.object({
  id: z.string(),
  action: z.enum(INSTANCE_HISTORY_ACTIONS),
  userDisplayName: z.string(),
  timestamp: z.string(),
  changes: z.array(z.object({ field: z.string(), oldValue: instanceHistoryValueSchema, newValue: instanceHistoryValueSchema })),
});
export type InstanceHistoryEntry = z.infer<typeof instanceHistoryEntrySchema>;
export const instanceHistorySchema = z.array(instanceHistoryEntrySchema);

export const superAdminViewSchema = z.object({ id: z.string(), username: z.string(), displayName: z.string() });
export type SuperAdminView = z.infer<typeof superAdminViewSchema>;

/** What anyone may know of an instance: enough for its login page. */
export const publicInstanceViewSchema = z.object({
  subdomain: z.string(),
  name: z.string(),
  displayName: z.string(),
  isActive: z.boolean(),
});
export type PublicInstanceView = z.infer<typeof publicInstanceViewSchema>;

export const appInfoSchema = z.object({
  version: z.string(),
  providerName: z.string(),
  /** Host (and port) the app is reached at, PUBLIC_HOST or the request's: the start of the shops' addresses the builder shows. */
  host: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export * from './dashboard-api.ts';

/**
 * An event a projector or reactor could not handle and skipped (parked): a change the
 * screens do not show until an operator fixes the cause and replays it.
 */
export const parkedEventSchema = z.object({
  eventId: z.string(),
  type: z.string(),
  streamId: z.string(),
  /** The record the event belongs to: its stream's id without the kind prefix. */
  recordId: z.string(),
  /** The shop it was recorded in (null: unknown, or a provider event). */
  instanceId: z.string().nullable(),
  subdomain: z.string().nullable(),
  /** Which projector or reactor parked it ("main": the read models). */
  checkpoint: z.string(),
  error: z.string(),
  parkedAt: z.string(),
});
export type ParkedEventView = z.infer<typeof parkedEventSchema>;
export const parkedEventListSchema = z.array(parkedEventSchema);

/** Whether a record has changes that could not be shown (parked events), for a notice on it. */
export const parkedChangesQuery = z.object({ record: z.string().trim().min(1).max(200).meta({ pattern: NOT_BLANK }) });
export const parkedChangesSchema = z.object({ count: z.number().int(), lastParkedAt: z.string().nullable() });
export type ParkedChanges = z.infer<typeof parkedChangesSchema>;
