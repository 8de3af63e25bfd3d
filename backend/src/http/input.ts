import type { Context, Next } from 'koa';
import { ValidationError } from '../shared/errors.ts';

/**
 * The one rule for every text the API takes, applied once at the edge instead of per field:
 * no NUL character and no unpaired UTF-16 surrogate, anywhere. PostgreSQL refuses both (NUL
 * in text, a lone surrogate in json), so letting them through turns a typing mistake or an
 * attack into a 500 deep inside a command; here it is a 400 that names where it was.
 *
 * It covers the path (decoded, as the router decodes its parameters), every query-string
 * value, every request header and every string and object key of a JSON body.
 */

export const BAD_TEXT_MESSAGE = 'Text must not contain NUL characters or unpaired UTF-16 surrogates';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is text PostgreSQL can store as is. */
export function isCleanText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

function refuse(where: string): never {
  throw new ValidationError(`${BAD_TEXT_MESSAGE} (${where})`, { errors: [{ field: where, message: BAD_TEXT_MESSAGE }] });
}

/** The request path with its percent-escapes decoded; a malformed escape is a 400. */
export function decodedPath(rawPath: string): string {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    throw new ValidationError('The request path is not valid percent-encoded UTF-8');
  }
}

/**
 * How deep a JSON body may nest. The API's deepest body (message templates: an object, its
 * list, each template) is 3; the checks below walk a body by recursion, and a body of a few
 * thousand nested brackets (well under the size limit) would overflow the stack (a 500).
 */
export const MAX_BODY_DEPTH = 32;
export const TOO_DEEP_MESSAGE = `The request body nests more than ${MAX_BODY_DEPTH} levels deep`;

class TooDeep extends Error {}

/** The first place in a parsed JSON value that breaks the rule (a dotted path), or null; throws TooDeep past MAX_BODY_DEPTH. */
export function findBadText(value: unknown, at = '', depth = 0): string | null {
  if (typeof value === 'string') return isCleanText(value) ? null : at || '(body)';
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_BODY_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], at ? `${at}.${i}` : String(i), depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    const keyPath = at ? `${at}.${key}` : key;
    if (!isCleanText(key)) return `${at ? `${at}.` : ''}(a field name)`;
    const found = findBadText(inner, keyPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Checks path, query and headers: runs before anything reads them (sessions, routing). */
export async function cleanRequestLine(ctx: Context, next: Next): Promise<void> {
  if (!isCleanText(decodedPath(ctx.path))) refuse('path');
  for (const [name, value] of Object.entries(ctx.query)) {
    if (!isCleanText(name)) refuse('query parameter name');
    for (const item of Array.isArray(value) ? value : [value ?? '']) if (!isCleanText(item)) refuse(`query parameter ${name}`);
  }
  for (const [name, value] of Object.entries(ctx.headers)) {
    for (const item of Array.isArray(value) ? value : [value ?? '']) if (!isCleanText(item)) refuse(`header ${name}`);
  }
  await next();
}

/** Checks the parsed JSON body: runs right after the body parser. */
export async function cleanBody(ctx: Context, next: Next): Promise<void> {
  let found: string | null;
  try {
    found = findBadText((ctx.request as { body?: unknown }).body);
  } catch (error) {
    if (error instanceof TooDeep) throw new ValidationError(TOO_DEEP_MESSAGE, { errors: [{ field: '(body)', message: TOO_DEEP_MESSAGE }] });
    throw error;
  }
  if (found !== null) refuse(found);
  await next();
}
