import { CUSTOMER_MESSAGES } from '@crm/projections/customers';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import { DELETED_LIST_MAX, type DeletedKind, type DeletedRecord, type RestoredView } from '@crm/projections/records';
import { latest } from '@crm/projections/runtime/reactions';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { customerDecider, customerStream } from '../customers/customer-decider.ts';
import { withTenant } from '../infra/tenant-db.ts';
import { restoreJob } from '../pipeline/job-service.ts';
import { executeCommand, loadAggregate, type InstanceContext } from '../shared/commands.ts';
import { NotFoundError } from '../shared/errors.ts';
import { awaitReaction, CUSTOMER_CASCADE } from '../shared/reactions.ts';

/**
 * Restore of deleted records: a restore event on the record's own stream brings it back
 * with its whole history. A customer's restore brings back the jobs its deletion removed,
 * through the pipeline's cascade reactor (durable: replayed from its checkpoint after a
 * crash); the answer waits for the reactor and the projector, like a deletion's.
 */

/** A deleted job back (its number again, or the next one when another job took it). */
export async function restoreDeletedJob(deps: AppDeps, jobId: string, ctx: InstanceContext): Promise<RestoredView> {
  if (!isUuid(jobId)) throw new NotFoundError(JOB_MESSAGES.notFound);
  const outcome = await restoreJob(deps, { instanceId: ctx.instanceId, jobId: jobId.toLowerCase() }, ctx);
  await settle(deps, outcome.appended);
  return { restored: true, kind: 'job', id: jobId.toLowerCase(), jobsRestored: 0 };
}

/** A deleted customer back with its number; the jobs its deletion removed come back with it. */
export async function restoreDeletedCustomer(deps: AppDeps, customerId: string, ctx: InstanceContext): Promise<RestoredView> {
  if (!isUuid(customerId)) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const id = customerId.toLowerCase();
  const loaded = await loadAggregate(deps.store, customerStream(id), customerDecider);
  const created = loaded.events.find((e) => e.type === 'CustomerCreated');
  if (!created) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
  const result = await executeCommand({
    store: deps.store,
    streamId: customerStream(id),
    decider: customerDecider,
    command: {
      type: 'RestoreCustomer',
      instanceId: ctx.instanceId,
      createdAt: created.recordedAt.toISOString(),
      createdBy: created.metadata.actor.displayName,
    },
    ctx,
    loaded,
  });
  const restored = result.events.find((e) => e.type === 'CustomerRestored')!;
  const cascade = await awaitReaction(deps, CUSTOMER_CASCADE, restored);
  await settle(deps, { position: latest(restored.position, cascade?.lastPosition ?? null)! });
  return { restored: true, kind: 'customer', id, jobsRestored: cascade?.affected ?? 0 };
}

interface DeletedRow {
  record_id: string;
  kind: DeletedKind;
  number: string;
  name: string;
  deleted_at: Date;
  deleted_by: string;
  with_customer_id: string | null;
}

/** Deleted jobs and customers of the instance, newest deletion first (at most DELETED_LIST_MAX). */
export async function listDeleted(deps: AppDeps, instanceId: string, kind?: DeletedKind): Promise<DeletedRecord[]> {
  const rows = (await withTenant(deps.knex, instanceId, (db) => {
    const query = db
      .withSchema('rm')
      .from('deleted_records as d')
      .leftJoin('deleted_records as c', function () {
        this.on('c.deletion_event_id', '=', 'd.caused_by').andOn('c.instance_id', '=', 'd.instance_id');
      })
      .where('d.instance_id', instanceId)
      .orderBy([
        { column: 'd.deleted_at', order: 'desc' },
        { column: 'd.record_id', order: 'asc' },
      ])
      .limit(DELETED_LIST_MAX)
      .select('d.record_id', 'd.kind', 'd.number', 'd.name', 'd.deleted_at', 'd.deleted_by', 'c.record_id as with_customer_id');
    return kind ? query.andWhere('d.kind', kind) : query;
  })) as DeletedRow[];
  return rows.map((row) => ({
    kind: row.kind,
    id: row.record_id,
    number: row.number,
    name: row.name,
    deletedAt: new Date(row.deleted_at).toISOString(),
    deletedBy: row.deleted_by,
    withCustomerId: row.with_customer_id,
  }));
}
