import { z } from 'zod';
import { featuresSchema } from './instances.ts';

/**
 * One changed setting of an instance, with the value before and after: each field keeps its
 * own type, so the read model and the history can use the values as they are.
 */
export const instanceFieldChangeSchema = z.discriminatedUnion('field', [
  z.object({ field: z.literal('displayName'), oldValue: z.string(), newValue: z.string() }),
  z.object({ field: z.literal('description'), oldValue: z.string(), newValue: z.string() }),
  // Null: the instance had no zone of its own (it used the server's).
  z.object({ field: z.literal('timeZone'), oldValue: z.string().nullable(), newValue: z.string() }),
  z.object({ field: z.literal('features'), oldValue: featuresSchema, newValue: featuresSchema }),
  z.object({ field: z.literal('publicRequests'), oldValue: z.boolean(), newValue: z.boolean() }),
]);
export type InstanceFieldChange = z.infer<typeof instanceFieldChangeSchema>;
export type InstanceField = InstanceFieldChange['field'];

/** Provider-level and instance lifecycle events. */
export const platformEventSchemas = {
  SuperAdminCreated: z.object({
    superAdminId: z.string(),
    username: z.string(),
    displayName: z.string(),
    passwordHash: z.string(),
  }),
  SuperAdminCredentialsChanged: z.object({
    superAdminId: z.string(),
    username: z.string(),
    passwordHash: z.string(),
  }),
  SuperAdminSignedIn: z.object({ superAdminId: z.string() }),
  /**
   * `consecutiveFailures` / `lockedUntil` (absent in events recorded before the lockout
   * existed): failures in a row on the super admin's own name, and until when sign-in is
   * refused after too many of them.
   */
  SuperAdminSignInFailed: z.object({
    superAdminId: z.string(),
    consecutiveFailures: z.number().int().min(0).optional(),
    lockedUntil: z.string().nullable().optional(),
  }),
  SubdomainReserved: z.object({ subdomain: z.string(), instanceId: z.string() }),
  CrmInstanceDeactivated: z.object({ instanceId: z.string(), displayName: z.string() }),
  CrmInstanceReactivated: z.object({ instanceId: z.string(), displayName: z.string() }),
  CrmInstanceCreated: z.object({
    instanceId: z.string(),
    name: z.string(),
    subdomain: z.string(),
    displayName: z.string(),
    description: z.string(),
    features: featuresSchema,
    /** IANA zone; absent on instances created before zones existed (they use the server's). */
    timeZone: z.string().optional(),
  }),
  /** The super admin changed an instance's settings: only the fields that changed. */
  CrmInstanceUpdated: z.object({
    instanceId: z.string(),
    /** The display name after the change (the timeline's label). */
    displayName: z.string(),
    changes: z.array(instanceFieldChangeSchema).min(1),
  }),
};
