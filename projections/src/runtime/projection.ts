import type { Knex } from 'knex';
import type { EventType, StoredDomainEvent } from '../events.ts';

export interface ProjectionContext {
  trx: Knex.Transaction;
  /** Schema of the read-model set being written: the live `rm` or a rebuild's. */
  schema: string;
  table(name: string): Knex.QueryBuilder;
}

/** A read model: applies events inside the projector's batch transaction. Handlers must
 * be idempotent (upserts keyed by ids) because a crashed batch is replayed. A reactor is
 * run the same way: its handler sends commands and keeps its own rows in the transaction. */
export interface Projection {
  name: string;
  /** Only events of these types are parsed and applied; every event when absent. */
  eventTypes?: readonly EventType[];
  apply(event: StoredDomainEvent, ctx: ProjectionContext): Promise<void>;
}

export function createProjectionContext(trx: Knex.Transaction, schema: string): ProjectionContext {
  return { trx, schema, table: (name) => trx.withSchema(schema).table(name) };
}
