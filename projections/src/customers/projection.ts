import { assertNever } from '../shared/never.ts';
import type { StoredDomainEvent } from '../events.ts';
import { chunked, defineProjection, insertRecordset, type ProjectionContext } from '../runtime/projection.ts';
import { CUSTOMER_FIELDS, type CustomerField } from './fields.ts';

/** Read-model columns of the customer fields (the search text is a generated column). */
export const CUSTOMER_COLUMNS: Record<CustomerField, string> = {
  name: 'name',
  phone: 'phone',
  email: 'email',
  address: 'address',
  vehicles: 'vehicles',
  pastAppointments: 'past_appointments',
  invoices: 'invoices',
  notes: 'notes',
};

/** rm.customer_counts: live customers per instance, moved only by a row actually inserted or deleted (so replays cannot skew it). */
async function countCustomers(ctx: ProjectionContext, instanceId: string, delta: number): Promise<void> {
  await ctx.write(
    ctx.trx.raw(
      `INSERT INTO ??.customer_counts AS c (instance_id, total) VALUES (?, ?)
         ON CONFLICT (instance_id) DO UPDATE SET total = c.total + excluded.total`,
      [ctx.schema, instanceId, delta],
    ),
  );
}

/**
 * rm.customers: one row per live customer. Its times are when the event store recorded
 * the events (the clock history and time travel go by), its who from the metadata.
 * Updates apply only over an older revision, so a replayed event can never move a row
 * backwards; a deleted customer leaves the table (its stream keeps the history and
 * answers time travel).
 */
/** The columns a creation fills (the search text is generated). */
export const CREATED_COLUMNS: Record<string, string> = {
  id: 'uuid',
  instance_id: 'uuid',
  number: 'integer',
  ...Object.fromEntries(CUSTOMER_FIELDS.map((field) => [CUSTOMER_COLUMNS[field], 'text'])),
  created_at: 'timestamptz',
  created_by: 'text',
  last_modified_at: 'timestamptz',
  last_modified_by: 'text',
  revision: 'integer',
};

type CustomerCreatedEvent = Extract<StoredDomainEvent, { type: 'CustomerCreated' }>;

/** Inserts new customers (a replayed one stays as it is) and counts the rows actually inserted, per instance. */
async function createCustomers(events: CustomerCreatedEvent[], ctx: ProjectionContext): Promise<void> {
  const added = new Map<string, number>();
  for (const chunk of chunked(events, 5000)) {
    const rows = chunk.map((event) => {
      const d = event.data;
      const columns: Record<string, string> = {};
      for (const field of CUSTOMER_FIELDS) columns[CUSTOMER_COLUMNS[field]] = d[field];
      return {
        id: d.customerId,
        instance_id: d.instanceId,
        number: d.number,
        ...columns,
        created_at: event.recordedAt,
        created_by: event.metadata.actor.displayName,
        last_modified_at: event.recordedAt,
        last_modified_by: event.metadata.actor.displayName,
        revision: event.revision,
      };
    });
    const inserted = await insertRecordset<{ instance_id: string }>(
      ctx,
      'customers',
      CREATED_COLUMNS,
      rows,
      'ON CONFLICT (id) DO NOTHING RETURNING instance_id',
    );
    for (const row of inserted) added.set(row.instance_id, (added.get(row.instance_id) ?? 0) + 1);
  }
  for (const [instanceId, count] of added) await countCustomers(ctx, instanceId, count);
}

type RestoredRow = { customerId: string; instanceId: string; number: number; createdAt: string; createdBy: string } & Record<
  CustomerField,
  string
>;

/** Back on the list as it was deleted (or merged away), keeping its first creation's time (a row that exists is a replay). */
async function restoreRow(ctx: ProjectionContext, d: RestoredRow, event: StoredDomainEvent): Promise<void> {
  const columns: Record<string, string> = {};
  for (const field of CUSTOMER_FIELDS) columns[CUSTOMER_COLUMNS[field]] = d[field];
  const row = {
    id: d.customerId,
    instance_id: d.instanceId,
    number: d.number,
    ...columns,
    created_at: new Date(d.createdAt),
    created_by: d.createdBy,
    last_modified_at: event.recordedAt,
    last_modified_by: event.metadata.actor.displayName,
    revision: event.revision,
  };
  const inserted = await insertRecordset(ctx, 'customers', CREATED_COLUMNS, [row], 'ON CONFLICT (id) DO NOTHING RETURNING id');
  if (inserted.length > 0) await countCustomers(ctx, d.instanceId, 1);
}

export const customersProjection = defineProjection({
  name: 'customers',
  // The record's own rows: written with its events (runtime/inline.ts).
  inline: true,
  eventTypes: ['CustomerCreated', 'CustomerUpdated', 'CustomerRestored', 'CustomerDeleted', 'CustomerMerged', 'CustomerMergeUndone'],
  async apply(event, ctx) {
    const { table } = ctx;
    switch (event.type) {
      case 'CustomerCreated':
        await createCustomers([event], ctx);
        return;
      case 'CustomerUpdated': {
        const columns: Record<string, string> = {};
        for (const change of event.data.changes) columns[CUSTOMER_COLUMNS[change.field]] = change.newValue;
        const update = table('customers')
          .where('id', event.data.customerId)
          .andWhere('revision', '<', event.revision)
          .update({
            ...columns,
            last_modified_at: event.recordedAt,
            last_modified_by: event.metadata.actor.displayName,
            revision: event.revision,
          });
        // In an append's own transaction the row as stored is the command's answer (ctx.written).
        const { written } = ctx;
        if (written) await ctx.write(update.returning('*'), (rows) => written('customers', rows));
        else await ctx.write(update);
        return;
      }
      case 'CustomerMerged':
      case 'CustomerMergeUndone': {
        const d = event.data;
        if (event.type === 'CustomerMerged' && d.role === 'from') {
          // Merged away: off the lists like a deleted customer (its stream keeps the history).
          const gone = (await table('customers').where('id', d.customerId).delete().returning('instance_id')) as Array<{
            instance_id: string;
          }>;
          if (gone[0]) await countCustomers(ctx, gone[0].instance_id, -1);
          return;
        }
        if (event.type === 'CustomerMergeUndone' && event.data.restored) {
          await restoreRow(ctx, { customerId: d.customerId, number: d.number, ...event.data.restored }, event);
          return;
        }
        // The other side: a new revision (its ETag moves) and who changed it last.
        await ctx.write(
          table('customers')
            .where('id', d.customerId)
            .andWhere('revision', '<', event.revision)
            .update({ last_modified_at: event.recordedAt, last_modified_by: event.metadata.actor.displayName, revision: event.revision }),
        );
        return;
      }
      case 'CustomerRestored':
        await restoreRow(ctx, event.data, event);
        return;
      case 'CustomerDeleted': {
        const deleted = (await table('customers').where('id', event.data.customerId).delete().returning('instance_id')) as Array<{
          instance_id: string;
        }>;
        if (deleted[0]) await countCustomers(ctx, deleted[0].instance_id, -1);
        return;
      }
      default:
        return assertNever(event, 'event');
    }
  },
  /** Runs of creations (what imports and seeding make) in multi-row statements; the rest event by event, in order. */
  async applyBatch(events, ctx) {
    let run: CustomerCreatedEvent[] = [];
    for (const event of events) {
      if (event.type === 'CustomerCreated') {
        run.push(event);
        continue;
      }
      if (run.length > 0) await createCustomers(run, ctx);
      run = [];
      await customersProjection.apply(event, ctx);
    }
    if (run.length > 0) await createCustomers(run, ctx);
  },
});
