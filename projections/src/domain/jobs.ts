import { z } from 'zod';
import { CUSTOMER_LIMITS, phoneDigits, phoneInput } from './customers.ts';
import { pageLimitQuery } from './list-query.ts';

/**
 * Pipeline jobs: stages, job types, the input schema and the pure helpers every side
 * shares (the server validates with them, the screens format with them). Browser-safe:
 * zod only. Phones use the customers' helpers (phoneInput, formatPhone, maskPhone in
 * customers.ts: one definition of a phone).
 */

// ---- stages (DECISIONS.md §2) ---------------------------------------------------------

/** Canonical stages in board order; Canceled is terminal and hidden by default. */
export const STAGES = [
  'Quote',
  'Parts Ordered',
  'Parts In',
  'Scheduled',
  'In Progress',
  'Completed',
  'Invoiced',
  'Paid',
  'Canceled',
] as const;
export type Stage = (typeof STAGES)[number];

export const CANCELED_STAGE = 'Canceled' satisfies Stage;
export const INITIAL_STAGE = 'Quote' satisfies Stage;
/** The dialog's stage bar and the board columns: every stage but Canceled. */
export const BOARD_STAGES = STAGES.filter((stage) => stage !== CANCELED_STAGE) as Exclude<Stage, 'Canceled'>[];

/** Older vocabularies (the specs' inline dropdown and Maven variant), normalised on input. */
const STAGE_ALIASES: Record<string, Stage> = {
  quoted: 'Quote',
  complete: 'Completed',
  cancelled: 'Canceled',
  approved: 'Parts Ordered',
  delivered: 'Completed',
};

export const INVALID_STAGE_MESSAGE = `Stage must be one of: ${STAGES.join(', ')}`;

/** Case, spaces, dashes and underscores do not matter: 'parts-ordered' is 'Parts Ordered'. */
const vocabularyKey = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

const STAGE_BY_KEY = new Map<string, Stage>([
  ...STAGES.map((stage) => [vocabularyKey(stage), stage] as const),
  ...Object.entries(STAGE_ALIASES).map(([alias, stage]) => [vocabularyKey(alias), stage] as const),
]);

/** The canonical stage for a typed one (aliases included), or null when it is none. */
export function normalizeStage(value: string): Stage | null {
  return STAGE_BY_KEY.get(vocabularyKey(value)) ?? null;
}

/** Position on the board: sorting by stage sorts by this. */
export function stageOrder(stage: Stage): number {
  return STAGES.indexOf(stage);
}

// ---- job types ------------------------------------------------------------------------

/**
 * One vocabulary for the pipeline's and the calendar's job types: the pipeline's four
 * plus the calendar's Pickup and Delivery. The calendar's 'in-shop' / 'mobile' / 'pickup'
 * / 'delivery' are accepted on input and normalised (case and separators do not matter).
 */
export const JOB_TYPES = ['In Shop', 'Floating Shop', 'Mobile', 'Floating Mobile', 'Pickup', 'Delivery'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const INVALID_JOB_TYPE_MESSAGE = `Job type must be one of: ${JOB_TYPES.join(', ')}`;

const JOB_TYPE_BY_KEY = new Map<string, JobType>(JOB_TYPES.map((type) => [vocabularyKey(type), type]));

export function normalizeJobType(value: string): JobType | null {
  return JOB_TYPE_BY_KEY.get(vocabularyKey(value)) ?? null;
}

/** Calendar-created appointments without a type are in-shop (spec §9). */
export const DEFAULT_CALENDAR_JOB_TYPE: JobType = 'In Shop';
/** An appointment without a duration lasts this long on the calendar (spec §9). */
export const DEFAULT_DURATION_MINUTES = 60;
export const DURATION_CHOICES = [30, 60, 90, 120, 180, 240, 480] as const;

// ---- fields ---------------------------------------------------------------------------

/**
 * A job's fields as recorded in events and read models. Phone is digits only; quote in
 * dollars with at most two decimals (null when empty); appointment an ISO time (null when none); duration minutes.
 */
export interface JobFields {
  jobNumber: string;
  name: string;
  phone: string;
  part: string;
  makeModel: string;
  quote: number | null;
  stage: Stage;
  vin: string;
  csr: string;
  /** A JobType, or '' for none. */
  jobType: string;
  appointment: string | null;
  duration: number | null;
  tech: string;
  notes: string;
  customerId: string | null;
}

export type JobField = keyof JobFields;

/** In entry-form order. */
export const JOB_FIELDS = [
  'jobNumber',
  'name',
  'phone',
  'part',
  'makeModel',
  'vin',
  'quote',
  'stage',
  'csr',
  'jobType',
  'appointment',
  'duration',
  'tech',
  'notes',
  'customerId',
] as const satisfies readonly JobField[];

/** Field names in words (history, audit log, forms). */
export const JOB_FIELD_LABELS: Record<JobField, string> = {
  jobNumber: 'Job Number',
  name: 'Name',
  phone: 'Phone',
  part: 'Part',
  makeModel: 'Vehicle',
  quote: 'Quote',
  stage: 'Stage',
  vin: 'VIN',
  csr: 'CSR',
  jobType: 'Job Type',
  appointment: 'Appointment',
  duration: 'Duration',
  tech: 'Tech',
  notes: 'Notes',
  customerId: 'Customer',
};

export const EMPTY_JOB_FIELDS: JobFields = {
  jobNumber: '',
  name: '',
  phone: '',
  part: '',
  makeModel: '',
  quote: null,
  stage: INITIAL_STAGE,
  vin: '',
  csr: '',
  jobType: '',
  appointment: null,
  duration: null,
  tech: '',
  notes: '',
  customerId: null,
};

/** Name and vehicle fit a customer's (a new entry's name creates its customer). */
export const JOB_LIMITS = {
  jobNumber: 50,
  name: CUSTOMER_LIMITS.name,
  part: 200,
  makeModel: CUSTOMER_LIMITS.vehicle,
  vin: 32,
  csr: 100,
  tech: 100,
  notes: 5000,
  quoteMax: 999_999_999,
  durationMax: 1440,
} as const;

export const JOB_MESSAGES = {
  atLeastOne: 'At least one field must be filled out',
  quoteFormat: 'Quote must be an amount in dollars, like 1250, 1,250.50 or 89.95 (at most 2 decimals)',
  quoteTooLarge: `Quote must be at most ${JOB_LIMITS.quoteMax.toLocaleString('en-US')} dollars`,
  appointment: 'Appointment must be an ISO date and time with a time zone, e.g. 2025-03-01T09:00:00Z',
  duration: `Duration must be a whole number of minutes from 1 to ${JOB_LIMITS.durationMax}`,
  customerId: 'customerId must be the id of a customer',
  notFound: 'Job not found',
  reopenOnlyCanceled: 'Only a canceled job can be reopened',
  numberInUse: (jobNumber: string) => `Job number ${jobNumber} is already in use`,
} as const;

/**
 * Fields that count as "filled out": everything but the stage, which always has a value,
 * and the CSR, which the entry dialog fills in with the signed-in user.
 */
export function isBlankJob(fields: Partial<JobFields>): boolean {
  return JOB_FIELDS.every((field) => {
    if (field === 'stage' || field === 'csr') return true;
    const value = fields[field];
    return value === undefined || value === null || value === '';
  });
}

/** A quote as the API and CSV carry it: dollars, with two decimals when there are cents. */
export function quoteText(dollars: number): string {
  const cents = Math.round(dollars * 100);
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/**
 * '$' and the amount with thousands separators, cents shown when there are any
 * (`$1,250`, `$89.95`); empty counts as 0 (spec §2).
 */
export function formatQuote(value: string | number | null | undefined): string {
  const parsed = typeof value === 'number' ? { dollars: Math.abs(value) } : value ? parseQuote(value) : { dollars: 0 };
  // Text that is no amount shows what its leading number says, like the spec's parseInt.
  const leading = Number.parseFloat(String(value ?? ''));
  const dollars = 'dollars' in parsed ? parsed.dollars : Number.isFinite(leading) && leading >= 0 ? leading : 0;
  const sign = typeof value === 'number' && value < 0 ? '-' : '';
  const [whole, cents] = quoteText(dollars).split('.');
  return `${sign}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${cents ? `.${cents}` : ''}`;
}

/** The entry dialog's phone box: digits only, grouped 3-3-4 with dashes as they are typed, at most 10. */
export function formatPhoneAsTyped(value: string): string {
  const digits = phoneDigits(value).slice(0, 10);
  if (digits.length <= 3) return digits;
  if (digits.length <= 6) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

// ---- input schema ---------------------------------------------------------------------

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

// ---- what the API returns -------------------------------------------------------------

/**
 * A pipeline job. `phone` is whole (digits) on single-job answers and masked
 * ('•••-•••-1234') in lists. `quote` is the digits ('' when empty), `appointment` an ISO
 * time or '', `duration` minutes or null. `revision` is what the ETag carries.
 */
export interface JobView {
  id: string;
  jobNumber: string;
  name: string;
  phone: string;
  part: string;
  makeModel: string;
  quote: string;
  stage: Stage;
  vin: string;
  csr: string;
  jobType: string;
  appointment: string;
  duration: number | null;
  tech: string;
  notes: string;
  customerId: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  revision: number;
}

export interface JobPage {
  items: JobView[];
  /** Opaque; pass back as `cursor` (with the same filters) for the next page. Null on the last page. */
  nextCursor: string | null;
  /** How many jobs match the filters. */
  total: number;
}

/** A field change in the API's representation of the field (quote as digits, appointment ISO or ''). */
export interface JobFieldChange {
  field: JobField;
  oldValue: string | number | null;
  newValue: string | number | null;
}

export const JOB_HISTORY_ACTIONS = ['created', 'updated', 'stage-changed', 'rescheduled', 'canceled', 'reopened', 'deleted'] as const;
export type JobHistoryAction = (typeof JOB_HISTORY_ACTIONS)[number];

export interface JobHistoryEntry {
  /** The event's id. */
  id: string;
  action: JobHistoryAction;
  userDisplayName: string;
  /** ISO time; `GET …/{id}?asOf=` with it shows the job right after this change. */
  timestamp: string;
  changes: JobFieldChange[];
}

/** A job on the calendar: the job plus where its block ends (start + duration, 60 min by default). */
export interface AppointmentView extends JobView {
  appointmentEnd: string;
}

/** A field's value as the API shows it. */
export function jobApiValue(field: JobField, value: JobFields[JobField]): string | number | null {
  switch (field) {
    case 'quote':
      return value === null ? '' : quoteText(value as number);
    case 'appointment':
      return value ?? '';
    default:
      return value;
  }
}

/** A choice in the entry dialog's CSR and Tech selects: an active user of the instance. */
export interface UserChoice {
  id: string;
  username: string;
  /** May be ''; show the username then. */
  displayName: string;
}
