import type { EventMetadata, RecordedEvent } from '@crm/projections/eventstore/port';

/**
 * An event row as an INSERT … RETURNING into the events table answers it (positions as text),
 * and the recorded event it is: what the inline projections take after a bulk write.
 */
export interface WrittenRow {
  event_id: string;
  stream_id: string;
  revision: number;
  tx_text: string;
  seq_text: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

export function writtenEvent(row: WrittenRow): RecordedEvent {
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
