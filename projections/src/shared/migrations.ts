import type { Knex } from 'knex';

export interface SchemaMigration {
  name: string;
  up(knex: Knex, schema: string): Promise<void>;
}

/**
 * Row-level security: API queries run as role crm_api with `app.instance_id` set per
 * transaction, so a query that forgets its instance filter still sees only its tenant.
 * The projector writes as the table owner, which bypasses the policy.
 */
export async function isolateTenant(knex: Knex, schema: string, table: string): Promise<void> {
  await knex.raw('ALTER TABLE ??.?? ENABLE ROW LEVEL SECURITY', [schema, table]);
  await knex.raw(
    `CREATE POLICY tenant_isolation ON ??.?? FOR ALL TO crm_api
       USING (instance_id = nullif(current_setting('app.instance_id', true), '')::uuid)`,
    [schema, table],
  );
  await knex.raw('GRANT SELECT ON ??.?? TO crm_api', [schema, table]);
}
