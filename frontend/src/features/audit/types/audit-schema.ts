import type { AuditEntry, AuditPage } from '@crm/projections/audit';
import { z } from 'zod';

const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? '' : String(value)));

export const auditEntrySchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  occurredAt: z.string(),
  actor: z.object({
    kind: z.enum(['user', 'superadmin', 'system']).catch('system'),
    id: text,
    displayName: text,
  }),
  entityType: text,
  entityId: text,
  eventType: text,
  summary: text,
  changes: z
    .array(z.object({ field: z.string(), oldValue: z.unknown(), newValue: z.unknown() }))
    .nullish()
    .transform((value) => value ?? []),
}) satisfies z.ZodType<AuditEntry, unknown>;

export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  nextCursor: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
}) satisfies z.ZodType<AuditPage, unknown>;
