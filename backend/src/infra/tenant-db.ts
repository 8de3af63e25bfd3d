import { isUuid } from '@crm/projections/shared';
import type { Knex } from 'knex';

/**
 * Runs read-model queries for one instance: as role crm_api (which row-level security
 * binds) with the instance set for this transaction only. A query that forgets its
 * instance filter still returns only this instance's rows.
 *
 * The role and the instance are set in one round trip: one simple-protocol query with two
 * statements. That protocol takes no parameters, so the instance id goes in as a literal,
 * and only a UUID (checked here) ever does.
 */
export async function withTenant<T>(knex: Knex, instanceId: string, fn: (db: Knex.Transaction) => Promise<T>): Promise<T> {
  if (!isUuid(instanceId)) throw new Error('withTenant: the instance id is not a UUID');
  return await knex.transaction(async (trx) => {
    await trx.raw(`SET LOCAL ROLE crm_api; SELECT set_config('app.instance_id', '${instanceId.toLowerCase()}', true)`);
    return await fn(trx);
  });
}
