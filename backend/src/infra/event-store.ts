import type { Knex } from 'knex';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import type { EventStore } from '@crm/projections/eventstore/port';
import { createEventStoreDbEventStore } from '@crm/projections/eventstore/eventstoredb';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { inlineProjections } from '@crm/projections/read-models';
import type { Config } from '../config.ts';

/**
 * EventStoreDB when EVENTSTORE_URL is set; the PostgreSQL events table otherwise, whose
 * appends write the inline read models in their own transaction (through `knex`).
 */
export function openEventStore(config: Config, databaseUrl: string, knex: Knex): EventStore {
  return config.EVENTSTORE_URL
    ? createEventStoreDbEventStore(config.EVENTSTORE_URL, { streamPrefix: config.EVENTSTORE_STREAM_PREFIX })
    : createPostgresEventStore({
        connectionString: databaseUrl,
        inline: { knex, schema: READ_MODEL_SCHEMA, projections: inlineProjections },
      });
}
