/**
 * Who made a record and who last changed it, with its revision: the columns every record read
 * model keeps (customers, service requests) and the fields their views end with.
 */

export const RECORD_STAMP_COLUMNS = ['created_at', 'created_by', 'last_modified_at', 'last_modified_by', 'revision'] as const;

export interface RecordStampRow {
  created_at: Date;
  created_by: string;
  last_modified_at: Date;
  last_modified_by: string;
  revision: number;
}

export interface RecordStamps {
  createdAt: string;
  createdBy: string;
  lastModifiedAt: string;
  lastModifiedBy: string;
  revision: number;
}

export function recordStamps(row: RecordStampRow): RecordStamps {
  return {
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
    lastModifiedAt: new Date(row.last_modified_at).toISOString(),
    lastModifiedBy: row.last_modified_by,
    revision: row.revision,
  };
}
