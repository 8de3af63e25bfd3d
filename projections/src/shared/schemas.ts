import { z } from 'zod';

/** A text field of a form: null or absent is '', trimmed, at most `max` characters; messages name the field. */
export const textInput = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .nullable()
    .transform((value) => (value ?? '').trim())
    .pipe(z.string().max(max, `${label} must be at most ${max} characters`));

/**
 * How the API document states "at least one of these fields filled in" (a refinement, which
 * JSON Schema cannot see): one of them present and not blank — text with a non-space
 * character, or a non-empty list. Put on the input schema with `.meta(...)` next to the refinement.
 */
export function atLeastOneFilled(fields: readonly string[]) {
  return {
    anyOf: fields.map((field) => ({
      required: [field],
      properties: {
        [field]: { type: ['string', 'array', 'number'], minLength: 1, pattern: '\\S', minItems: 1, items: { pattern: '\\S' } },
      },
    })),
  };
}

/**
 * How the API document states a form field that is either blank ('' or null: cleared) or
 * of `filled`'s shape, for fields whose check is code JSON Schema cannot see (a transform or
 * refinement). Put on the field's schema with `.meta(...)` next to that code.
 */
export function blankOr(filled: Record<string, unknown>) {
  return { type: undefined, pattern: undefined, maxLength: undefined, anyOf: [filled, { const: '' }, { type: 'null' }] };
}

/** Text with no control characters (what a one-line field such as a job number takes), as a JSON Schema pattern. */
export const ONE_LINE_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';
