import type { z } from 'zod';
import { ValidationError } from '../shared/errors.ts';
import { unknownFieldsMessage } from './body-fields.ts';

/** One answer on every route for a body that is valid JSON but not an object (null, an array, a string). */
export const NOT_AN_OBJECT = 'The request body must be a JSON object';

/**
 * Parses untrusted input; the first problem becomes the message, all of them ride along.
 * Unknown fields (a strict schema's unrecognized keys) come first, one error per field,
 * and the message names them all; a schema's own wording for them (e.g. "Unknown
 * permission") is kept.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const unknown: Array<{ field: string; message: string }> = [];
  let customUnknownMessage: string | null = null;
  const others: Array<{ field: string | null; message: string }> = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const ownWording = !issue.message.startsWith('Unrecognized key');
      if (ownWording) customUnknownMessage ??= issue.message;
      for (const key of issue.keys) {
        const field = [...issue.path, key].join('.');
        unknown.push({ field, message: ownWording ? issue.message : `Unknown field: ${field}` });
      }
    } else {
      others.push({
        field: issue.path.join('.') || null,
        message: issue.code === 'invalid_type' && issue.path.length === 0 ? NOT_AN_OBJECT : issue.message,
      });
    }
  }
  const errors = [...unknown, ...others];
  const message = unknown.length > 0 ? (customUnknownMessage ?? unknownFieldsMessage(unknown.map((u) => u.field))) : others[0]?.message;
  throw new ValidationError(message ?? 'Invalid input', { errors });
}
