import type { Knex } from 'knex';

/**
 * How often one address may open estimates and answer them, per hour (in PostgreSQL's
 * public_request_hits, shared by every API process like the public request page's limits):
 * a customer reloads their estimate a few times and answers it once; a token guesser is
 * stopped long before 192 random bits matter.
 */
export const PUBLIC_ESTIMATE_LIMITS = { windowMs: 60 * 60_000, view: 120, decide: 10 } as const;

/** Counts one hit; null within the limit, else the seconds until the window ends. */
export async function countPublicHits(knex: Knex, ip: string, kind: 'view' | 'decide', now = Date.now()): Promise<number | null> {
  const windowStart = new Date(Math.floor(now / PUBLIC_ESTIMATE_LIMITS.windowMs) * PUBLIC_ESTIMATE_LIMITS.windowMs);
  const result = await knex.raw<{ rows: Array<{ hits: number }> }>(
    `INSERT INTO public.public_request_hits AS h (key, window_start, hits) VALUES (?, ?, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET hits = h.hits + 1
       RETURNING hits`,
    [`estimate-${kind}:${ip}`, windowStart],
  );
  if ((result.rows[0]?.hits ?? 0) <= PUBLIC_ESTIMATE_LIMITS[kind]) return null;
  return Math.max(1, Math.ceil((windowStart.getTime() + PUBLIC_ESTIMATE_LIMITS.windowMs - now) / 1000));
}
