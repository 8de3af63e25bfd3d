import { tableRows, rowsPerEvent } from '../runtime/bulk-rows.ts';
import type { BulkRebuilder } from '../runtime/projection.ts';
import { ACTIVITY_COLUMNS, activityRow } from './projection.ts';

/**
 * The audit projection in a rebuild: one activity row per timeline event, never changed
 * afterwards, so each page's rows go out with it (the live path inserts the same rows,
 * ignoring an event it already has).
 */
export function auditBulk(): BulkRebuilder {
  return {
    page: (events) => [tableRows('activity', ACTIVITY_COLUMNS, rowsPerEvent(events, activityRow))],
    finish: () => [],
  };
}
