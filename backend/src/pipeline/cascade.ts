import type { AppendResult } from '@crm/projections/eventstore/port';
import type { AppDeps } from '../deps.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { NotFoundError } from '../shared/errors.ts';
import { jobIdsOfCustomer } from './job-queries.ts';
import { deleteJob } from './job-service.ts';

/**
 * Deletes every job linked to a customer (JobDeleted each, reason 'customer-deleted',
 * causationId = the CustomerDeleted event's id, carried in ctx.causationId). Returns the
 * last append (for read-your-writes) or null when there were none.
 *
 * The read model lists the customer's jobs, so it is first brought up to everything
 * appended so far: a job linked a moment ago is not missed.
 */
export async function deleteJobsOfCustomer(deps: AppDeps, customerId: string, ctx: InstanceContext): Promise<AppendResult | null> {
  const caughtUp = await deps.watcher.waitFor(await deps.store.headPosition(), 2000);
  if (!caughtUp) deps.logger.warn({ customerId }, 'deleting the jobs of a customer while projections lag behind');
  let last: AppendResult | null = null;
  for (const jobId of await jobIdsOfCustomer(deps.knex, ctx.instanceId, customerId)) {
    try {
      last = (await deleteJob(deps, { instanceId: ctx.instanceId, jobId }, ctx, 'customer-deleted')) ?? last;
    } catch (error) {
      // Deleted by someone else in the meantime: nothing left to do for it.
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  return last;
}
