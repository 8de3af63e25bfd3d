import { z } from 'zod';

/** A paged list's `?limit=`: given once, a whole number from 1 to `max`. */
export const pageLimitQuery = (max: number) =>
  z
    .string({ error: 'limit must be given once' })
    .regex(/^\d+$/, `limit must be a whole number from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `limit must be a whole number from 1 to ${max}`).max(max, `limit must be at most ${max}`));
