import type { Knex } from 'knex';

/**
 * Runs read-model queries for one instance: as role crm_api (which row-level security
 * binds) with the instance set for this transaction only. A query that forgets its
 * instance filter still returns only this instance's rows.
 */
export async function withTenant<T>(knex: Knex, instanceId: string, fn: (db: Knex.Transaction) => Promise<T>): Promise<T> {
  return await knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL ROLE crm_api');
    await trx.raw(`SELECT set_config('app.instance_id', ?, true)`, [instanceId]);
    return await fn(trx);
  });
}
