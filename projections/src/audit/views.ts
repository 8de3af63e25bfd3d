import type { ActorKind } from '../eventstore/port.ts';

/** What the audit log's and Recent Activity's routes answer with. Browser-safe. */

export interface AuditFieldChange {
  field: string;
  oldValue: unknown;
  newValue: unknown;
}

export interface AuditEntry {
  /** The event's id. */
  id: string;
  occurredAt: string;
  actor: { kind: ActorKind; id: string; displayName: string };
  entityType: string;
  entityId: string;
  eventType: string;
  summary: string;
  changes: AuditFieldChange[];
}

export interface AuditPage {
  items: AuditEntry[];
  /** Opaque; pass back as `cursor` (with the same filters) for older entries. Null at the end. */
  nextCursor: string | null;
}
