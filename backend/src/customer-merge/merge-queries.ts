import type { Knex } from 'knex';
import { withTenant } from '../infra/tenant-db.ts';

/** The live jobs (canceled ones too) of a customer, from the read model the command settles. */
export async function customerJobIds(knex: Knex, instanceId: string, customerId: string): Promise<string[]> {
  const rows = (await withTenant(knex, instanceId, (db) =>
    db.withSchema('rm').from('jobs_of_instance').where({ instance_id: instanceId, customer_id: customerId }).select('id'),
  )) as Array<{ id: string }>;
  return rows.map((row) => row.id);
}
