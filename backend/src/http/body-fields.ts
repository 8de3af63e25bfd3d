import { z } from 'zod';
import { ValidationError } from '../shared/errors.ts';

/**
 * Unknown fields are a 400 naming them, on every JSON body: a field the route's contract
 * does not name (a typo, `name` for `customerName`, `phoen` for `phone`) would otherwise be
 * dropped in silence and the record saved without it. The contract's body schemas are
 * strict themselves; this check applies the same rule at the edge to every route that
 * declares a body, from the very schema the OpenAPI document shows, so a route added with a
 * loose schema still refuses what it does not know (a strict one answers in its own words,
 * see parseInput). Nested objects are checked the same way.
 */

type JsonSchema = Record<string, unknown>;

/** The object shapes a JSON Schema allows: its own properties, or those of its alternatives. */
function objectShapes(schema: JsonSchema): Array<Record<string, JsonSchema>> {
  const alternatives = [...((schema.anyOf as JsonSchema[] | undefined) ?? []), ...((schema.oneOf as JsonSchema[] | undefined) ?? [])];
  const parts = [...((schema.allOf as JsonSchema[] | undefined) ?? [])];
  const own = schema.properties ? [schema.properties as Record<string, JsonSchema>] : [];
  // An open object (a record, `additionalProperties` not false and no properties) has no shape to hold keys against.
  const nested = [...alternatives, ...parts].flatMap(objectShapes);
  if (own.length === 0 && nested.length === 0) return [];
  // A loose object (`additionalProperties` a schema) takes any key: its handler checks them in its own way.
  const open = (part: JsonSchema) =>
    (part.type === 'object' && !part.properties) || (typeof part.additionalProperties === 'object' && part.additionalProperties !== null);
  if (open(schema) || alternatives.some(open)) return [];
  if (parts.length > 0) return [Object.assign({}, ...own, ...nested) as Record<string, JsonSchema>];
  return [...own, ...nested];
}

/** The fields a schema names (each with its schemas) and whether it is strict; null when it holds no keys. */
interface KnownFields {
  known: Map<string, JsonSchema[]>;
  strict: boolean;
}

/**
 * Each schema's known fields, worked out on its first check: a route's schemas are made once,
 * and the check runs on every request that has a query or a body.
 */
const knownFieldsOf = new WeakMap<JsonSchema, KnownFields | null>();

function knownFields(schema: JsonSchema): KnownFields | null {
  let fields = knownFieldsOf.get(schema);
  if (fields !== undefined) return fields;
  const shapes = objectShapes(schema);
  if (shapes.length === 0) fields = null;
  else {
    // A Map, not an object: a field named after Object.prototype's own ("constructor",
    // "__proto__", "toString") would otherwise find the prototype's member as if the schema
    // named it, and be let through unchecked or fail the check itself (a 500).
    const known = new Map<string, JsonSchema[]>();
    for (const shape of shapes) {
      for (const [key, inner] of Object.entries(shape)) known.set(key, [...(known.get(key) ?? []), inner]);
    }
    // A strict schema (additionalProperties: false) refuses unknown keys itself, in its own words.
    fields = { known, strict: schema.additionalProperties === false };
  }
  knownFieldsOf.set(schema, fields);
  return fields;
}

/** The dotted paths of every field in `value` that `schema` does not name. */
export function unknownFields(value: unknown, schema: JsonSchema, at = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const fields = knownFields(schema);
  if (!fields) return [];
  const { known, strict } = fields;
  const found: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    const schemas = known.get(key);
    if (!schemas) {
      if (!strict) found.push(path);
    } else if (schemas.length === 1) found.push(...unknownFields(inner, schemas[0]!, path));
  }
  return found;
}

/** The message of a body with fields its route does not know. */
export function unknownFieldsMessage(fields: readonly string[]): string {
  return `Unknown field${fields.length > 1 ? 's' : ''}: ${fields.join(', ')}`;
}

/** A check for one route's body, made once from its schema. */
export function bodyFieldsCheck(body: z.ZodType): (value: unknown) => void {
  let schema: JsonSchema | null = null;
  return (value) => {
    schema ??= z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const fields = unknownFields(value, schema);
    if (fields.length === 0) return;
    throw new ValidationError(unknownFieldsMessage(fields), {
      errors: fields.map((field) => ({ field, message: `Unknown field: ${field}` })),
    });
  };
}

/**
 * The check for a write route that takes no body (cancel, reopen, revert, archive, …): a JSON
 * object with fields is refused naming them, as on any other route, instead of being ignored
 * (a client that sends a reason or a flag would otherwise think it was kept).
 */
export function noBodyFieldsCheck(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (value.length === 0) return;
    throw new ValidationError(NO_BODY, { errors: [{ field: 'body', message: NO_BODY }] });
  }
  const fields = Object.keys(value);
  if (fields.length === 0) return;
  throw new ValidationError(unknownFieldsMessage(fields), {
    errors: fields.map((field) => ({ field, message: `Unknown field: ${field}` })),
  });
}

const NO_BODY = 'This request takes no body';
