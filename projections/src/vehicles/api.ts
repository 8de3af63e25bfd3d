import { z } from 'zod';
import { queryParam } from '../shared/list-query.ts';
import { atLeastOneFilled, blankOr, notAllBlanked, textInput } from '../shared/schemas.ts';
import {
  EMPTY_VEHICLE_FIELDS,
  isBlankVehicle,
  VEHICLE_FIELDS,
  VEHICLE_LIMITS,
  VEHICLE_MESSAGES,
  MILEAGE_TEXT_PATTERN,
  YEAR_TEXT_PATTERN,
  type VehicleFields,
} from './fields.ts';
import { checkVin } from './vin.ts';

/**
 * The vehicles' API contract: what their routes take and answer. The server validates
 * with these, the screens parse its answers with them, the OpenAPI document is made from
 * them. Browser-safe: zod only.
 */

// ---- requests -------------------------------------------------------------------------

/** A model year: a number, or its four digits as text (YEAR_TEXT_PATTERN); null or '' for none. */
const yearText = new RegExp(YEAR_TEXT_PATTERN);
const year = z
  .union([z.number(), z.string()], { error: VEHICLE_MESSAGES.year })
  .nullable()
  .transform((value, ctx) => {
    if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
    const number = typeof value === 'number' ? value : yearText.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(number) || number < VEHICLE_LIMITS.yearMin || number > VEHICLE_LIMITS.yearMax) {
      ctx.addIssue({ code: 'custom', message: VEHICLE_MESSAGES.year });
      return z.NEVER;
    }
    return number;
  })
  .meta(
    blankOr(
      { type: 'integer', minimum: VEHICLE_LIMITS.yearMin, maximum: VEHICLE_LIMITS.yearMax },
      { type: 'string', pattern: YEAR_TEXT_PATTERN },
    ),
  );

/** A VIN, checked (length, letters, North American check digit) and stored normalized; '' for none. */
export const vinInput = z
  .string({ error: 'VIN must be text' })
  .nullable()
  .transform((value, ctx) => {
    const text = (value ?? '').trim();
    if (text === '') return '';
    const check = checkVin(text);
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', message: check.message });
      return z.NEVER;
    }
    return check.vin;
  })
  // 17 letters (no I, O or Q) and digits, with any spaces or hyphens between them (taken out
  // when stored, as a VIN is often written in groups); the North American check digit is
  // checked beyond this.
  .meta(blankOr({ type: 'string', pattern: '^[\\s-]*(?:[A-HJ-NPR-Za-hj-npr-z0-9][\\s-]*){17}$' }));

/**
 * A plate is found by what is printed on it: a control or invisible character (a zero-width
 * space, a direction mark pasted along) would store a plate no search for its letters finds.
 * The same class is the document's pattern.
 */
const VISIBLE_CLASS = '[^\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff]';
const VISIBLE = new RegExp(`^${VISIBLE_CLASS}*$`);

const upper = (label: string, max: number) =>
  textInput(label, max)
    .refine((value) => VISIBLE.test(value), `${label} must not contain control or invisible characters`)
    .transform((value) => value.toUpperCase())
    .meta({ type: ['string', 'null'], maxLength: max, pattern: `^${VISIBLE_CLASS}*$` });

const fieldSchemas = {
  year,
  make: textInput('Make', VEHICLE_LIMITS.make),
  model: textInput('Model', VEHICLE_LIMITS.model),
  trim: textInput('Trim', VEHICLE_LIMITS.trim),
  vin: vinInput,
  plate: upper('Plate', VEHICLE_LIMITS.plate),
  plateState: upper('Plate state', VEHICLE_LIMITS.plateState),
  color: textInput('Color', VEHICLE_LIMITS.color),
  notes: textInput('Notes', VEHICLE_LIMITS.notes),
};

/** A change to a vehicle: a field left out stays as it is; null or '' clears it. Unknown fields are refused. */
export const vehicleChangesInput = z
  .strictObject({
    year: fieldSchemas.year.optional(),
    make: fieldSchemas.make.optional(),
    model: fieldSchemas.model.optional(),
    trim: fieldSchemas.trim.optional(),
    vin: fieldSchemas.vin.optional(),
    plate: fieldSchemas.plate.optional(),
    plateState: fieldSchemas.plateState.optional(),
    color: fieldSchemas.color.optional(),
    notes: fieldSchemas.notes.optional(),
  })
  .meta(notAllBlanked(['year', 'make', 'model', 'vin', 'plate']));
export type VehicleChanges = Partial<VehicleFields>;
export type VehicleChangesInput = z.input<typeof vehicleChangesInput>;

/** A new vehicle: at least one of year, make, model, VIN or plate. */
export const vehicleInput = vehicleChangesInput
  .transform((value): VehicleFields => {
    const fields: VehicleFields = { ...EMPTY_VEHICLE_FIELDS };
    for (const field of VEHICLE_FIELDS) if (value[field] !== undefined) Object.assign(fields, { [field]: value[field] });
    return fields;
  })
  .superRefine((fields, ctx) => {
    if (isBlankVehicle(fields)) ctx.addIssue({ code: 'custom', message: VEHICLE_MESSAGES.atLeastOne, path: ['make'] });
  })
  .meta(atLeastOneFilled(['year', 'make', 'model', 'vin', 'plate']));
export type VehicleInput = z.input<typeof vehicleInput>;

/**
 * Search text of at least two characters once the spaces around it are trimmed: two
 * non-space characters, as the published pattern says (a length alone would let the API
 * document offer " x", which the server refuses).
 */
const SEARCH_TEXT_PATTERN = '\\S[\\s\\S]*\\S';

/** `?q=`: a whole VIN, its last 6 or 8 characters, or (part of) a plate. */
export const vehicleSearchQuery = z.strictObject({
  q: queryParam('q')
    .trim()
    .min(2, VEHICLE_MESSAGES.searchTooShort)
    .max(VEHICLE_LIMITS.search, `Search text must be at most ${VEHICLE_LIMITS.search} characters`)
    .meta({ pattern: SEARCH_TEXT_PATTERN }),
});

const mileageText = new RegExp(MILEAGE_TEXT_PATTERN);

/** An odometer reading: a whole number, or its digits as text (MILEAGE_TEXT_PATTERN); null or '' for none. */
export const mileageInput = (label: string) =>
  z
    .union([z.number(), z.string()], { error: `${label}: ${VEHICLE_MESSAGES.mileage}` })
    .nullable()
    .transform((value, ctx) => {
      if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
      const number = typeof value === 'number' ? value : mileageText.test(value) ? Number(value.replace(/[,\s]/g, '')) : NaN;
      if (!Number.isInteger(number) || number < 0 || number > VEHICLE_LIMITS.mileageMax) {
        ctx.addIssue({ code: 'custom', message: `${label}: ${VEHICLE_MESSAGES.mileage}` });
        return z.NEVER;
      }
      return number;
    })
    .meta(blankOr({ type: 'integer', minimum: 0, maximum: VEHICLE_LIMITS.mileageMax }, { type: 'string', pattern: MILEAGE_TEXT_PATTERN }));

// ---- responses ------------------------------------------------------------------------

export const vinDecodedSchema = z.object({
  year: z.number().int().nullable(),
  make: z.string().nullable(),
  country: z.string().nullable(),
  checkDigit: z.enum(['valid', 'not-verified']),
});

/**
 * A vehicle. `year` and `make` are as typed; `decoded` is what its VIN says (model year,
 * manufacturer, country), null without a VIN; `vinWarning` says when the check digit
 * could not be verified (a VIN from outside North America).
 */
export const vehicleViewSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  label: z.string(),
  year: z.number().int().nullable(),
  make: z.string(),
  model: z.string(),
  trim: z.string(),
  vin: z.string(),
  plate: z.string(),
  plateState: z.string(),
  color: z.string(),
  notes: z.string(),
  decoded: vinDecodedSchema.nullable(),
  vinWarning: z.string().nullable(),
  /** The latest odometer reading recorded on it (null before any). */
  lastMileage: z.number().int().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastModifiedAt: z.string(),
  lastModifiedBy: z.string(),
  /** The vehicle's stream revision, also its ETag: send it back as If-Match. */
  revision: z.number().int().nonnegative().optional(),
});
export type VehicleView = z.infer<typeof vehicleViewSchema>;

export const vehicleListSchema = z.object({ items: z.array(vehicleViewSchema) });
export type VehicleList = z.infer<typeof vehicleListSchema>;

/**
 * One entry of a vehicle's service history: a job on it, an estimate sent or an invoice issued
 * for one of those jobs, or a change of the vehicle itself (its notes among them).
 */
export const vehicleHistoryItemSchema = z.object({
  kind: z.enum(['job', 'estimate', 'invoice', 'vehicle']),
  /** The job's id (kind job), the event's (kind vehicle), or the job's with the estimate version / invoice number. */
  id: z.string(),
  /** The job it belongs to (kinds job, estimate and invoice). */
  jobId: z.string().nullable().optional(),
  /**
   * ISO time it happened. A job: its appointment once that has come, else when it was
   * created; a job booked for later is never dated in the future (see `upcoming`).
   */
  at: z.string(),
  title: z.string(),
  /** Words: the job's stage, part and quote; or the fields changed. */
  detail: z.string(),
  jobNumber: z.string().nullable(),
  stage: z.string().nullable(),
  quote: z.string().nullable(),
  mileageIn: z.number().int().nullable(),
  mileageOut: z.number().int().nullable(),
  by: z.string(),
  /** A job's appointment (ISO), past or future; null for other kinds and unbooked jobs. */
  appointment: z.string().nullable(),
  /** A job whose appointment is still ahead: a visit to come, not service done. */
  upcoming: z.boolean(),
});
export type VehicleHistoryItem = z.infer<typeof vehicleHistoryItemSchema>;

/** Everything on a vehicle, newest first. */
export const vehicleJobsSchema = z.object({ items: z.array(vehicleHistoryItemSchema) });
export type VehicleJobs = z.infer<typeof vehicleJobsSchema>;

export const vehicleDeletedSchema = z.object({ deleted: z.literal(true) });
