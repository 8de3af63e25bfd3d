import { z } from 'zod';
import { featuresSchema } from './instances.ts';

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
  SuperAdminSignInFailed: z.object({ superAdminId: z.string() }),
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
};
