import type { StoredDomainEvent } from '../events.ts';
import { isRepairOrderJobEvent } from '../repair-orders/index.ts';
import { tableRows } from '../runtime/bulk-rows.ts';
import type { BulkRebuilder } from '../runtime/projection.ts';
import { applyJobEvent, isJobStreamEvent } from './events.ts';
import {
  type FoldedJob,
  HISTORY_COLUMNS,
  JOB_COLUMNS,
  jobHistoryRow,
  jobRow,
  repairOrderHistoryRow,
  type StoredJobEvent,
  type StoredRepairOrderEvent,
} from './job-rows.ts';

/**
 * The pipeline projection in a rebuild: `job_history` (one row per event) goes out page by
 * page; `jobs` is folded over the whole log in memory, by the rules the live projection
 * applies to its rows (the revision guard, a creation or restore only for a job without a
 * row, a deletion removing it), and written once at the end with `job_counts`, which then
 * is simply the rows per instance and stage.
 */
export function pipelineBulk(): BulkRebuilder {
  const jobs = new Map<string, FoldedJob>();
  return {
    page(all) {
      const history: Record<string, unknown>[] = [];
      for (const event of all) {
        if (!event.metadata.instanceId) continue;
        if (isJobStreamEvent(event)) {
          history.push(jobHistoryRow(event as StoredJobEvent));
          foldJobEvent(jobs, event as StoredJobEvent);
        } else if (isRepairOrderJobEvent(event)) {
          const orderEvent = event as StoredRepairOrderEvent;
          history.push(repairOrderHistoryRow(orderEvent));
          // The job's repair-order events move its revision and time.
          const job = jobs.get(orderEvent.data.jobId);
          if (!job?.present || job.revision >= orderEvent.revision) continue;
          job.updatedAt = orderEvent.recordedAt;
          job.revision = orderEvent.revision;
        }
      }
      return [tableRows('job_history', HISTORY_COLUMNS, history)];
    },
    finish() {
      const rows: Record<string, unknown>[] = [];
      const counts = new Map<string, { instance_id: string; stage_order: number; total: number }>();
      for (const [id, job] of jobs) {
        if (!job.present) continue;
        const row = jobRow(id, job);
        rows.push(row);
        const key = `${row.instance_id}:${row.stage_order}`;
        const count = counts.get(key) ?? { instance_id: row.instance_id, stage_order: row.stage_order, total: 0 };
        count.total += 1;
        counts.set(key, count);
      }
      jobs.clear();
      return [
        tableRows('jobs', JOB_COLUMNS, rows),
        tableRows('job_counts', { instance_id: 'uuid', stage_order: 'smallint', total: 'integer' }, [...counts.values()]),
      ];
    },
  };
}

function foldJobEvent(jobs: Map<string, FoldedJob>, event: StoredJobEvent & StoredDomainEvent): void {
  const jobId = event.data.jobId;
  const job = jobs.get(jobId);
  if (event.type === 'JobCreated' || event.type === 'JobRestored') {
    // A row that exists stays as it is; a restored job comes back with the fields it was deleted with.
    if (job?.present) return;
    const restored = event.type === 'JobRestored';
    jobs.set(jobId, {
      fields: applyJobEvent(null, event)!,
      instanceId: event.metadata.instanceId!,
      createdAt: restored ? new Date(event.data.createdAt) : event.recordedAt,
      createdBy: restored ? event.data.createdBy : event.metadata.actor.displayName,
      updatedAt: event.recordedAt,
      revision: event.revision,
      present: true,
    });
    return;
  }
  if (!job?.present || job.revision >= event.revision) return;
  const next = applyJobEvent(job.fields, event);
  // A deleted job leaves the lists; its history rows and the activity log keep it.
  if (!next) {
    job.present = false;
    return;
  }
  job.fields = next;
  job.updatedAt = event.recordedAt;
  job.revision = event.revision;
}
