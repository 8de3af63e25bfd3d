import { revisionETag } from '@crm/projections/shared';
import type { z } from 'zod';
import { ApiError } from './api-error';

/**
 * The screens' side of the one concurrency policy (projections/src/shared/revisions.ts):
 * a change is sent with `If-Match` naming the revision the screen loaded, and a 409 carries
 * the record as it is now (`current`), which the screen offers to load.
 */

/** The `If-Match` header for a record at `revision`; none when the revision is not known (no check). */
export function ifMatch(revision: number | null | undefined): Record<string, string> {
  return typeof revision === 'number' ? { 'If-Match': revisionETag(revision) } : {};
}

/** A 409 on a change carries the record as it is now: parsed with the record's schema; null for any other error. */
export function conflictCurrent<S extends z.ZodType>(error: unknown, schema: S): z.output<S> | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const parsed = schema.safeParse(error.problem?.current);
  return parsed.success ? parsed.data : null;
}

/** What a screen says beside "Load current version" when the server gave no message. */
export const CONFLICT_FALLBACK = 'Someone else changed this record since you loaded it. Load the current version and try again.';
