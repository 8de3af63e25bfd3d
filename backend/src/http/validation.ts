import type { z } from 'zod';
import { ValidationError } from '../shared/errors.ts';

/** Parses untrusted input; the first problem becomes the message, all of them ride along. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    field: issue.path.join('.') || null,
    message: issue.code === 'invalid_type' && issue.path.length === 0 ? 'Request body must be a JSON object' : issue.message,
  }));
  throw new ValidationError(errors[0]?.message ?? 'Invalid input', { errors });
}
