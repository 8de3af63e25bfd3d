import { IF_MATCH_MESSAGE, revisionETag, revisionOfIfMatch } from '@crm/projections/shared';
import { ValidationError } from '../shared/errors.ts';
import type { ApiContext } from './router.ts';

/**
 * The HTTP side of optimistic concurrency, the same for every slice (see
 * projections/src/shared/revisions.ts for the format): `If-Match` in, `ETag` out.
 */

/** The revision the caller saw (`If-Match`); undefined when it sent none (no check). A header that is no ETag of ours is a 400. */
export function expectedRevisionOf(ctx: ApiContext): number | undefined {
  const revision = revisionOfIfMatch(ctx.get('if-match'));
  if (revision === null) throw new ValidationError(IF_MATCH_MESSAGE);
  return revision;
}

/** Answers with a record and its ETag (none when its revision is not known). */
export function sendRecord(ctx: ApiContext, record: { revision?: number | null }, status = 200): void {
  ctx.status = status;
  if (typeof record.revision === 'number') ctx.set('ETag', revisionETag(record.revision));
  ctx.body = record;
}
