import type { StoredDomainEvent } from '../events.ts';
import type { TableRows } from './copy.ts';

/** `rows` (objects keyed by column) as COPY's rows for `table`, values in the order of `columns`. */
export function tableRows(table: string, columns: Record<string, string>, rows: readonly Record<string, unknown>[]): TableRows {
  return { table, columns: Object.keys(columns), rows };
}

/** Rows made one per event (or none), never changed afterwards: each page's go out with it. */
export function rowsPerEvent<Row extends Record<string, unknown>>(
  events: readonly StoredDomainEvent[],
  rowOf: (event: StoredDomainEvent) => Row | null,
): Row[] {
  const rows: Row[] = [];
  for (const event of events) {
    const row = rowOf(event);
    if (row) rows.push(row);
  }
  return rows;
}
