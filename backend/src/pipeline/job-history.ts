import type { Knex } from 'knex';
import type { JobHistoryEntry } from '@crm/projections/pipeline';
import type { RevertOffer } from '@crm/projections/records';
import { fieldChangeFromStored, isUuid, type StoredFieldChange } from '@crm/projections/shared';
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
  revert_of: string | null;
  revision: number;
}

/**
 * Newest first, each at the time the event store recorded it; null when this instance has
 * no such job (and never had). `revertOf(id)`: whether the reader may revert that change now
 * and, when a revert of theirs would be refused, why (the revert command's own rule).
 */
export async function jobHistory(
  knex: Knex,
  target: JobTarget,
  revertOf: (eventId: string) => RevertOffer = () => ({ canRevert: false }),
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
        'revert_of',
        'revision',
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
    ...revertOf(row.event_id),
  }));
}
