import type { z } from 'zod';
import { ValidationError } from '../shared/errors.ts';

/** One answer on every route for a body that is valid JSON but not an object (null, an array, a string). */
export const NOT_AN_OBJECT = 'The request body must be a JSON object';

/** Parses untrusted input; the first problem becomes the message, all of them ride along. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    field: issue.path.join('.') || null,
    message: issue.code === 'invalid_type' && issue.path.length === 0 ? NOT_AN_OBJECT : issue.message,
  }));
  throw new ValidationError(errors[0]?.message ?? 'Invalid input', { errors });
}
