import fc from 'fast-check';

/**
 * Values that satisfy a JSON Schema (the subset our API document uses: types, enum/const,
 * string bounds, patterns and formats, number bounds, arrays, objects with required and
 * optional properties, anyOf/oneOf/allOf, $ref). Used to make requests the document says
 * are valid: the server must then never refuse them as bad input.
 *
 * Text is drawn from printable characters and a few non-ASCII ones, never NUL or an unpaired
 * surrogate (the document's text rule refuses those everywhere).
 */
export type JsonSchema = Record<string, any>;

const TEXT_CHARS = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 1, minLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', '日', '😀', ' ', '\t', '"', "'", '<', '%') },
);

function text(minLength = 0, maxLength = 40): fc.Arbitrary<string> {
  // Lengths are in UTF-16 code units, as JSON Schema's engines built on JavaScript count them.
  return fc
    .array(TEXT_CHARS, { minLength, maxLength: Math.min(maxLength, minLength + 40) })
    .map((parts) => parts.join(''))
    .filter((value) => value.length >= minLength && value.length <= maxLength);
}

const isoDate = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true });

function formatted(format: string): fc.Arbitrary<string> | null {
  switch (format) {
    case 'date-time':
      return fc.tuple(isoDate, fc.constantFrom('Z', '+02:00', '-05:30', '+00:00')).map(([date, offset]) => {
        const iso = date.toISOString();
        if (offset === 'Z') return iso;
        // The same wall-clock digits with another offset: still one valid RFC 3339 instant.
        return `${iso.slice(0, 19)}${offset}`;
      });
    case 'date':
      return isoDate.map((date) => date.toISOString().slice(0, 10));
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'email':
      return fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/), fc.stringMatching(/^[a-z]{1,10}$/)).map(([a, b]) => `${a}@${b}.com`);
    default:
      return null;
  }
}

export class SchemaArbitraries {
  constructor(private readonly root: JsonSchema) {}

  private resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let depth = 0; current.$ref && depth < 20; depth++) {
      const ref = String(current.$ref);
      if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
      let target: any = this.root;
      for (const part of ref.slice(2).split('/')) target = target?.[part];
      if (!target) throw new Error(`unresolved $ref ${ref}`);
      const { $ref: _ref, ...rest } = current;
      current = { ...target, ...rest };
    }
    return current;
  }

  /** An arbitrary of values valid against `schema`. */
  of(input: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    if (Array.isArray(schema.allOf))
      return this.of(
        mergeAll(
          schema.allOf.map((part: JsonSchema) => this.resolve(part)),
          schema,
        ),
        depth,
      );
    const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives)) {
      const { anyOf: _a, oneOf: _o, ...base } = schema;
      const resolved = alternatives.map((alternative) => this.resolve(alternative));
      // A schema of its own beside the alternatives (an object whose fields must fill one of
      // them): values of the schema, kept when they also satisfy one alternative.
      if (GENERATIVE_KEYS.some((key) => base[key] !== undefined)) {
        return this.of(base, depth).filter((value) => resolved.some((alternative) => satisfies(value, alternative)));
      }
      return fc.oneof(...resolved.map((alternative) => this.of(alternative, depth)));
    }
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : inferTypes(schema);
    if (types.length > 1) return fc.oneof(...types.map((type) => this.of({ ...schema, type }, depth)));
    switch (types[0] ?? 'any') {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
      case 'number':
        return this.number(schema, types[0] === 'integer');
      case 'string':
        return this.string(schema);
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        // Any value at all: keep it small and JSON.
        return fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 5 }), text(0, 8));
    }
  }

  private number(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
    let min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
    let max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
    if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + (integer ? 1 : 1e-6);
    if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - (integer ? 1 : 1e-6);
    if (integer)
      return fc.integer({
        min: Math.ceil(Math.max(min, Number.MIN_SAFE_INTEGER)),
        max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)),
      });
    return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  }

  private string(schema: JsonSchema): fc.Arbitrary<string> {
    const minLength = schema.minLength ?? 0;
    // Free text is drawn up to 40 characters when the schema sets no bound; a value drawn from
    // a pattern keeps whatever length the pattern gives. Filtering a pattern's values by a
    // bound the schema does not state would throw away nearly all of them for a pattern whose
    // matches are long (a VIN with free whitespace and dashes between its 17 characters):
    // one value then took up to a minute to draw, long enough for the server to close the
    // test's idle kept-alive connection under the request about to be sent on it.
    const maxLength = schema.maxLength ?? Number.POSITIVE_INFINITY;
    const textMaxLength = schema.maxLength ?? Math.max(minLength, 40);
    const also = schema.alsoPattern ? new RegExp(schema.alsoPattern, 'u') : null;
    const inBounds = (value: string) => value.length >= minLength && value.length <= maxLength && (!also || also.test(value));
    if (schema.format) {
      const arbitrary = formatted(schema.format);
      if (arbitrary) {
        const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : null;
        return arbitrary.filter((value) => inBounds(value) && (!pattern || pattern.test(value)));
      }
    }
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern, 'u');
      // `\S` and other unanchored patterns: any text that contains a match.
      const anchored = schema.pattern.startsWith('^') && schema.pattern.endsWith('$');
      // A bound on a pattern's values: half of them drawn short, so most fit it.
      const matching =
        schema.maxLength === undefined
          ? fc.stringMatching(pattern)
          : fc.oneof(fc.stringMatching(pattern, { size: 'xsmall' }), fc.stringMatching(pattern));
      const base = anchored ? matching : text(minLength, textMaxLength);
      return base.filter((value) => inBounds(value) && pattern.test(value) && isCleanText(value));
    }
    return text(minLength, textMaxLength);
  }

  private array(schema: JsonSchema, depth: number): fc.Arbitrary<unknown[]> {
    const minLength = schema.minItems ?? 0;
    const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
    const items = schema.items ? this.of(schema.items, depth + 1) : fc.constant(null);
    // x-unique-by: the document's extension for items unique by one property (templates by kind).
    const uniqueBy = schema['x-unique-by'] as string | undefined;
    if (uniqueBy)
      return fc.uniqueArray(items, {
        minLength,
        maxLength,
        selector: (value) => JSON.stringify((value as Record<string, unknown>)[uniqueBy]),
      });
    return schema.uniqueItems
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
      : fc.array(items, { minLength, maxLength });
  }

  private object(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set<string>(schema.required ?? []);
    const keys = Object.keys(properties);
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const key of keys) record[key] = this.of(properties[key]!, depth + 1);
    for (const key of required) record[key] ??= fc.constant('x');
    const minProperties = schema.minProperties ?? 0;
    return fc.record(record, { requiredKeys: [...required] }).filter((value) => Object.keys(value).length >= minProperties) as fc.Arbitrary<
      Record<string, unknown>
    >;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function isCleanText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

function inferTypes(schema: JsonSchema): string[] {
  if (schema.properties || schema.required) return ['object'];
  if (schema.items) return ['array'];
  if (schema.minLength !== undefined || schema.pattern || schema.format) return ['string'];
  if (schema.minimum !== undefined || schema.maximum !== undefined) return ['number'];
  return [];
}

/** Both schemas at once (allOf of two), as far as generation needs: bounds narrowed, properties merged. */
function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const merged: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (key === 'properties') {
      const properties: Record<string, JsonSchema> = { ...(a.properties ?? {}) };
      for (const [name, inner] of Object.entries(value as Record<string, JsonSchema>)) {
        properties[name] = properties[name] ? merge(properties[name]!, inner) : inner;
      }
      merged.properties = properties;
    } else if (key === 'required') merged.required = [...new Set([...(a.required ?? []), ...(value as string[])])];
    else if (key === 'type' && a.type !== undefined) {
      const left: string[] = Array.isArray(a.type) ? a.type : [a.type];
      const right: string[] = Array.isArray(value) ? value : [value];
      const both = left.filter((type) => right.includes(type) || (type === 'integer' && right.includes('number')));
      merged.type = both.length === 1 ? both[0] : both;
    } else if (key === 'minLength' || key === 'minItems' || key === 'minimum') merged[key] = Math.max(a[key] ?? -Infinity, value as number);
    else if (key === 'maxLength' || key === 'maxItems' || key === 'maximum') merged[key] = Math.min(a[key] ?? Infinity, value as number);
    else if (key === 'pattern' && a.pattern && a.pattern !== value) merged.allPatterns = [a.pattern, value];
    else merged[key] = value;
  }
  if (merged.allPatterns) {
    // Two patterns: generate from the anchored one, keep what the other also matches (see string()).
    const [first, second] = merged.allPatterns as string[];
    const anchored = first!.startsWith('^') ? first! : second!;
    merged.pattern = anchored;
    merged.alsoPattern = anchored === first ? second : first;
    delete merged.allPatterns;
  }
  return merged;
}

function mergeAll(parts: JsonSchema[], outer: JsonSchema): JsonSchema {
  const { allOf: _allOf, ...rest } = outer;
  return parts.reduce((acc, part) => merge(acc, part), rest);
}

const GENERATIVE_KEYS = ['type', 'properties', 'items', 'format', 'pattern', 'enum', 'const', 'minimum', 'maximum'];

/** Whether a value satisfies a schema, for the keywords the alternatives of our document use. */
export function satisfies(value: unknown, schema: JsonSchema): boolean {
  if ('const' in schema && JSON.stringify(value) !== JSON.stringify(schema.const)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((item: unknown) => JSON.stringify(item) === JSON.stringify(value))) return false;
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const ok = types.some((type) => type === actual || (type === 'integer' && Number.isInteger(value)));
    if (!ok) return false;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return false;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.items && !value.every((item) => satisfies(item, schema.items))) return false;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) return false;
    for (const [key, inner] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      if (key in record && !satisfies(record[key], inner)) return false;
    }
    if (schema.additionalProperties === false && Object.keys(record).some((key) => !(key in (schema.properties ?? {})))) return false;
  }
  if (Array.isArray(schema.allOf) && !schema.allOf.every((part: JsonSchema) => satisfies(value, part))) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((alternative: JsonSchema) => satisfies(value, alternative))) return false;
  if (Array.isArray(schema.oneOf) && schema.oneOf.filter((alternative: JsonSchema) => satisfies(value, alternative)).length !== 1)
    return false;
  return true;
}
