import { z } from 'zod';

/** A text field of a form: null or absent is '', trimmed, at most `max` characters; messages name the field. */
export const textInput = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .nullable()
    .transform((value) => (value ?? '').trim())
    .pipe(z.string().max(max, `${label} must be at most ${max} characters`));
