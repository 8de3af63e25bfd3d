import type { Knex } from 'knex';
import type { StoredDomainEvent } from '../domain/events/index.ts';

export interface ProjectionContext {
  trx: Knex.Transaction;
  /** Schema of the read-model set being written: the live `rm` or a rebuild's. */
  schema: string;
  table(name: string): Knex.QueryBuilder;
}

/** A read model: applies events inside the projector's batch transaction. Handlers must
 * be idempotent (upserts keyed by ids) because a crashed batch is replayed. */
export interface Projection {
  name: string;
  apply(event: StoredDomainEvent, ctx: ProjectionContext): Promise<void>;
}

export function createProjectionContext(trx: Knex.Transaction, schema: string): ProjectionContext {
  return { trx, schema, table: (name) => trx.withSchema(schema).table(name) };
}
