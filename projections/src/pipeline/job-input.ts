import { z } from 'zod';
import { phoneInput } from '../shared/phone.ts';
import {
  atLeastOneFilled,
  blankOr,
  bodyObject,
  isStorableTime,
  isUuidInput,
  notAllBlanked,
  ONE_LINE_PATTERN,
  PHONE_FILLED_PATTERN,
  textInput,
  TIME_RANGE,
} from '../shared/schemas.ts';
import { mileageInput, VEHICLE_LIMITS } from '../vehicles/index.ts';
import { EMPTY_JOB_FIELDS, isBlankJob, JOB_FIELDS, JOB_LIMITS, JOB_MESSAGES, type JobFields } from './fields.ts';
import { parseQuote } from './format.ts';
import {
  INVALID_JOB_TYPE_MESSAGE,
  INVALID_STAGE_MESSAGE,
  JOB_TYPES,
  normalizeJobType,
  normalizeStage,
  STAGES,
  type Stage,
} from './stages.ts';

/** What a job's routes take: a job as a form sends it (each field's rules), a new job, a stage change. */

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
  )
  .meta({
    anyOf: [
      { type: 'string', maxLength: JOB_LIMITS.jobNumber, pattern: ONE_LINE_PATTERN },
      { type: 'integer', minimum: 0, maximum: 10 ** JOB_LIMITS.jobNumber - 1 },
      { type: 'null' },
    ],
  });

const phone = phoneInput('Phone must be text');

const quote = z
  .union([z.string(), z.number(), z.null()], { error: JOB_MESSAGES.quoteFormat })
  .transform((value, ctx): number | null => {
    if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
    const parsed = parseQuote(value);
    if ('message' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    return parsed.dollars;
  })
  .meta({
    // Dollars: a number with at most two decimals, or text like 1250, 1,250.50 or $89.95.
    anyOf: [
      { type: 'integer', minimum: 0, maximum: JOB_LIMITS.quoteMax },
      { type: 'string', pattern: '^\\s*\\$?\\s*\\d{1,9}(\\.\\d{1,2})?\\s*$' },
      { const: '' },
      { type: 'null' },
    ],
  });

/** '' means "unchanged" (or Quote on create); anything else must name a stage. */
const stage = z
  .string({ error: INVALID_STAGE_MESSAGE })
  .transform((value, ctx): Stage | undefined => {
    if (value.trim() === '') return undefined;
    const normalized = normalizeStage(value);
    if (!normalized) {
      ctx.addIssue({ code: 'custom', message: INVALID_STAGE_MESSAGE });
      return z.NEVER;
    }
    return normalized;
  })
  .meta({ enum: ['', ...STAGES] });

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
  })
  .meta(blankOr({ enum: [...JOB_TYPES] }));

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * Where an appointment may start: inside TIME_RANGE, a day before its end at the latest, so
 * that its end (start plus at most JOB_LIMITS.durationMax minutes) is inside it too.
 */
export const APPOINTMENT_RANGE = {
  min: TIME_RANGE.min,
  max: TIME_RANGE.max - JOB_LIMITS.durationMax * 60_000,
  message: `Appointment must be between ${TIME_RANGE.minText} and ${new Date(TIME_RANGE.max - JOB_LIMITS.durationMax * 60_000).toISOString().slice(0, 10)}`,
} as const;

/** Whether an appointment starting then ends (whatever its duration) inside what storage and the calendar hold. */
export function isStorableAppointment(ms: number): boolean {
  return isStorableTime(ms) && ms >= APPOINTMENT_RANGE.min && ms <= APPOINTMENT_RANGE.max;
}

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
    if (!isStorableAppointment(Date.parse(trimmed))) {
      ctx.addIssue({ code: 'custom', message: APPOINTMENT_RANGE.message });
      return z.NEVER;
    }
    return new Date(trimmed).toISOString();
  })
  .meta(blankOr({ type: 'string', format: 'date-time' }));

const duration = z
  .union([z.number(), z.string(), z.null()], { error: JOB_MESSAGES.duration })
  .transform((value, ctx): number | null => {
    if (value === null) return null;
    const raw = typeof value === 'string' ? value.trim() : value;
    if (raw === '') return null;
    const minutes = typeof raw === 'string' ? (/^\d+$/.test(raw) ? Number(raw) : Number.NaN) : raw;
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > JOB_LIMITS.durationMax) {
      ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.duration });
      return z.NEVER;
    }
    return minutes;
  })
  .meta(blankOr({ type: 'integer', minimum: 1, maximum: JOB_LIMITS.durationMax }));

const customerId = z
  .string({ error: JOB_MESSAGES.customerId })
  .nullable()
  .transform((value) => (value ?? '').trim())
  .refine((value) => value === '' || isUuidInput(value), JOB_MESSAGES.customerId)
  .transform((value) => (value === '' ? null : value.toLowerCase()))
  .meta(blankOr({ type: 'string', format: 'uuid' }));

const mileageLowerReason = textInput('Reason for the lower mileage', VEHICLE_LIMITS.mileageReason);

/** The confirmation a lower odometer reading needs, read from a job's body beside its fields. */
export const mileageConfirmationInput = z.object({ mileageLowerReason: mileageLowerReason.optional() });

const vehicleId = z
  .string({ error: JOB_MESSAGES.vehicleId })
  .nullable()
  .transform((value) => (value ?? '').trim())
  .refine((value) => value === '' || isUuidInput(value), JOB_MESSAGES.vehicleId)
  .transform((value) => (value === '' ? null : value.toLowerCase()))
  .meta(blankOr({ type: 'string', format: 'uuid' }));

/** The read-only fields a job answers with: a client may send the job back whole. */
export const JOB_ECHOED_FIELDS = ['id', 'createdAt', 'createdBy', 'updatedAt', 'revision', 'totals', 'appointmentEnd'] as const;

/** The fields of which a job needs one filled in (its stage and CSR always have a value). */
const FILLABLE_JOB_FIELDS = JOB_FIELDS.filter((field) => field !== 'stage' && field !== 'csr');

/**
 * A pipeline entry as a form sends it. A field left out stays as it is (or takes its
 * default on create); null or '' clears it. The job's read-only fields (id, createdAt,
 * revision, … sent back by a form) are ignored; any other field is a 400 naming it.
 */
export const jobChangesInput = bodyObject(
  {
    jobNumber: jobNumber.optional(),
    name: textInput('Name', JOB_LIMITS.name).optional(),
    phone: phone.optional(),
    part: textInput('Part', JOB_LIMITS.part).optional(),
    makeModel: textInput('Vehicle', JOB_LIMITS.makeModel).optional(),
    quote: quote.optional(),
    stage: stage.optional(),
    vin: textInput('VIN', JOB_LIMITS.vin)
      .transform((value) => value.toUpperCase())
      .optional(),
    csr: textInput('CSR', JOB_LIMITS.csr).optional(),
    jobType: jobType.optional(),
    appointment: appointment.optional(),
    duration: duration.optional(),
    tech: textInput('Tech', JOB_LIMITS.tech).optional(),
    notes: textInput('Notes', JOB_LIMITS.notes).optional(),
    customerId: customerId.optional(),
    vehicleId: vehicleId.optional(),
    mileageIn: mileageInput('Mileage in').optional(),
    mileageOut: mileageInput('Mileage out').optional(),
    /** Why a reading lower than the vehicle's last one is right (odometer replaced, a typo fixed): the confirmation it needs. Not a field of the job. */
    mileageLowerReason: mileageLowerReason.optional(),
  },
  JOB_ECHOED_FIELDS,
).transform((value): Partial<JobFields> => {
  // Keys whose value came out undefined ('' stage) are "left out".
  const changes: Partial<JobFields> = {};
  for (const [key, fieldValue] of Object.entries(value)) {
    if (key === 'mileageLowerReason') continue;
    if (fieldValue !== undefined) (changes as Record<string, unknown>)[key] = fieldValue;
  }
  return changes;
});
export type JobChangesInput = z.input<typeof jobChangesInput>;

/**
 * A service request's conversion takes a job's changes over the request's own fields: the
 * job may not come out blank. (A job's own update never does: its number stays.)
 */
export const jobConversionInput = jobChangesInput.meta(notAllBlanked(FILLABLE_JOB_FIELDS, { phone: PHONE_FILLED_PATTERN }));

/** A new entry: defaults for what is left out, and not everything empty. */
export const jobInput = jobChangesInput
  .transform((changes): JobFields => ({ ...EMPTY_JOB_FIELDS, ...changes }))
  .superRefine((fields, ctx) => {
    if (isBlankJob(fields)) ctx.addIssue({ code: 'custom', message: JOB_MESSAGES.atLeastOne, path: ['name'] });
  })
  .meta(atLeastOneFilled(FILLABLE_JOB_FIELDS, { phone: PHONE_FILLED_PATTERN }));
export type JobInput = z.input<typeof jobInput>;

export const stageInput = z.strictObject({
  stage: z
    .string({ error: INVALID_STAGE_MESSAGE })
    .transform((value, ctx): Stage => {
      const normalized = normalizeStage(value);
      if (!normalized) {
        ctx.addIssue({ code: 'custom', message: INVALID_STAGE_MESSAGE });
        return z.NEVER;
      }
      return normalized;
    })
    .meta({ enum: [...STAGES] }),
});
