import { type CrmInstanceView, normalizeSubdomain, parseFeatures } from '@crm/projections/platform';
import { z } from 'zod';

const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/**
 * An instance as the API returns it. Tolerates the specs' older shapes: features as a JSON
 * string, a missing subdomain (then the name lower-cased, a-z0-9 only).
 */
export const crmInstanceViewSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    name: z.string(),
    subdomain: text,
    displayName: text,
    description: text,
    features: z.unknown().transform(parseFeatures),
    isActive: z.boolean().optional().default(true),
    createdAt: text,
  })
  .transform((value): CrmInstanceView => ({
    ...value,
    subdomain: value.subdomain || normalizeSubdomain(value.name),
    displayName: value.displayName || value.name,
  }));

export const crmInstanceListSchema = z.array(crmInstanceViewSchema);
