import { z } from 'zod';
import { pageLimitQuery } from '../shared/list-query.ts';
import { phoneInput } from '../shared/phone.ts';
import { EMPTY_JOB_FIELDS, isBlankJob, JOB_LIMITS, JOB_MESSAGES, type JobFields } from './fields.ts';
import { INVALID_JOB_TYPE_MESSAGE, INVALID_STAGE_MESSAGE, normalizeJobType, normalizeStage, type Stage } from './stages.ts';

/**
 * The pipeline's input schemas: a job as a form sends it, a stage change, the list's query
 * string. The server validates with them; the screens check a quote with parseQuote.
 * Browser-safe: zod only.
 */

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .nullable()
    .transform((value) => (value ?? '').trim())
    .pipe(z.string().max(max, `${label} must be at most ${max} characters`));

/** Blank means "assign the next number" on create and "keep it" on update. Numbers are accepted too. */
const jobNumber = z
  .union([z.string(), z.number().int().nonnegative(), z.null()], { error: 'Job number must be text' })
  .transform((value) => (value === null ? '' : String(value).trim()))
  .pipe(
    z
      .string()
      .max(JOB_LIMITS.jobNumber, `Job number must be at most ${JOB_LIMITS.jobNumber} characters`)
      // eslint-disable-next-line no-control-regex
      .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'Job number must not contain control characters'),
  );

const phone = phoneInput('Phone must be text');

/**
 * Dollars and cents, as typed: `1250`, `1,250.50`, `$89.95` (thousands commas and a leading
 * `$` are read, never dropped character by character: what is refused is refused whole, so
 * a quote never changes from what the user meant). A non-negative number is accepted too.
 */
const QUOTE_TEXT = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** The quote in dollars with at most two decimals, or a message saying why not. */
export function parseQuote(value: string | number): { dollars: number } | { message: string } {
  let cents: number;
  if (typeof value === 'number') {
    cents = Math.round(value * 100);
    if (!Number.isFinite(value) || value < 0 || Math.abs(value * 100 - cents) > 1e-6) return { message: JOB_MESSAGES.quoteFormat };
  } else {
    const match = QUOTE_TEXT.exec(value.trim());
    if (!match) return { message: JOB_MESSAGES.quoteFormat };
    cents = Number(match[1]!.replaceAll(',', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  }
  if (cents > JOB_LIMITS.quoteMax * 100) return { message: JOB_MESSAGES.quoteTooLarge };
  return { dollars: cents / 100 };
}

const quote = z.union([z.string(), z.number(), z.null()], { error: JOB_MESSAGES.quoteFormat }).transform((value, ctx): number | null => {
  if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
  const parsed = parseQuote(value);
  if ('message' in parsed) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.dollars;
});

/** '' means "unchanged" (or Quote on create); anything else must name a stage. */
const stage = z.string({ error: INVALID_STAGE_MESSAGE }).transform((value, ctx): Stage | undefined => {
  if (value.trim() === '') return undefined;
  const normalized = normalizeStage(value);
  if (!normalized) {
    ctx.addIssue({ code: 'custom', message: INVALID_STAGE_MESSAGE });
    return z.NEVER;
  }
  return normalized;
});

const jobType = z
  .string({ error: INVALID_JOB_TYPE_MESSAGE })
  .nullable()
  .transform((value, ctx): string => {
    const trimmed = (value ?? '').trim();
    if (trimmed === '') return '';
    const normalized = normalizeJobType(trimmed);
    if (!normalized) {
      ctx.addIssue({ code: 'custom', message: INVALID_JOB_TYPE_MESSAGE });
      return z.NEVER;
    }
    return normalized;
  });

const isoDateTime = z.iso.datetime({ offset: true });

/** An ISO time with a zone (a zoneless time would be read in the server's zone, not the user's). */
const appointment = z
  .string({ error: JOB_MESSAGES.appointment })
  .nullable()
  .transform((value, ctx): string | null => {
    const trimmed = (value ?? '').trim();
    if (trimmed === '') return null;
    if (!isoDateTime.safeParse(trimmed).success) {
      ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.appointment });
      return z.NEVER;
    }
    return new Date(trimmed).toISOString();
  });

const duration = z.union([z.number(), z.string(), z.null()], { error: JOB_MESSAGES.duration }).transform((value, ctx): number | null => {
  if (value === null) return null;
  const raw = typeof value === 'string' ? value.trim() : value;
  if (raw === '') return null;
  const minutes = typeof raw === 'string' ? (/^\d+$/.test(raw) ? Number(raw) : Number.NaN) : raw;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > JOB_LIMITS.durationMax) {
    ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.duration });
    return z.NEVER;
  }
  return minutes;
});

const customerId = z
  .string({ error: JOB_MESSAGES.customerId })
  .nullable()
  .transform((value) => (value ?? '').trim())
  .refine((value) => value === '' || z.uuid().safeParse(value).success, JOB_MESSAGES.customerId)
  .transform((value) => (value === '' ? null : value.toLowerCase()));

/**
 * A pipeline entry as a form sends it. A field left out stays as it is (or takes its
 * default on create); null or '' clears it. Unknown keys (id, createdAt, revision, … sent
 * back by a form) are ignored.
 */
export const jobChangesInput = z
  .object({
    jobNumber: jobNumber.optional(),
    name: text('Name', JOB_LIMITS.name).optional(),
    phone: phone.optional(),
    part: text('Part', JOB_LIMITS.part).optional(),
    makeModel: text('Vehicle', JOB_LIMITS.makeModel).optional(),
    quote: quote.optional(),
    stage: stage.optional(),
    vin: text('VIN', JOB_LIMITS.vin)
      .transform((value) => value.toUpperCase())
      .optional(),
    csr: text('CSR', JOB_LIMITS.csr).optional(),
    jobType: jobType.optional(),
    appointment: appointment.optional(),
    duration: duration.optional(),
    tech: text('Tech', JOB_LIMITS.tech).optional(),
    notes: text('Notes', JOB_LIMITS.notes).optional(),
    customerId: customerId.optional(),
  })
  .transform((value): Partial<JobFields> => {
    // Keys whose value came out undefined ('' stage) are "left out".
    const changes: Partial<JobFields> = {};
    for (const [key, fieldValue] of Object.entries(value)) {
      if (fieldValue !== undefined) (changes as Record<string, unknown>)[key] = fieldValue;
    }
    return changes;
  });
export type JobChangesInput = z.input<typeof jobChangesInput>;

/** A new entry: defaults for what is left out, and not everything empty (spec §5). */
export const jobInput = jobChangesInput
  .transform((changes): JobFields => ({ ...EMPTY_JOB_FIELDS, ...changes }))
  .superRefine((fields, ctx) => {
    if (isBlankJob(fields)) ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.atLeastOne, path: ['name'] });
  });
export type JobInput = z.input<typeof jobInput>;

export const stageInput = z.object({
  stage: z.string({ error: INVALID_STAGE_MESSAGE }).transform((value, ctx): Stage => {
    const normalized = normalizeStage(value);
    if (!normalized) {
      ctx.addIssue({ code: 'custom', message: INVALID_STAGE_MESSAGE });
      return z.NEVER;
    }
    return normalized;
  }),
});

// ---- list queries ---------------------------------------------------------------------

/** `stage`: board order, then newest. Maven's "Stage A-Z" is the board order too. */
export const JOB_SORTS = ['stage', 'newest', 'oldest', 'name-asc', 'name-desc'] as const;
export type JobSort = (typeof JOB_SORTS)[number];

/** `hide` (default): everything but Canceled; `only`: Canceled only (the toggle); `include`: all. */
export const CANCELED_FILTERS = ['hide', 'only', 'include'] as const;
export type CanceledFilter = (typeof CANCELED_FILTERS)[number];

export const JOB_PAGE_SIZE = 50;
export const JOB_PAGE_SIZE_MAX = 200;
export const JOB_SEARCH_MAX = 200;

const queryText = (label: string, max: number) =>
  z.string({ error: `${label} must be given once` }).max(max, `${label} must be at most ${max} characters`);

export const jobListQuery = z.object({
  q: queryText('q', JOB_SEARCH_MAX)
    .transform((value) => value.trim())
    .optional(),
  stage: z
    .string({ error: 'stage must be given once' })
    .transform((value, ctx): Stage | undefined => {
      if (value.trim() === '' || value.trim().toLowerCase() === 'all') return undefined;
      const normalized = normalizeStage(value);
      if (!normalized) {
        ctx.addIssue({ code: 'custom', message: INVALID_STAGE_MESSAGE });
        return z.NEVER;
      }
      return normalized;
    })
    .optional(),
  sort: z.enum(JOB_SORTS, { error: `sort must be one of: ${JOB_SORTS.join(', ')}` }).default('stage'),
  canceled: z.enum(CANCELED_FILTERS, { error: `canceled must be one of: ${CANCELED_FILTERS.join(', ')}` }).default('hide'),
  /** Only the jobs linked to this customer. */
  customerId: z.uuid({ error: 'customerId must be a customer id' }).optional(),
  limit: pageLimitQuery(JOB_PAGE_SIZE_MAX).default(JOB_PAGE_SIZE),
  cursor: queryText('cursor', 500).optional(),
});
export type JobListQuery = z.output<typeof jobListQuery>;
