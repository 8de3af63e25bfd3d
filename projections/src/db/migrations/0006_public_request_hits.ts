import type { Knex } from 'knex';

/**
 * Counters of the public request page's rate limits (per client IP, per instance), one row
 * per key and fixed window. In PostgreSQL, not in memory, so the limit holds whichever API
 * process a visitor reaches. Not a read model: a rebuild never touches it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE IF NOT EXISTS public.public_request_hits (
      key text NOT NULL,
      window_start timestamptz NOT NULL,
      hits integer NOT NULL,
      PRIMARY KEY (key, window_start)
    )`);
  await knex.raw('CREATE INDEX IF NOT EXISTS public_request_hits_window ON public.public_request_hits (window_start)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS public.public_request_hits');
}
