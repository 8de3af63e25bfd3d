import type { Knex } from 'knex';
import type { JobHistoryEntry } from '@crm/projections/pipeline';
import { fieldChangeFromStored, isUuid, type StoredFieldChange } from '@crm/projections/shared';
import { canRevertEntry, type Reverter } from '@crm/projections/records';
import { withTenant } from '../infra/tenant-db.ts';
import type { JobTarget } from './job-queries.ts';

/** A job's history as its read model lists it. */

interface HistoryRow {
  event_id: string;
  action: JobHistoryEntry['action'];
  user_display_name: string;
  /** When the event store recorded the event (the command's own time for rows from before that was kept). */
  recorded_at: Date;
  /** Compact: [field, oldValue, newValue] for a change with exactly those keys. */
  changes: StoredFieldChange<JobHistoryEntry['changes'][number]>[];
  actor_id: string | null;
  revert_of: string | null;
  revision: number;
  /** The job's repair-order lines now (null: it has none). */
  lines_count: number | null;
}

/**
 * A revert the server refuses whatever the caller's rights, for the job as it stands: a job with
 * repair-order lines takes its quote from their total, so a change of its quote is undone
 * with the lines, never on its own (the revert route answers 409).
 */
function refusedAsItStands(row: HistoryRow): boolean {
  return (
    row.action === 'updated' && Number(row.lines_count ?? 0) > 0 && row.changes.map(fieldChangeFromStored).some((c) => c.field === 'quote')
  );
}

/**
 * Newest first, each at the time the event store recorded it; null when this instance has
 * no such job (and never had). With a reader, each row says whether they may revert it.
 */
export async function jobHistory(
  knex: Knex,
  target: JobTarget,
  reader: Reverter | null = null,
  now = new Date(),
): Promise<JobHistoryEntry[] | null> {
  if (!isUuid(target.jobId)) return null;
  const rows = (await withTenant(knex, target.instanceId, (db) =>
    db
      .withSchema('rm')
      .from('job_history')
      .where({ instance_id: target.instanceId, job_id: target.jobId })
      .orderBy('revision', 'desc')
      .select(
        'event_id',
        'action',
        'user_display_name',
        db.raw('coalesce(recorded_at, occurred_at) AS recorded_at'),
        'changes',
        'actor_id',
        'revert_of',
        'revision',
        // In the same statement: the lines that decide whether a quote change can be undone.
        db.raw('(SELECT m.lines_count FROM rm.job_money m WHERE m.job_id = ?) AS lines_count', [target.jobId]),
      ),
  )) as HistoryRow[];
  if (rows.length === 0) return null;
  return rows.map((row) => ({
    id: row.event_id,
    action: row.action,
    userDisplayName: row.user_display_name,
    // The recorded time: `asOf` at a row's time shows the job right after that change.
    timestamp: new Date(row.recorded_at).toISOString(),
    revision: Number(row.revision),
    changes: row.changes.map(fieldChangeFromStored),
    revertOf: row.revert_of,
    canRevert:
      !refusedAsItStands(row) &&
      canRevertEntry(reader, { action: row.action, actorId: row.actor_id, recordedAt: new Date(row.recorded_at) }, now),
  }));
}
