import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '../eventstore/port.ts';

/**
 * The metadata of an event a test writes to the store by hand (not through a command): the
 * system as its actor, a fresh correlation id, now as its time, schema version 1.
 */
export function testEventMetadata(instanceId: string | null, overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    instanceId,
    actor: { kind: 'system', id: 'test', displayName: 'Test' },
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
    ...overrides,
  };
}
