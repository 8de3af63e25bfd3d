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

/**
 * A stored change list (jsonb array `column`) with each change that has exactly the keys
 * field, oldValue and newValue turned into [field, oldValue, newValue], the others as they
 * are, in their order: the SQL twin of timeline.ts's storedFieldChange, for the migrations
 * that compact the rows written before it (activity, job_history).
 */
export function compactChangeListSql(column: string): string {
  return `(SELECT jsonb_agg(CASE WHEN jsonb_typeof(e) = 'object' AND e -> 'field' IS NOT NULL
                                 AND e -> 'oldValue' IS NOT NULL AND e -> 'newValue' IS NOT NULL
                                 AND (SELECT count(*) FROM jsonb_object_keys(e)) = 3
                            THEN jsonb_build_array(e -> 'field', e -> 'oldValue', e -> 'newValue')
                            ELSE e END ORDER BY i)
             FROM jsonb_array_elements(${column}) WITH ORDINALITY AS x (e, i))`;
}
