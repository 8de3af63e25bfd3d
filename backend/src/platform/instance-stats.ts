import type { Knex } from 'knex';
import type { InstanceStats } from '@crm/projections/platform';

/**
 * The provider dashboard's figures of every instance, in four grouped statements over the
 * read models' counters (no table of jobs or customers is scanned): active users, jobs and
 * customers, and the time of the instance's latest timeline entry. The super admin's view
 * spans instances, so it runs as the server's own role, not a tenant's.
 */
export async function instanceStats(knex: Knex): Promise<InstanceStats[]> {
  const rm = () => knex.withSchema('rm');
  const [instances, users, jobs, customers, activity] = await Promise.all([
    rm().from('crm_instances').select('id').orderBy('created_at', 'asc') as Promise<Array<{ id: string }>>,
    rm().from('users').where('is_active', true).groupBy('instance_id').select('instance_id', knex.raw('count(*)::int AS n')) as Promise<
      Array<{ instance_id: string; n: number }>
    >,
    rm().from('job_counts').groupBy('instance_id').select('instance_id', knex.raw('coalesce(sum(total), 0)::int AS n')) as Promise<
      Array<{ instance_id: string; n: number }>
    >,
    rm().from('customer_counts').select('instance_id', knex.raw('total::int AS n')) as Promise<Array<{ instance_id: string; n: number }>>,
    // One index probe per instance (activity is indexed by instance, newest first).
    knex.raw<{ rows: Array<{ id: string; at: Date | null }> }>(
      `SELECT i.id, (SELECT a.occurred_at FROM rm.activity a WHERE a.instance_id = i.id
                       ORDER BY a.position_commit DESC, a.position_prepare DESC LIMIT 1) AS at
         FROM rm.crm_instances i`,
    ),
  ]);
  const byId = (rows: Array<{ instance_id: string; n: number }>) => new Map(rows.map((row) => [row.instance_id, Number(row.n)]));
  const userCounts = byId(users);
  const jobCounts = byId(jobs);
  const customerCounts = byId(customers);
  const lastActivity = new Map(activity.rows.map((row) => [row.id, row.at]));
  return instances.map(({ id }) => {
    const at = lastActivity.get(id);
    return {
      instanceId: id,
      users: userCounts.get(id) ?? 0,
      jobs: jobCounts.get(id) ?? 0,
      customers: customerCounts.get(id) ?? 0,
      lastActivityAt: at ? new Date(at).toISOString() : null,
    };
  });
}
