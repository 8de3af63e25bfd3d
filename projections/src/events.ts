import type { z } from 'zod';
import { customerEventSchemas } from './customers/events.ts';
import type { RecordedEvent } from './eventstore/port.ts';
import { identityEventSchemas } from './identity/events.ts';
import { messageEventSchemas } from './messages/events.ts';
import { jobEventSchemas } from './pipeline/events.ts';
import { platformEventSchemas } from './platform/events.ts';
import { repairOrderEventSchemas } from './repair-orders/events.ts';
import { serviceRequestEventSchemas } from './service-requests/events.ts';
import { vehicleEventSchemas } from './vehicles/events.ts';
import { UPCASTERS, upcastData, type UpcasterChains } from './upcasters.ts';

/**
 * The event catalogue: every slice's events in one union (each slice defines its own in
 * <slice>/events.ts). Deciders, projections and reactors type their events with it.
 */

/** Every event type of the product and the schema of its data. */
export const eventSchemas = {
  ...platformEventSchemas,
  ...identityEventSchemas,
  ...customerEventSchemas,
  ...jobEventSchemas,
  ...serviceRequestEventSchemas,
  ...repairOrderEventSchemas,
  ...messageEventSchemas,
  ...vehicleEventSchemas,
} as const;

export type EventType = keyof typeof eventSchemas;

/** Every event type, for a projection that reads them all (the activity log). */
export const EVENT_TYPES = Object.keys(eventSchemas) as EventType[];
export type EventData<T extends EventType> = z.infer<(typeof eventSchemas)[T]>;

/** A domain event as deciders produce it: a discriminated union on `type`. */
export type DomainEvent = { [K in EventType]: { type: K; data: EventData<K> } }[EventType];

export type DomainEventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

/** A stored event whose type is one of ours. */
export type StoredDomainEvent = { [K in EventType]: RecordedEvent<K, EventData<K>> }[EventType];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventSchemas, type);
}

/**
 * Validates a stored event against its schema, read in its current shape (an event of an
 * older schema version goes through its upcasters first, see upcasters.ts); unknown types
 * are skipped by callers.
 */
export function parseStoredEvent(event: RecordedEvent): StoredDomainEvent | null {
  return parseStoredEventWith(event, UPCASTERS);
}

/** parseStoredEvent with the given upcasters (tests of schema evolution). */
export function parseStoredEventWith(event: RecordedEvent, chains: UpcasterChains): StoredDomainEvent | null {
  if (!isEventType(event.type)) return null;
  const data = eventSchemas[event.type].parse(upcastData(event.type, event.metadata?.schemaVersion, event.data, chains));
  return { ...event, type: event.type, data } as StoredDomainEvent;
}

/**
 * The stream's events that pass their schemas, and those that do not (written by a buggy or
 * older writer straight into the log). Reads and commands fold only the first, as the read
 * models do (the projector parks the others); a history lists the others as changes that
 * could not be shown, so a record with one still answers instead of failing whole.
 */
export function readableEvents(recorded: RecordedEvent[]): { events: StoredDomainEvent[]; unreadable: RecordedEvent[] } {
  const events: StoredDomainEvent[] = [];
  const unreadable: RecordedEvent[] = [];
  for (const event of recorded) {
    let parsed: StoredDomainEvent | null;
    try {
      parsed = parseStoredEvent(event);
    } catch {
      unreadable.push(event);
      continue;
    }
    if (parsed) events.push(parsed);
  }
  return { events, unreadable };
}

/** A history row for an event that fails its schema: when and by whom, without its values. */
export function unshowableEntry(event: RecordedEvent): {
  id: string;
  action: 'unshowable';
  userDisplayName: string;
  timestamp: string;
  revision: number;
  changes: [];
  canRevert: false;
} {
  const actor = (event.metadata as { actor?: { displayName?: unknown } } | undefined)?.actor;
  return {
    id: event.id,
    action: 'unshowable',
    userDisplayName: typeof actor?.displayName === 'string' ? actor.displayName : '',
    timestamp: event.recordedAt.toISOString(),
    revision: event.revision,
    changes: [],
    canRevert: false,
  };
}
