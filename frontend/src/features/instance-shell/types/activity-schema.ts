import { z } from 'zod';

/** One line of Recent Activity: an event of the instance in words (DECISIONS.md §4). */
export const activityItemSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  summary: z.string(),
  actor: z
    .object({ displayName: z.string().nullish() })
    .nullish()
    .transform((actor) => ({ displayName: actor?.displayName ?? '' })),
  occurredAt: z.string(),
});

export type ActivityItem = z.output<typeof activityItemSchema>;

/** The list, bare or wrapped in `{ items }`. */
export const recentActivitySchema = z
  .union([z.array(activityItemSchema), z.object({ items: z.array(activityItemSchema) })])
  .transform((value) => (Array.isArray(value) ? value : value.items));
