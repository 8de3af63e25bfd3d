import type { Knex } from 'knex';

/**
 * How many requests the public page takes in a window: per client IP (every post), and per
 * instance the number of addresses whose requests were stored. A person asks for a service
 * a few times at most; a shop hears from a few dozen people an hour at its busiest. Past
 * either limit the page answers 429, so it cannot be used to flood a shop (at most
 * perInstance × perIp stored requests an hour), and a handful of addresses cannot close it.
 */
export const PUBLIC_REQUEST_LIMITS = {
  windowMs: 60 * 60_000,
  perIp: 5,
  perInstance: 30,
} as const;

export const PUBLIC_REQUEST_LIMIT_MESSAGE = 'Too many requests were sent from here. Please try again later or call the shop.';

/**
 * Counts one hit per key, in order, each in its fixed window (in PostgreSQL: every API
 * process shares the count). Answers null within every limit, else the seconds until the
 * window ends. A key past its limit stops the count there: one visitor flooding the page
 * uses up their own window, not the shop's, so the shop's other customers still get
 * through. Windows older than a day are swept now and then.
 */
export async function countPublicRequest(
  knex: Knex,
  limits: Array<{ key: string; max: number }>,
  now = Date.now(),
): Promise<number | null> {
  const windowStart = new Date(Math.floor(now / PUBLIC_REQUEST_LIMITS.windowMs) * PUBLIC_REQUEST_LIMITS.windowMs);
  let refusedUntil: Date | null = null;
  for (const { key, max } of limits) {
    const result = await knex.raw<{ rows: Array<{ hits: number }> }>(
      `INSERT INTO public.public_request_hits AS h (key, window_start, hits) VALUES (?, ?, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET hits = h.hits + 1
         RETURNING hits`,
      [key, windowStart],
    );
    if ((result.rows[0]?.hits ?? 0) > max) {
      refusedUntil = new Date(windowStart.getTime() + PUBLIC_REQUEST_LIMITS.windowMs);
      break;
    }
  }
  if (Math.random() < 0.02) {
    await knex.raw("DELETE FROM public.public_request_hits WHERE window_start < now() - interval '1 day'");
  }
  return refusedUntil ? Math.max(1, Math.ceil((refusedUntil.getTime() - now) / 1000)) : null;
}
