import { z } from 'zod';
import { FILLED_TEXT_PATTERN } from './blank-text.ts';

/** A text field of a form: null or absent is '', trimmed, at most `max` characters; messages name the field. */
export const textInput = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .nullable()
    .transform((value) => (value ?? '').trim())
    .pipe(z.string().max(max, `${label} must be at most ${max} characters`))
    // The document states the bound on what is sent (the server trims it first).
    .meta({ type: ['string', 'null'], maxLength: max });

/**
 * Whether a text is a UUID as the API takes ids: zod's RFC 9562 check (version and variant
 * digits included), stricter than the shape test of shared/ids.ts that reads stored ids.
 * The schema is made once: made inside a refinement, it was made again for every value.
 */
const UUID_CHECK = z.uuid();
export const isUuidInput = (value: string): boolean => UUID_CHECK.safeParse(value).success;

/**
 * The instants the API takes and storage holds, one range for every time a command stores
 * and every time a query names. PostgreSQL reads ISO text for years 0001 to 9999 only
 * (toISOString writes year 0 as `0000` and year 10000 as `+010000`, both refused), and a
 * shop's calendar turns instants into local days and weeks in any time zone, so the range
 * keeps a margin of a day or more on both sides. An appointment's end (its start plus its
 * duration) must fall inside too.
 */
export const TIME_RANGE = {
  min: Date.UTC(1900, 0, 1),
  max: Date.UTC(9999, 11, 30),
  minText: '1900-01-01',
  maxText: '9999-12-30',
} as const;

/** Whether an instant (milliseconds) is inside TIME_RANGE. */
export function isStorableTime(ms: number): boolean {
  return Number.isFinite(ms) && ms >= TIME_RANGE.min && ms <= TIME_RANGE.max;
}

/** The message of a time outside TIME_RANGE, naming the field. */
export const timeRangeMessage = (label: string) => `${label} must be between ${TIME_RANGE.minText} and ${TIME_RANGE.maxText}`;

/** An instant clamped into TIME_RANGE (a range the server widens from one end, e.g. six weeks from `from`). */
export function clampTime(date: Date): Date {
  return new Date(Math.min(TIME_RANGE.max, Math.max(TIME_RANGE.min, date.getTime())));
}

/**
 * A JSON body's object: a field it does not name is a 400 naming that field (a typo such
 * as `phoen` would otherwise be dropped in silence). `echoed` are the read-only fields the
 * record answers with (id, createdAt, revision, …): a client may send the record back
 * whole, so those are taken and dropped, and nothing else is.
 */
export function bodyObject<S extends z.ZodRawShape>(shape: S, echoed: readonly string[] = []) {
  const echo: Record<string, z.ZodType> = {};
  for (const key of echoed)
    echo[key] = z.unknown().optional().meta({ description: 'Read-only: accepted back with the record and ignored' });
  return z.strictObject({ ...shape, ...echo }).transform((value) => {
    const kept: Record<string, unknown> = { ...value };
    for (const key of echoed) delete kept[key];
    return kept as z.output<z.ZodObject<S, z.core.$strict>>;
  });
}

/**
 * How the API document states "at least one of these fields filled in" (a refinement, which
 * JSON Schema cannot see): one of them present and not blank — text with something to
 * read in it (isBlankText; or what `filledPatterns` says filled is for a field, e.g. a phone's digit), or a
 * non-empty list. Put on the input schema with `.meta(...)` next to the refinement.
 */
export function atLeastOneFilled(fields: readonly string[], filledPatterns: Readonly<Record<string, string>> = {}) {
  return { anyOf: fields.map((field) => ({ required: [field], properties: { [field]: filledValue(filledPatterns[field]) } })) };
}

/**
 * How the API document states "a change must not blank every one of these fields" on an
 * update, whose refinement runs on the record after the change: one of them left out (kept
 * as stored) or sent filled (`filledPatterns` as for {@link atLeastOneFilled}). A change that
 * blanks only the fields the record has filled is refused too; that depends on what is
 * stored, so the operation's summary says it in words.
 */
export function notAllBlanked(fields: readonly string[], filledPatterns: Readonly<Record<string, string>> = {}) {
  return { anyOf: fields.map((field) => ({ properties: { [field]: filledValue(filledPatterns[field]) } })) };
}

/** A field's value that counts as filled in: text with something to read (or `pattern`), a number, or a non-empty list. */
function filledValue(pattern = FILLED_TEXT_PATTERN) {
  return { type: ['string', 'array', 'number'], minLength: 1, pattern, minItems: 1, items: { pattern: FILLED_TEXT_PATTERN } };
}

/** A phone is kept as its digits: one with no digit ('+', '-') is blank. */
export const PHONE_FILLED_PATTERN = '[0-9]';

/**
 * How the API document states a form field that is either blank ('' or null: cleared) or
 * of one of the `filled` shapes (a number, or the same number written as text), for fields
 * whose check is code JSON Schema cannot see (a transform or refinement). Put on the field's
 * schema with `.meta(...)` next to that code.
 */
export function blankOr(...filled: Array<Record<string, unknown>>) {
  return { type: undefined, pattern: undefined, maxLength: undefined, anyOf: [...filled, { const: '' }, { type: 'null' }] };
}

/** Text with no control characters (what a one-line field such as a job number takes), as a JSON Schema pattern. */
export const ONE_LINE_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';
