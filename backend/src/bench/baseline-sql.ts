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
