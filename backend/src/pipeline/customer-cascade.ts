import type { Knex } from 'knex';
import type { StoredDomainEvent } from '@crm/projections/events';
import type { Actor, EventStore, GlobalPosition } from '@crm/projections/eventstore/port';
import { defineProjection, type Projection } from '@crm/projections/runtime/projection';
import { assertNever } from '@crm/projections/shared';
import { TransientError } from '@crm/projections/runtime/projector';
import { addToReaction, latest } from '@crm/projections/runtime/reactions';
import type { InstanceContext } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';
import { CUSTOMER_CASCADE } from '../shared/reactions.ts';
import { deleteJobOfDeletedCustomer } from './job-commands.ts';
import { restoreJob } from './job-restore.ts';

/** Records a job's link to its customer; answers the customer's deletion, if it is deleted. */
const LINK_SQL = `
  WITH linked AS (
    INSERT INTO cascade_job_customers (job_id, instance_id, customer_id) VALUES (?, ?, ?)
    ON CONFLICT (job_id) DO UPDATE SET instance_id = excluded.instance_id, customer_id = excluded.customer_id
  )
  SELECT deletion_event_id FROM cascade_deleted_customers WHERE customer_id = ? AND instance_id = ? LIMIT 1`;

/**
 * LINK_SQL for many jobs at once (each once): their links, and those whose customer is
 * deleted with its deletion.
 */
const LINK_ALL_SQL = `
  WITH input AS (
    SELECT * FROM unnest(?::text[], ?::text[], ?::text[]) AS t(job_id, instance_id, customer_id)
  ), linked AS (
    INSERT INTO cascade_job_customers (job_id, instance_id, customer_id)
    SELECT job_id, instance_id, customer_id FROM input
    ON CONFLICT (job_id) DO UPDATE SET instance_id = excluded.instance_id, customer_id = excluded.customer_id
  )
  SELECT input.job_id, deleted.deletion_event_id
  FROM input JOIN cascade_deleted_customers deleted ON deleted.customer_id = input.customer_id AND deleted.instance_id = input.instance_id`;

/** A job's link to its customer that an event sets: a job created or moved to a customer. */
interface Link {
  event: StoredDomainEvent;
  jobId: string;
  instanceId: string;
  customerId: string;
}

const CASCADE_ACTOR: Actor = { kind: 'system', id: 'customer-cascade', displayName: 'System' };

/**
 * The customer-deletion cascade as a reactor: when a customer is deleted,
 * each of its jobs is deleted (JobDeleted, reason 'customer-deleted', causationId = the
 * CustomerDeleted event's id), and the reaction (how many jobs, the last append) is recorded
 * for the DELETE request to answer with.
 *
 * Which live job links to which customer it keeps itself (cascade_job_customers), from the
 * job events, in its own batch transaction: at a CustomerDeleted it knows exactly the jobs
 * linked at that point of the log, however far the read models trail. A job linked to a
 * customer after its deletion (a save racing the deletion) is deleted when the link arrives.
 *
 * Idempotent like a projection: a batch interrupted after some appends is replayed from the
 * checkpoint, and a job that deletion already deleted only counts (deleteJobOfDeletedCustomer).
 *
 * The way back: it remembers which jobs each deletion removed (cascade_deleted_jobs, from
 * the JobDeleted events it caused), and at a CustomerRestored it restores exactly those
 * (JobRestored, causationId = the CustomerRestored event's id), recording the reaction for
 * the restore request. A job restored already by this restore only counts (restoreJob).
 */
export function customerCascadeReactor(deps: { store: EventStore; now: () => Date; knex?: Knex }): Projection {
  const deleteJobs = async (
    trx: Knex.Transaction,
    deletion: { eventId: string; instanceId: string; actor: Actor; correlationId: string },
    jobIds: string[],
  ): Promise<void> => {
    const ctx: InstanceContext & { causationId: string } = {
      instanceId: deletion.instanceId,
      actor: deletion.actor,
      correlationId: deletion.correlationId,
      causationId: deletion.eventId,
      now: deps.now(),
    };
    let affected = 0;
    let last: GlobalPosition | null = null;
    for (const jobId of jobIds) {
      try {
        const outcome = await deleteJobOfDeletedCustomer(deps, { instanceId: deletion.instanceId, jobId }, ctx);
        if (outcome.deleted) affected++;
        last = latest(last, outcome.appended?.position ?? null);
      } catch (error) {
        // Concurrent saves outlasted the command's own retries: try the batch again later.
        if (error instanceof ConflictError) throw new TransientError(`job ${jobId}: ${error.message}`);
        throw error;
      }
      await trx('cascade_job_customers').where({ job_id: jobId }).delete();
    }
    await addToReaction(trx, CUSTOMER_CASCADE, deletion.eventId, affected, last);
  };

  /** Records a job's link; a link to a customer deleted already deletes the job now. */
  const link = async (trx: Knex.Transaction, event: StoredDomainEvent, jobId: string, instanceId: string, customerId: string | null) => {
    if (!customerId) {
      await trx('cascade_job_customers').where({ job_id: jobId }).delete();
      return;
    }
    // The link and the look-up of its customer's deletion in one statement: every job created
    // passes here, and each statement of a reactor's batch is a round trip of its own.
    const { rows } = await trx.raw<{ rows: Array<{ deletion_event_id: string }> }>(LINK_SQL, [
      jobId,
      instanceId,
      customerId,
      customerId,
      instanceId,
    ]);
    const deleted = rows[0];
    if (deleted) {
      await deleteJobs(
        trx,
        { eventId: deleted.deletion_event_id, instanceId, actor: CASCADE_ACTOR, correlationId: event.metadata.correlationId },
        [jobId],
      );
    }
  };

  /** Links of different jobs, in one statement; a job whose customer is deleted is deleted now, in the links' order. */
  const linkAll = async (trx: Knex.Transaction, links: Link[]) => {
    const { rows } = await trx.raw<{ rows: Array<{ job_id: string; deletion_event_id: string }> }>(LINK_ALL_SQL, [
      links.map((l) => l.jobId),
      links.map((l) => l.instanceId),
      links.map((l) => l.customerId),
    ]);
    if (rows.length === 0) return;
    const deletions = new Map(rows.map((row) => [row.job_id, row.deletion_event_id]));
    for (const { event, jobId, instanceId } of links) {
      const deletionEventId = deletions.get(jobId);
      if (deletionEventId === undefined) continue;
      await deleteJobs(trx, { eventId: deletionEventId, instanceId, actor: CASCADE_ACTOR, correlationId: event.metadata.correlationId }, [
        jobId,
      ]);
    }
  };

  const projection: Projection = defineProjection({
    name: 'customer-cascade',
    // Every handler below reads or writes its own rows (awaited) before it sends a command:
    // a created job's batch is two round trips (the lock with the link, then the checkpoint
    // with the COMMIT), not three.
    readsBeforeActing: true,
    eventTypes: ['JobCreated', 'JobUpdated', 'JobDeleted', 'JobRestored', 'CustomerDeleted', 'CustomerRestored'],
    // A job update matters only when it changes the job's customer.
    takes: (event) => event.type !== 'JobUpdated' || event.data.changes.some((change) => change.field === 'customerId'),
    async apply(event, { trx }) {
      switch (event.type) {
        case 'JobCreated': {
          const { jobId, instanceId, customerId } = event.data;
          await link(trx, event, jobId, instanceId, customerId);
          return;
        }
        case 'JobUpdated': {
          const { jobId, changes } = event.data;
          const change = changes.find((c) => c.field === 'customerId');
          const instanceId = event.metadata.instanceId;
          if (change && instanceId) await link(trx, event, jobId, instanceId, typeof change.newValue === 'string' ? change.newValue : null);
          return;
        }
        case 'JobDeleted': {
          await trx('cascade_job_customers').where({ job_id: event.data.jobId }).delete();
          const instanceId = event.metadata.instanceId;
          if (event.data.reason === 'customer-deleted' && event.metadata.causationId && instanceId) {
            await trx('cascade_deleted_jobs')
              .insert({ job_id: event.data.jobId, instance_id: instanceId, deletion_event_id: event.metadata.causationId })
              .onConflict('job_id')
              .merge();
          }
          return;
        }
        case 'JobRestored': {
          const { jobId, instanceId, customerId } = event.data;
          await trx('cascade_deleted_jobs').where({ job_id: jobId }).delete();
          await link(trx, event, jobId, instanceId, customerId);
          return;
        }
        case 'CustomerRestored': {
          const { customerId, instanceId } = event.data;
          const deleted = (await trx('cascade_deleted_customers').where({ customer_id: customerId, instance_id: instanceId }).first()) as
            { deletion_event_id: string } | undefined;
          await trx('cascade_deleted_customers').where({ customer_id: customerId }).delete();
          const jobIds = deleted
            ? ((await trx('cascade_deleted_jobs')
                .where({ deletion_event_id: deleted.deletion_event_id, instance_id: instanceId })
                .orderBy('job_id')
                .pluck('job_id')) as string[])
            : [];
          const ctx: InstanceContext & { causationId: string } = {
            instanceId,
            actor: event.metadata.actor,
            correlationId: event.metadata.correlationId,
            causationId: event.id,
            now: deps.now(),
          };
          let affected = 0;
          let last: GlobalPosition | null = null;
          for (const jobId of jobIds) {
            try {
              const outcome = await restoreJob(deps, { instanceId, jobId }, ctx, { deletionEventId: deleted!.deletion_event_id });
              if (outcome.restored) affected++;
              last = latest(last, outcome.appended?.position ?? null);
            } catch (error) {
              if (error instanceof ConflictError) throw new TransientError(`job ${jobId}: ${error.message}`);
              throw error;
            }
          }
          await addToReaction(trx, CUSTOMER_CASCADE, event.id, affected, last);
          return;
        }
        case 'CustomerDeleted': {
          const { customerId } = event.data;
          const instanceId = event.metadata.instanceId;
          if (!instanceId) throw new Error('CustomerDeleted without an instance in its metadata');
          await trx('cascade_deleted_customers')
            .insert({ customer_id: customerId, instance_id: instanceId, deletion_event_id: event.id })
            .onConflict('customer_id')
            .ignore();
          const jobIds = (await trx('cascade_job_customers')
            .where({ customer_id: customerId, instance_id: instanceId })
            .orderBy('job_id')
            .pluck('job_id')) as string[];
          await deleteJobs(
            trx,
            { eventId: event.id, instanceId, actor: event.metadata.actor, correlationId: event.metadata.correlationId },
            jobIds,
          );
          return;
        }
        default:
          return assertNever(event, 'event');
      }
    },
    // Every job created passes here: the links of a batch's run of creates (and customer
    // changes) go as one statement, not one round trip each. Other events, and a second link
    // of a job within the run, end the run, so the links keep their order with everything else.
    async applyBatch(events, ctx) {
      let run: Link[] = [];
      const flush = async () => {
        if (run.length > 1) await linkAll(ctx.trx, run);
        else if (run[0]) await projection.apply(run[0].event, ctx);
        run = [];
      };
      for (const event of events) {
        const link = linkOf(event);
        if (!link || run.some((l) => l.jobId === link.jobId)) await flush();
        if (link) run.push(link);
        else await projection.apply(event, ctx);
      }
      await flush();
    },
  });
  return projection;
}

/** The link an event sets to a customer (not one it removes), when it is only that. */
function linkOf(event: StoredDomainEvent): Link | null {
  if (event.type === 'JobCreated') {
    const { jobId, instanceId, customerId } = event.data;
    return customerId ? { event, jobId, instanceId, customerId } : null;
  }
  if (event.type === 'JobUpdated') {
    const change = event.data.changes.find((c) => c.field === 'customerId');
    const instanceId = event.metadata.instanceId;
    if (!change || !instanceId || typeof change.newValue !== 'string' || !change.newValue) return null;
    return { event, jobId: event.data.jobId, instanceId, customerId: change.newValue };
  }
  return null;
}
