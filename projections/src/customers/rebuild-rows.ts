import type { StoredDomainEvent } from '../events.ts';
import { tableRows } from '../runtime/bulk-rows.ts';
import type { BulkRebuilder } from '../runtime/projection.ts';
import { assertNever } from '../shared/never.ts';
import { CUSTOMER_FIELDS, type CustomerField } from './fields.ts';
import { CREATED_COLUMNS, CUSTOMER_COLUMNS } from './projection.ts';

type CustomerEvent = Extract<
  StoredDomainEvent,
  { type: 'CustomerCreated' | 'CustomerUpdated' | 'CustomerRestored' | 'CustomerDeleted' | 'CustomerMerged' | 'CustomerMergeUndone' }
>;

type Row = Record<string, unknown> & { instance_id: string; revision: number };

/**
 * The customers projection in a rebuild: its rows folded over the whole log in memory by the
 * live projection's rules (a creation or restore only for a customer without a row, an update
 * only over an older revision, a deletion or merge-away removing the row), written once at
 * the end with `customer_counts`: the rows per instance, for every instance that ever had
 * one inserted (the live count goes down to zero and stays).
 */
export function customersBulk(): BulkRebuilder {
  const rows = new Map<string, Row>();
  const instances = new Set<string>();
  const insert = (id: string, row: Row) => {
    if (rows.has(id)) return;
    rows.set(id, row);
    instances.add(row.instance_id);
  };
  const touch = (id: string, event: StoredDomainEvent, columns: Record<string, unknown> = {}) => {
    const row = rows.get(id);
    if (!row || row.revision >= event.revision) return;
    Object.assign(row, columns, {
      last_modified_at: event.recordedAt,
      last_modified_by: event.metadata.actor.displayName,
      revision: event.revision,
    });
  };
  const fieldsOf = (data: Record<CustomerField, string>) =>
    Object.fromEntries(CUSTOMER_FIELDS.map((field) => [CUSTOMER_COLUMNS[field], data[field]]));
  const restore = (
    d: { customerId: string; instanceId: string; number: number; createdAt: string; createdBy: string } & Record<CustomerField, string>,
    event: StoredDomainEvent,
  ) =>
    insert(d.customerId, {
      id: d.customerId,
      instance_id: d.instanceId,
      number: d.number,
      ...fieldsOf(d),
      created_at: new Date(d.createdAt),
      created_by: d.createdBy,
      last_modified_at: event.recordedAt,
      last_modified_by: event.metadata.actor.displayName,
      revision: event.revision,
    });
  return {
    page(events) {
      for (const event of events as CustomerEvent[]) {
        switch (event.type) {
          case 'CustomerCreated': {
            const d = event.data;
            insert(d.customerId, {
              id: d.customerId,
              instance_id: d.instanceId,
              number: d.number,
              ...fieldsOf(d),
              created_at: event.recordedAt,
              created_by: event.metadata.actor.displayName,
              last_modified_at: event.recordedAt,
              last_modified_by: event.metadata.actor.displayName,
              revision: event.revision,
            });
            break;
          }
          case 'CustomerUpdated':
            touch(
              event.data.customerId,
              event,
              Object.fromEntries(event.data.changes.map((change) => [CUSTOMER_COLUMNS[change.field], change.newValue])),
            );
            break;
          case 'CustomerMerged':
          case 'CustomerMergeUndone': {
            const d = event.data;
            if (event.type === 'CustomerMerged' && d.role === 'from') rows.delete(d.customerId);
            else if (event.type === 'CustomerMergeUndone' && event.data.restored)
              restore({ customerId: d.customerId, number: d.number, ...event.data.restored }, event);
            else touch(d.customerId, event);
            break;
          }
          case 'CustomerRestored':
            restore(event.data, event);
            break;
          case 'CustomerDeleted':
            rows.delete(event.data.customerId);
            break;
          default:
            assertNever(event, 'event');
        }
      }
      return [];
    },
    finish() {
      const counts = new Map<string, number>([...instances].map((id) => [id, 0]));
      for (const row of rows.values()) counts.set(row.instance_id, (counts.get(row.instance_id) ?? 0) + 1);
      const result = [
        tableRows('customers', CREATED_COLUMNS, [...rows.values()]),
        tableRows(
          'customer_counts',
          { instance_id: 'uuid', total: 'integer' },
          [...counts].map(([id, total]) => ({ instance_id: id, total })),
        ),
      ];
      rows.clear();
      return result;
    },
  };
}
