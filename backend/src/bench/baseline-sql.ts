/** The baseline's own table: what its bare INSERT and UPDATE routes write (a job's size of JSON). */
export const BASELINE_TABLE = 'public.bench_baseline_jobs';

export const BASELINE_DDL = `
  CREATE TABLE IF NOT EXISTS ${BASELINE_TABLE} (
    id uuid PRIMARY KEY,
    instance_id uuid NOT NULL,
    data jsonb NOT NULL,
    revision integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`;

/**
 * The CRUD-equivalent baseline's tables: copies of the app's jobs, job history and activity
 * tables with the same columns, indexes and row-level security policy (the API role may write
 * them here), so its save costs what the same save costs a CRUD app on this schema.
 */
export const CRUD_TABLES = {
  jobs: 'public.bench_crud_jobs',
  history: 'public.bench_crud_job_history',
  activity: 'public.bench_crud_activity',
} as const;

const crudTable = (table: string, like: string) => `
  CREATE TABLE IF NOT EXISTS ${table} (LIKE ${like} INCLUDING ALL);
  ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
  CREATE POLICY tenant_isolation ON ${table} FOR ALL TO crm_api
    USING (instance_id = nullif(current_setting('app.instance_id', true), '')::uuid);
  GRANT SELECT, INSERT, UPDATE ON ${table} TO crm_api;`;

export const CRUD_DDL = [
  crudTable(CRUD_TABLES.jobs, 'rm.jobs'),
  crudTable(CRUD_TABLES.history, 'rm.job_history'),
  crudTable(CRUD_TABLES.activity, 'rm.activity'),
].join('\n');
