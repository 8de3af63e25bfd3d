import { type JobPage, type JobView, normalizeStage, type Stage, STAGES } from '@crm/projections/pipeline';
import { z } from 'zod';

const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? '' : String(value)));

/** A canonical stage; an unknown one (older data) reads as the first stage, like the spec's dropdown fallback. */
const stage = z
  .string()
  .nullish()
  .transform((value): Stage => normalizeStage(value ?? '') ?? STAGES[0]);

/**
 * A pipeline job as the API returns it (DECISIONS.md §3: masked phone in lists, whole on
 * one job). Tolerates numbers where text is expected and missing optional fields.
 */
export const jobViewSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  jobNumber: text,
  name: text,
  phone: text,
  part: text,
  makeModel: text,
  quote: text,
  stage,
  vin: text,
  csr: text,
  jobType: text,
  appointment: text,
  duration: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((value) => {
      if (value === null || value === undefined || value === '') return null;
      const minutes = Number(value);
      return Number.isFinite(minutes) ? minutes : null;
    }),
  tech: text,
  notes: text,
  customerId: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => (value === null || value === undefined || value === '' ? null : String(value))),
  createdAt: text,
  createdBy: text,
  updatedAt: text,
  revision: z
    .number()
    .int()
    .nullish()
    .transform((value) => value ?? 0),
}) satisfies z.ZodType<JobView, unknown>;

export const jobPageSchema = z.object({
  items: z.array(jobViewSchema),
  nextCursor: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
  total: z.number().int().nonnegative(),
}) satisfies z.ZodType<JobPage, unknown>;

const changeValue = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .optional()
  .transform((value) => value ?? null);

export const jobHistoryEntrySchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  action: z.string(),
  userDisplayName: text,
  timestamp: z.string(),
  changes: z
    .array(z.object({ field: z.string(), oldValue: changeValue, newValue: changeValue }))
    .nullish()
    .transform((value) => value ?? []),
});

export type JobHistoryRow = z.output<typeof jobHistoryEntrySchema>;

export const jobHistorySchema = z.array(jobHistoryEntrySchema);
