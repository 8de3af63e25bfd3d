import { z } from 'zod';
import { ValidationError } from '../shared/errors.ts';
import { unknownFields } from './body-fields.ts';

/**
 * Unknown query parameters are a 400 naming them, as unknown body fields are, on every route
 * (the public ones too: the estimate link, the unsubscribe link, the public request page): a
 * parameter the route does not take (a typo such as `?limt=5`, `?tokne=`) would otherwise be
 * ignored in silence and the caller think it counted. The names a route takes are those of
 * its documented query schema, the one the API document lists; a route that declares none
 * takes no query parameters at all.
 */
export function queryFieldsCheck(query: z.ZodType | undefined): (value: Record<string, unknown>) => void {
  let schema: Record<string, unknown> | null = null;
  return (value) => {
    const names = Object.keys(value);
    if (names.length === 0) return;
    // A strict query schema refuses unknown names itself, in its own words (see parseInput): its
    // names are checked as if it were loose. Made once: the check remembers each schema's names.
    schema ??= query
      ? { ...(z.toJSONSchema(query, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>), additionalProperties: undefined }
      : null;
    const unknown = schema ? unknownFields(value, schema) : names;
    refuseUnknownQuery(unknown);
  };
}

/** The 400 of query parameters a route does not take (also for /healthz and /readyz, which take none). */
export function refuseUnknownQuery(names: readonly string[]): void {
  if (names.length === 0) return;
  const message = `Unknown query parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}`;
  throw new ValidationError(message, { errors: names.map((name) => ({ field: name, message: `Unknown query parameter: ${name}` })) });
}
