/**
 * Optimistic concurrency, one format for every record (jobs, customers, users): a record's
 * ETag is its revision in quotes (`"3"`); a save sends it back as `If-Match` and, when the
 * record has changed since, gets a 409 whose problem details carry the record as it is now
 * (`current`). Without `If-Match` (or with `*`) there is no check. Browser-safe.
 */

/** The ETag of a record at this revision. */
export function revisionETag(revision: number): string {
  return `"${revision}"`;
}

export const IF_MATCH_MESSAGE = 'If-Match must be the ETag this API gave out, like "3"';

/**
 * The revision an `If-Match` header names (`"3"`, `W/"3"` or `3`); undefined when the
 * header is absent, blank or `*` (no check); null when it is no ETag of ours.
 */
export function revisionOfIfMatch(header: string | null | undefined): number | undefined | null {
  const value = (header ?? '').trim();
  if (!value || value === '*') return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(value);
  return match ? Number(match[1]) : null;
}
