import { DELETED_LIST_MAX, type DeletedKind, type DeletedRecord } from '@crm/projections/records';
import type { AppDeps } from '../deps.ts';
import { withTenant } from '../infra/tenant-db.ts';

interface DeletedRow {
  record_id: string;
  kind: DeletedKind;
  number: string;
  name: string;
  deleted_at: Date;
  deleted_by: string;
  with_customer_id: string | null;
}

/**
 * Deleted jobs and customers of the instance, newest deletion first (at most
 * DELETED_LIST_MAX), each job that went with its customer naming that customer (whose
 * deletion caused its own).
 */
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
