import type { EventMetadata, RecordedEvent } from './port.ts';

/**
 * The columns every read of the PostgreSQL events table selects. The text aliases must
 * differ from the column names: ORDER BY tx_id would otherwise sort by the text output
 * column ('1001' < '998').
 */
export const EVENT_COLUMNS = `seq::text as seq_text, tx_id::text as tx_text, stream_id, revision, event_id::text as event_id,
  type, data, metadata, recorded_at`;

/** A row of the events table as its SELECTs and INSERT … RETURNINGs answer it (positions as text). */
export interface EventRow {
  seq_text: string;
  tx_text: string;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

/** The recorded event an events-table row holds: what readers and the inline projections take. */
export function recordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: row.revision,
    position: { commit: BigInt(row.tx_text), prepare: BigInt(row.seq_text) },
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
  };
}
