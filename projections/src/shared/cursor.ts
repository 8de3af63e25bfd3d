import { isUuid } from './ids.ts';

/**
 * Keyset paging: a page's `nextCursor` is the last row's sort values, opaque to clients
 * (base64url of a JSON array) and handed back as `?cursor=` for the next page. One codec
 * for every list (customers, pipeline, audit log); each list checks the values it gets
 * back against its own keys and answers a bad cursor with its own message. Browser-safe.
 */

export type CursorValue = string | number;

/** What a cursor's value must be: free text, a uuid, an ISO time, a whole number, or digits as text (a bigint). */
export type CursorKey = 'text' | 'uuid' | 'time' | 'integer' | 'digits';

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(value: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return null;
  try {
    const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

export function encodeCursor(values: readonly CursorValue[]): string {
  return toBase64Url(JSON.stringify(values));
}

function fits(key: CursorKey, value: unknown): boolean {
  switch (key) {
    case 'text':
      return typeof value === 'string';
    case 'uuid':
      return typeof value === 'string' && isUuid(value);
    case 'time':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    case 'integer':
      return Number.isInteger(value);
    case 'digits':
      return typeof value === 'string' && /^\d{1,30}$/.test(value);
  }
}

/** The values a cursor holds when they fit `keys` one by one; null when it is no cursor of this list. */
export function decodeCursor(cursor: string, keys: readonly CursorKey[]): CursorValue[] | null {
  const json = fromBase64Url(cursor);
  if (json === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== keys.length) return null;
  return keys.every((key, i) => fits(key, parsed[i])) ? (parsed as CursorValue[]) : null;
}
