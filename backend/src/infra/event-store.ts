import type { EventStore } from '@crm/projections/eventstore/port';
import { createEventStoreDbEventStore } from '@crm/projections/eventstore/eventstoredb';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import type { Config } from '../config.ts';

/** EventStoreDB when EVENTSTORE_URL is set; the PostgreSQL events table otherwise. */
export function openEventStore(config: Config, databaseUrl: string): EventStore {
  return config.EVENTSTORE_URL
    ? createEventStoreDbEventStore(config.EVENTSTORE_URL, { streamPrefix: config.EVENTSTORE_STREAM_PREFIX })
    : createPostgresEventStore({ connectionString: databaseUrl });
}
