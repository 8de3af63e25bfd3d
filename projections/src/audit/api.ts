import { z } from 'zod';
import type { ActorKind } from '../eventstore/port.ts';
import { isoTimeQuery, pageLimitQuery, queryParam } from '../shared/list-query.ts';
import { fieldChangeFromStored, storedFieldChange, type StoredFieldChange as SharedStoredFieldChange } from '../shared/timeline.ts';

/**
 * The admins' audit log and the dashboard's Recent Activity: the instance timeline the
 * activity read model holds, one entry per event in words. Its API contract: the query
 * strings the routes take and what they answer with (the screens parse with these, the
 * OpenAPI document is made from them). Browser-safe: zod only.
 */

/** What an entry can be about (the entity filter's choices). */
export const AUDIT_ENTITY_TYPES = ['job', 'customer', 'user', 'instance', 'serviceRequest', 'vehicle'] as const;

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_SIZE_MAX = 200;
/** The CSV export holds at most this many entries (newest first); narrow the filters for more. */
export const AUDIT_CSV_MAX_ROWS = 50_000;
export const RECENT_ACTIVITY_COUNT = 10;

/** Query strings: '' means "not given"; a repeated parameter is a mistake. */
const optionalText = (name: string, max: number) =>
  queryParam(name)
    .max(max, `${name} must be at most ${max} characters`)
    .transform((value) => value.trim() || undefined)
    .optional();

/** A range end: '' is "not given"; else the one time parser, which also takes a date alone (that day, UTC). */
const optionalTime = (name: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    isoTimeQuery(name, { dateAlone: true }).optional(),
  );

export const auditFilterQuery = z
  .object({
    entityType: optionalText('entityType', 50),
    /** The actor's id (a user id, or the super admin's / the system's). */
    userId: optionalText('userId', 100),
    /** Inclusive. */
    from: optionalTime('from'),
    /** Exclusive. */
    to: optionalTime('to'),
    /** Text in the summary, any case. */
    q: optionalText('q', 200),
  })
  .refine((f) => !f.from || !f.to || f.to.getTime() > f.from.getTime(), { message: 'to must be after from', path: ['to'] });
export type AuditFilter = z.output<typeof auditFilterQuery>;

export const auditPageQuery = z.object({
  limit: pageLimitQuery(AUDIT_PAGE_SIZE_MAX).default(AUDIT_PAGE_SIZE),
  cursor: queryParam('cursor').max(200, 'cursor is too long').optional(),
});

/** The audit log page's query string: the filters and the page (their messages in that order). */
export const auditLogQuery = z.intersection(auditFilterQuery, auditPageQuery);

// ---- responses ------------------------------------------------------------------------

const ACTOR_KINDS = ['superadmin', 'user', 'system'] as const satisfies readonly ActorKind[];

export const auditFieldChangeSchema = z.object({ field: z.string(), oldValue: z.unknown(), newValue: z.unknown() });
export type AuditFieldChange = z.infer<typeof auditFieldChangeSchema>;

/** A change as the activity table keeps it (compact: [field, oldValue, newValue] when whole). */
export type StoredFieldChange = SharedStoredFieldChange<AuditFieldChange>;
export { fieldChangeFromStored, storedFieldChange };

export const auditEntrySchema = z.object({
  /** The event's id. */
  id: z.string(),
  occurredAt: z.string(),
  actor: z.object({ kind: z.enum(ACTOR_KINDS), id: z.string(), displayName: z.string() }),
  entityType: z.string(),
  entityId: z.string(),
  eventType: z.string(),
  summary: z.string(),
  changes: z.array(auditFieldChangeSchema),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  /** Opaque; pass back as `cursor` (with the same filters) for older entries. Null at the end. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** The dashboard's Recent Activity: the newest entries (account changes only for user managers). */
export const recentActivitySchema = z.object({ items: z.array(auditEntrySchema) });
