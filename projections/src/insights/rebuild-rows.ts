import { isJobStreamEvent } from '../pipeline/index.ts';
import { tableRows } from '../runtime/bulk-rows.ts';
import type { BulkRebuilder } from '../runtime/projection.ts';
import {
  foldInsightEvents,
  insightJobRow,
  INTERVAL_COLUMNS,
  JOB_COLUMNS,
  type InsightJob,
  type Interval,
  type StoredJobEvent,
} from './projection.ts';

/**
 * The insights projection in a rebuild: the same fold as the live one over the whole log in
 * memory. A stay goes out with the page that ends it (it never changes again); the stays
 * still open and `insight_jobs` go out at the end.
 */
export function insightsBulk(): BulkRebuilder {
  const jobs = new Map<string, InsightJob>();
  const open = new Map<string, Interval>();
  // Stays that ended after they were written: none here, every stay stays in `open` until it ends.
  const closed = new Map<string, string>();
  return {
    page(all) {
      const events = all.filter((event): event is StoredJobEvent => isJobStreamEvent(event) && Boolean(event.metadata.instanceId));
      foldInsightEvents(events, jobs, open, closed);
      const ended: Interval[] = [];
      for (const [eventId, interval] of open) {
        if (interval.left_at === null) continue;
        ended.push(interval);
        open.delete(eventId);
      }
      return [tableRows('insight_stage_intervals', INTERVAL_COLUMNS, ended)];
    },
    finish() {
      if (closed.size > 0) throw new Error('insights rebuild: a stay ended after it was written');
      const rows = [...jobs.entries()].map(([jobId, job]) => insightJobRow(jobId, job));
      const intervals = [...open.values()];
      jobs.clear();
      open.clear();
      return [tableRows('insight_jobs', JOB_COLUMNS, rows), tableRows('insight_stage_intervals', INTERVAL_COLUMNS, intervals)];
    },
  };
}
