import type { AppendExpectedRevision, Position, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { esdb } from './eventstoredb-client.ts';
import type { EventMetadata, ExpectedRevision, GlobalPosition, RecordedEvent } from './port.ts';

/** Between the official client's terms and the port's: revisions, positions, recorded events, and reading a result whole. */

/**
 * Reads a server-streamed result to its end before anything is done with it. Leaving a read early
 * (break, return or a throw inside `for await`) leaves the gRPC call unfinished: the client keeps it
 * in its disposable streams and dispose(), so close(), waits for it forever.
 */
export async function drain<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

/** A subscription stream that ended with an error of its own (a premature close, a reset). */
export function isDroppedStream(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE';
}

export function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return esdb().ANY;
  if (expected === 'no_stream') return esdb().NO_STREAM;
  return BigInt(expected);
}

/** "No position" arrives as -1 read as an unsigned 64-bit number (the server's Position.FromInt64(-1, -1)):
 * the client always fills `position` on read events, so an absent position is this value, never undefined. */
export function isValidPosition(p: Position): boolean {
  const max = 2n ** 63n;
  return p.commit >= 0n && p.prepare >= 0n && p.commit < max && p.prepare < max;
}

export function isStart(p: GlobalPosition): boolean {
  return p.commit < 0n;
}

export function toEsdbPosition(p: GlobalPosition): Position {
  return { commit: p.commit, prepare: p.prepare };
}

export function toPosition(p: Position): GlobalPosition {
  return { commit: p.commit, prepare: p.prepare };
}

export function isSystem(event: { type: string; streamId: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

export function toRecorded(event: EsdbRecordedEvent, prefix: string): RecordedEvent {
  if (!event.position || !isValidPosition(event.position)) {
    throw new Error(`Event ${event.id} has no position (EventStoreDB older than 22.6?)`);
  }
  return {
    id: event.id,
    streamId: event.streamId.slice(prefix.length),
    revision: Number(event.revision),
    position: toPosition(event.position),
    type: event.type,
    data: event.data,
    metadata: toMetadata(event),
    recordedAt: event.created,
  };
}

/** Written by this adapter from EventMetadata (see append); anything else is not ours. */
function toMetadata(event: EsdbRecordedEvent): EventMetadata {
  const { metadata } = event;
  if (typeof metadata !== 'object' || metadata === null || metadata instanceof Uint8Array || Array.isArray(metadata)) {
    throw new Error(`Event ${event.id} in ${event.streamId} has no JSON metadata object`);
  }
  return metadata as unknown as EventMetadata;
}
