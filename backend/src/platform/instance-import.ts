import type { Knex } from 'knex';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import { inlineProjections } from '@crm/projections/read-models';
import { InlineProjectionError, projectWrittenEvents } from '@crm/projections/runtime/inline';
import { eventSchemas, isEventType } from '@crm/projections/events';
import { upcastData } from '@crm/projections/upcasters';
import { recordedEvent, type EventRow } from '@crm/projections/eventstore/postgres';
import { exportedEvent, exportEndLine, type ExportedEvent } from './instance-export.ts';

/**
 * Restoring one shop from its export (instance-export.ts): the whole file checked first,
 * then its events written as they were recorded, in one transaction.
 */

/** No exported event comes near this (text fields are limited far below it). */
export const MAX_IMPORT_LINE_CHARS = 1_000_000;

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * What makes a file one whole shop, checked before anything is written: one instance id
 * throughout (the one its CrmInstanceCreated names), only known event types whose data
 * passes their schemas, no event id twice, and every record's reservation (a user's
 * username, a customer's or job's number, the shop's subdomain) present, so a record never
 * arrives without what keeps its name or number unique.
 */
class WholeFileChecks {
  instanceId: string | null = null;
  private readonly ids = new Set<string>();
  private readonly reserved = new Set<string>();
  private readonly needed: Array<{ key: string; line: number; what: string }> = [];
  private readonly claims: Array<{ line: number; event: ExportedEvent; instanceId: unknown }> = [];

  add(line: number, event: ExportedEvent): void {
    const at = `line ${line} (event ${event.id}, ${event.type})`;
    if (this.ids.has(event.id)) throw new ImportError(`${at}: the event id appears twice in the file`);
    this.ids.add(event.id);
    if (!isEventType(event.type)) throw new ImportError(`${at}: unknown event type`);
    let data: Record<string, unknown>;
    try {
      const version = event.metadata.schemaVersion;
      const upcast = upcastData(event.type, typeof version === 'number' ? version : undefined, event.data);
      const result = eventSchemas[event.type].safeParse(upcast);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        throw new ImportError(`${at}: field data.${issue.path.join('.') || '(whole)'}: ${issue.message}`);
      }
      data = result.data as Record<string, unknown>;
    } catch (error) {
      if (error instanceof ImportError) throw error;
      throw new ImportError(`${at}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const claimed = typeof event.metadata.instanceId === 'string' ? event.metadata.instanceId : data.instanceId;
    this.claims.push({ line, event, instanceId: claimed });
    if (event.type === 'CrmInstanceCreated') {
      if (this.instanceId !== null) throw new ImportError(`${at}: a second instance in one file`);
      this.instanceId = String(data.instanceId);
    }
    const reservation = RESERVATIONS[event.type];
    if (reservation) this.reserved.add(`${reservation.kind}:${String(data[reservation.holder])}`);
    const need = NEEDS_RESERVATION[event.type];
    if (need)
      this.needed.push({ key: `${need.kind}:${String(data[need.holder])}`, line, what: `${at}: its ${need.what} reservation is missing` });
  }

  finish(): void {
    if (this.ids.size === 0) throw new ImportError('the file holds no events');
    if (this.instanceId === null) throw new ImportError('the file has no CrmInstanceCreated event (the file is not a whole export)');
    for (const claim of this.claims) {
      if (claim.instanceId !== this.instanceId) {
        throw new ImportError(
          `line ${claim.line} (event ${claim.event.id}, ${claim.event.type}): field metadata.instanceId is ${JSON.stringify(claim.instanceId ?? null)}, not the file's instance ${this.instanceId}`,
        );
      }
    }
    const missing = this.needed.find((n) => !this.reserved.has(n.key));
    if (missing) throw new ImportError(`${missing.what} (the file is not a whole export)`);
  }
}

/** Reservation events and the record id they hold their name or number for. */
const RESERVATIONS: Partial<Record<string, { kind: string; holder: string }>> = {
  SubdomainReserved: { kind: 'subdomain', holder: 'instanceId' },
  UsernameReserved: { kind: 'username', holder: 'userId' },
  CustomerNumberReserved: { kind: 'customer number', holder: 'customerId' },
  JobNumberReserved: { kind: 'job number', holder: 'jobId' },
  ServiceRequestNumberReserved: { kind: 'request number', holder: 'serviceRequestId' },
};

/** Records whose creation follows a reservation. */
const NEEDS_RESERVATION: Partial<Record<string, { kind: string; holder: string; what: string }>> = {
  CrmInstanceCreated: { kind: 'subdomain', holder: 'instanceId', what: 'subdomain' },
  UserCreated: { kind: 'username', holder: 'userId', what: 'username' },
  CustomerCreated: { kind: 'customer number', holder: 'customerId', what: 'customer number' },
  JobCreated: { kind: 'job number', holder: 'jobId', what: 'job number' },
  ServiceRequestSubmitted: { kind: 'request number', holder: 'serviceRequestId', what: 'request number' },
};

export class ImportError extends Error {
  override readonly name = 'ImportError';
}

export interface ImportReport {
  events: number;
  streams: number;
}

/**
 * Writes exported events into this store as they were recorded: same ids, streams,
 * revisions and recorded times, in the file's order, in one transaction. Refuses a file
 * without its end line or whose end line counts other events than it holds (cut short),
 * (before writing anything) a file whose streams already exist here, an event that is not
 * the next revision of its stream, and a line that is not an exported event. Run a rebuild
 * afterwards (`npm run projections:rebuild`): the projector would also catch up by itself.
 */
export async function importEvents(
  knex: Knex,
  lines: AsyncIterable<string>,
  onProgress?: (imported: number) => void,
): Promise<ImportReport> {
  const events: ExportedEvent[] = [];
  const next = new Map<string, number>();
  const checks = new WholeFileChecks();
  let lineNumber = 0;
  let end: { line: number; events: number } | null = null;
  for await (const read of lines) {
    lineNumber++;
    // A file saved again by an editor may begin with a byte order mark, which is no JSON.
    const line = lineNumber === 1 && read.startsWith(BYTE_ORDER_MARK) ? read.slice(1) : read;
    if (line.length > MAX_IMPORT_LINE_CHARS) {
      throw new ImportError(`line ${lineNumber}: longer than ${MAX_IMPORT_LINE_CHARS / 1_000_000} MB, which no exported event is`);
    }
    if (!line.trim()) continue;
    if (end !== null) throw new ImportError(`line ${lineNumber}: after the end line (line ${end.line}), where the file must end`);
    let parsed: ExportedEvent;
    try {
      const json: unknown = JSON.parse(line);
      if (typeof json === 'object' && json !== null && 'end' in json) {
        end = { line: lineNumber, events: exportEndLine.parse(json).events };
        continue;
      }
      parsed = exportedEvent.parse(json);
    } catch (error) {
      throw new ImportError(
        `line ${lineNumber}: not an exported event (${error instanceof Error ? error.message.split('\n')[0] : 'invalid'})`,
      );
    }
    const expected = next.get(parsed.streamId) ?? 0;
    if (parsed.revision !== expected) {
      throw new ImportError(
        `line ${lineNumber}: stream ${parsed.streamId} revision ${parsed.revision}, expected ${expected} (the file is not a whole export)`,
      );
    }
    checks.add(lineNumber, parsed);
    next.set(parsed.streamId, expected + 1);
    events.push(parsed);
  }
  if (end === null)
    throw new ImportError(`the file ends after ${events.length} events without its end line: it was cut short, or is not an export`);
  if (end.events !== events.length)
    throw new ImportError(`line ${end.line}: the end line counts ${end.events} events, the file holds ${events.length}`);
  checks.finish();
  const streams = [...next.keys()];
  for (let i = 0; i < events.length; i += 5_000) {
    const ids = events.slice(i, i + 5_000).map((e) => e.id);
    const existing = (await knex('events').whereIn('event_id', ids).limit(1).pluck('event_id')) as string[];
    if (existing.length > 0) throw new ImportError(`event ${existing[0]} is already in this store: import into a store without the shop`);
  }
  const instanceId = checks.instanceId!;
  const present = await knex.withSchema(READ_MODEL_SCHEMA).from('crm_instances').where({ id: instanceId }).first('id');
  if (present) throw new ImportError(`this store already has the instance ${instanceId}: import into a store without the shop`);
  for (let i = 0; i < streams.length; i += 5_000) {
    const existing = (await knex('streams')
      .whereIn('stream_id', streams.slice(i, i + 5_000))
      .limit(3)
      .pluck('stream_id')) as string[];
    if (existing.length > 0)
      throw new ImportError(`the store already has streams of this export (${existing.join(', ')}): import into an empty store`);
  }
  let imported = 0;
  // One transaction: an import that fails half-way (or is killed) leaves nothing, and can be run again.
  await knex.transaction(async (trx) => {
    for (let i = 0; i < events.length; i += 1_000) {
      const batch = events.slice(i, i + 1_000);
      // Rows in the file's order: seq (and so the global order) follows it.
      const written = await trx.raw<{ rows: EventRow[] }>(
        `with input as (
           select * from jsonb_to_recordset(?::jsonb)
             as t(ord int, stream_id text, revision int, id uuid, type text, data jsonb, metadata jsonb, recorded_at timestamptz)
         ), appended as (
           insert into events (stream_id, revision, event_id, type, data, metadata, recorded_at)
           select stream_id, revision, id, type, data, metadata, recorded_at from input order by ord
           returning event_id, stream_id, revision, tx_id, seq, type, data, metadata, recorded_at
         ), streamed as (
           insert into streams (stream_id, revision)
           select stream_id, max(revision) from input group by stream_id
           on conflict (stream_id) do update set revision = excluded.revision
         )
         select event_id::text, stream_id, revision, tx_id::text as tx_text, seq::text as seq_text, type, data, metadata, recorded_at
           from appended order by seq`,
        [
          JSON.stringify(
            batch.map((e, ord) => ({
              ord,
              stream_id: e.streamId,
              revision: e.revision,
              id: e.id,
              type: e.type,
              data: e.data,
              metadata: e.metadata,
              recorded_at: e.recordedAt,
            })),
          ),
        ],
      );
      // The records' own rows, as an append would have written them (runtime/inline.ts).
      try {
        await projectWrittenEvents(trx, READ_MODEL_SCHEMA, inlineProjections, written.rows.map(recordedEvent));
      } catch (error) {
        if (error instanceof InlineProjectionError) throw new ImportError(error.message);
        throw error;
      }
      imported += batch.length;
      onProgress?.(imported);
    }
  });
  // Wakes a running projector (it would otherwise find the events at its next poll).
  await knex.raw(`select pg_notify('events', '')`);
  return { events: imported, streams: streams.length };
}
