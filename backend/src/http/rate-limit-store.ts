import type { Knex } from 'knex';
import type { Context } from 'koa';
import { TooManyRequestsError } from '../shared/errors.ts';

export interface SharedRateLimiter {
  /** Counts one attempt for the key (the client IP unless given); throws 429 past the limit. */
  check(ctx: Context, key?: string): Promise<void>;
}

/**
 * Fixed-window limiter kept in PostgreSQL (`rate_limits`), so every API process behind the
 * load balancer counts into the same window: running more processes does not multiply the
 * attempts a client gets. One statement per attempt counts it, starting a new window when
 * the old one is over; the database's clock decides, so processes' clocks need not agree.
 * `name` keeps the limiters apart (instance sign-in, super-admin sign-in, PIN changes).
 */
export function createSharedRateLimiter(knex: Knex, name: string, options: { windowMs: number; max: number }): SharedRateLimiter {
  const windowSeconds = options.windowMs / 1000;
  return {
    async check(ctx, key = ctx.ip) {
      const result = await knex.raw<{ rows: Array<{ hits: number; retry_after: string }> }>(
        `INSERT INTO rate_limits AS r (key, hits, reset_at)
         VALUES (?, 1, clock_timestamp() + make_interval(secs => ?))
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN r.reset_at <= clock_timestamp() THEN 1 ELSE r.hits + 1 END,
           reset_at = CASE WHEN r.reset_at <= clock_timestamp() THEN excluded.reset_at ELSE r.reset_at END
         RETURNING hits, ceil(extract(epoch FROM reset_at - clock_timestamp()))::text AS retry_after`,
        [`${name}:${key}`, windowSeconds],
      );
      const row = result.rows[0];
      if (row && row.hits > options.max) {
        ctx.set('Retry-After', String(Math.max(1, Number(row.retry_after))));
        throw new TooManyRequestsError();
      }
    },
  };
}

/** Drops windows that are over (the runtime's sweeper calls it with the expired sessions). */
export async function purgeExpiredRateLimits(knex: Knex): Promise<number> {
  return await knex('rate_limits').where('reset_at', '<=', knex.fn.now()).delete();
}
