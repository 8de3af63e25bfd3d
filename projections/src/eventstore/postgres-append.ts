import type { Knex } from 'knex';
import type pg from 'pg';
import { applyInline, inlinePrefetches, InlineProjectionError } from '../runtime/inline.ts';
import { toNativeStatement } from '../runtime/native-sql.ts';
import {
  DeferredWriteError,
  pipelinedTransaction,
  PREPARED_STATEMENT_ERRORS,
  type NativeStatement,
} from '../runtime/pipelined-transaction.ts';
import type { Projection } from '../runtime/projection.ts';
import {
  START,
  WrongExpectedVersionError,
  type AppendOptions,
  type AppendResult,
  type EventMetadata,
  type ExpectedRevision,
  type GlobalPosition,
  RequiredRowMissingError,
  type NewEvent,
  type RecordedEvent,
  type RequiredRow,
  type StreamAppend,
} from './port.ts';

/**
 * How the PostgreSQL adapter appends (postgres.ts): the call of append_events
 * (db/migrations/0004_append_function.ts), its answer as the port's result, and an append
 * with the inline read models' rows in one transaction of few round trips.
 */

interface StoredIdRow {
  event_id: string;
  stream_id: string;
  revision: number;
  tx_text: string;
  seq_text: string;
}

export interface AppendedRow extends StoredIdRow {
  /** The ids were stored already: the rows are the stored ones (the adapter checks it is a replay). */
  replay: boolean;
  recorded_at: Date;
}

export const APPEND_SQL =
  'select event_id, stream_id, revision, tx_text, seq_text, replay, recorded_at from append_events($1, $2, $3::jsonb)';
/** SQLSTATE raised by append_events on a wrong expected revision (DETAIL: the actual revision, -1 for none). */
const WRONG_EXPECTED_VERSION = 'CR409';
/** SQLSTATE raised by append_events when an append that carries its recorded time is a replay (db/migrations/0010). */
const REPLAYED_WITH_ROWS = 'CR412';
/** SQLSTATE raised by require_row when an append's required row is missing (db/migrations/0011). */
const ROW_MISSING = 'CR404';
/** How often an inline append is tried when concurrent appends deadlock on their rows. */
const INLINE_ATTEMPTS = 3;

/** Read models every append writes in its own transaction (runtime/inline.ts), through this knex. */
export interface InlineProjecting {
  knex: Knex;
  schema: string;
  projections: readonly Projection[];
}

export function rowPosition(row: { tx_text: string; seq_text: string }): GlobalPosition {
  return { commit: BigInt(row.tx_text), prepare: BigInt(row.seq_text) };
}

/** Turns append_events' answer into the port's result. */
export function appendOutcome(streamId: string, ids: string[], rows: AppendedRow[]): AppendResult {
  if (rows[0]?.replay) return idempotentResult(streamId, ids, rows);
  const last = rows[rows.length - 1];
  if (!last) throw new Error(`Stream ${streamId}: insert returned no rows`);
  return {
    nextRevision: last.revision,
    position: rowPosition(last),
    positions: rows.map(rowPosition),
    recordedAt: rows.map((row) => row.recorded_at),
  };
}

/** append_events' wrong-revision error as the port's; any other error as it is. */
export function appendError(streamId: string, expectedRevision: ExpectedRevision, error: unknown): unknown {
  const pgError = error as { code?: string; detail?: string };
  if (pgError.code === WRONG_EXPECTED_VERSION) {
    const actual = Number(pgError.detail);
    return new WrongExpectedVersionError(streamId, expectedRevision, actual === -1 || !Number.isFinite(actual) ? 'no_stream' : actual);
  }
  return error;
}

/** append_events' parameters; `recordedAt`: the events' recorded time, given (db/migrations/0010) rather than the database's clock. */
export function appendValues(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision, recordedAt?: Date) {
  if (events.length === 0) throw new Error(`Stream ${streamId}: append needs at least one event`);
  const ids = events.map((e) => e.id.toLowerCase());
  const at = recordedAt?.toISOString();
  const payload = JSON.stringify(
    events.map((e, i) => ({ id: ids[i], type: e.type, data: e.data, metadata: e.metadata, ...(at ? { recordedAt: at } : {}) })),
  );
  const expected = expectedRevision === 'any' ? -2 : expectedRevision === 'no_stream' ? -1 : expectedRevision;
  return { ids, values: [streamId, expected, payload] };
}

function idempotentResult(streamId: string, ids: string[], rows: StoredIdRow[]): AppendResult {
  const byId = new Map(rows.map((r) => [r.event_id, r]));
  const first = byId.get(ids[0] ?? '');
  // Only an exact replay (same ids, same stream, same order) is a retry; anything else is a bug.
  const replay =
    first !== undefined &&
    rows.length === ids.length &&
    ids.every((id, i) => {
      const row = byId.get(id);
      return row !== undefined && row.stream_id === streamId && row.revision === first.revision + i;
    });
  if (!replay) {
    throw new Error(
      `Stream ${streamId}: ${rows.length} of ${ids.length} event ids are already stored (in ${[
        ...new Set(rows.map((r) => r.stream_id)),
      ].join(', ')}) but the append is not a replay of that earlier append`,
    );
  }
  const replayed = ids.map((id) => byId.get(id)!);
  const last = replayed[replayed.length - 1];
  if (!last) throw new Error('unreachable: replay without a last event');
  return {
    nextRevision: last.revision,
    position: rowPosition(last),
    positions: replayed.map(rowPosition),
  };
}

/**
 * The appends of one command and the inline read models' rows for their events, in one
 * transaction: the rows commit with the events or neither does. A deadlock or serialization
 * failure between concurrent appends' rows rolls the whole append back; it is tried again
 * (the same event ids, so it can only be recorded once). So is, once, an append whose
 * prepared row statement was stale or gone (NativeStatement.prepared): the connection
 * prepares it again on the next try.
 */
export async function appendInline(
  appends: StreamAppend[],
  projecting: InlineProjecting,
  { read, requires = [] }: AppendOptions = {},
): Promise<AppendResult[]> {
  // Counted apart: the one try again after a stale prepared statement is not a deadlock's.
  let preparedAgain = false;
  let deadlocks = 0;
  for (;;) {
    try {
      return (
        (await appendInOneMessage(appends, projecting, read, requires)) ?? (await appendInlineOnce(appends, projecting, read, requires))
      );
    } catch (error) {
      const code = (
        (error instanceof InlineProjectionError || error instanceof DeferredWriteError ? error.cause : error) as {
          code?: unknown;
        } | null
      )?.code;
      if (code === ROW_MISSING) throw missingRow(requires, error);
      if (PREPARED_STATEMENT_ERRORS.has(String(code)) && !preparedAgain) {
        preparedAgain = true;
        continue;
      }
      if ((code !== '40P01' && code !== '40001') || ++deadlocks >= INLINE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Round trips: BEGIN, every append_events of the command and the reads the projections start
 * with (Projection.prefetch) go as one message, but for projections whose rows the command
 * read already (`read`, valid under the append's expected revisions: see AppendOptions);
 * then the projections' statements whose answers they read; their other writes go with the
 * COMMIT (ProjectionContext.write). The events go to the projections as PostgreSQL stored
 * them (the JSON the append sent, the positions and times it answered). The rows the
 * projections report (ProjectionContext.written) come back as the results' `written`.
 */
async function appendInlineOnce(
  appends: StreamAppend[],
  projecting: InlineProjecting,
  read: AppendOptions['read'],
  requires: readonly RequiredRow[],
): Promise<AppendResult[]> {
  const prepared = appends.map((a) => ({ ...a, ...appendValues(a.streamId, a.events, a.expectedRevision) }));
  const pending = appends.flatMap((a) => a.events.map((e) => ({ type: e.type, data: e.data, metadata: e.metadata })));
  const prefetches = inlinePrefetches(
    projecting.projections.filter((projection) => !read?.has(projection.name)),
    pending,
    projecting.schema,
  );
  const written: Record<string, Array<Record<string, unknown>>> = {};
  try {
    const answers = await pipelinedTransaction(projecting.knex, async (trx, connection) => {
      const reads: NativeStatement[] = prefetches.map(({ statement }) => toNativeStatement(trx, statement.sql, statement.bindings));
      let results: pg.QueryResult[];
      try {
        results = (
          await connection.sendAll([
            ...requires.map((row) => requireRowStatement(projecting.schema, row)),
            ...prepared.map((a) => ({ sql: APPEND_SQL, values: a.values })),
            ...reads,
          ])
        ).slice(requires.length);
      } catch (error) {
        throw failedAppend(prepared, error);
      }
      const answers: AppendResult[] = [];
      const recorded: RecordedEvent[] = [];
      prepared.forEach((a, k) => {
        const rows = results[k]!.rows as AppendedRow[];
        const result = { ...appendOutcome(a.streamId, a.ids, rows), types: a.events.map((event) => event.type) };
        answers.push(result);
        // A replay was projected when it was first appended.
        if (!result.recordedAt) return;
        const sent = JSON.parse(a.values[2] as string) as Array<{ type: string; data: unknown; metadata: EventMetadata }>;
        rows.forEach((row, i) =>
          recorded.push({
            id: row.event_id,
            streamId: row.stream_id,
            revision: row.revision,
            position: rowPosition(row),
            type: sent[i]!.type,
            data: sent[i]!.data,
            metadata: sent[i]!.metadata,
            recordedAt: row.recorded_at,
          }),
        );
      });
      const prefetched = new Map<string, readonly Record<string, unknown>[]>([
        ...(read ?? []),
        ...prefetches.map(({ projection }, j) => [projection, results[prepared.length + j]!.rows] as const),
      ]);
      await applyInline(trx, projecting.schema, projecting.projections, recorded, {
        connection,
        prefetched,
        written: (table, rows) => (written[table] ??= []).push(...rows),
      });
      return answers;
    });
    // Filled in when the COMMIT's answer came (the writes held back for it report there).
    if (Object.keys(written).length > 0) for (const answer of answers) if (answer.recordedAt) answer.written = written;
    return answers;
  } catch (error) {
    // A write held back for the COMMIT failed there: the projection it came from failed the append.
    if (error instanceof DeferredWriteError) throw new InlineProjectionError(error.writers.join(', ') || 'inline', error);
    throw error;
  }
}

/**
 * One round trip: BEGIN, every append_events, the inline projections' rows and COMMIT as one
 * message. The projections need what the append would answer, and here it is known before:
 * each event's revision follows from the expected revision the append checks (so not for
 * `any`), and its recorded time is given to the store (now, on this process's clock) instead
 * of taken from the database's. Positions are not known before the commit, and inline
 * projections do not read them (they keep a record's own rows; what goes by the log's order
 * is asynchronous), so the events carry START. A projection that reads (its prefetch, or a
 * row that trails its stream) still works, at one round trip more.
 *
 * Null, nothing recorded, when the events are a replay of an earlier append (their ids are
 * stored): the rows were built for new events, so the store refuses it (CR412) and the
 * append goes the ordinary way, which answers the replay. Also null when a projection wants
 * rows read with the append (Projection.prefetch) that the command did not read (`read`).
 */
async function appendInOneMessage(
  appends: StreamAppend[],
  projecting: InlineProjecting,
  read: AppendOptions['read'],
  requires: readonly RequiredRow[],
): Promise<AppendResult[] | null> {
  if (appends.some((a) => a.expectedRevision === 'any')) return null;
  const pending = appends.flatMap((a) => a.events.map((e) => ({ type: e.type, data: e.data, metadata: e.metadata })));
  const unread = projecting.projections.filter((projection) => !read?.has(projection.name));
  if (inlinePrefetches(unread, pending, projecting.schema).length > 0) return null;
  const recordedAt = new Date();
  const prepared = appends.map((a) => ({ ...a, ...appendValues(a.streamId, a.events, a.expectedRevision, recordedAt) }));
  const recorded: RecordedEvent[] = prepared.flatMap((a) => {
    const first = a.expectedRevision === 'no_stream' ? 0 : (a.expectedRevision as number) + 1;
    // As PostgreSQL will store them: the JSON the append sends.
    const sent = JSON.parse(a.values[2] as string) as Array<{ type: string; data: unknown; metadata: EventMetadata }>;
    return sent.map((event, i) => ({
      id: a.ids[i]!,
      streamId: a.streamId,
      revision: first + i,
      position: START,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      recordedAt,
    }));
  });
  const stored: AppendedRow[][] = prepared.map(() => []);
  const written: Record<string, Array<Record<string, unknown>>> = {};
  try {
    await pipelinedTransaction(projecting.knex, async (trx, connection) => {
      for (const row of requires) connection.defer(requireRowStatement(projecting.schema, row), '');
      prepared.forEach((a, k) =>
        connection.defer({ sql: APPEND_SQL, values: a.values }, '', (rows) => (stored[k] = rows as unknown as AppendedRow[])),
      );
      await applyInline(trx, projecting.schema, projecting.projections, recorded, {
        connection,
        prefetched: new Map(read ?? []),
        written: (table, rows) => (written[table] ??= []).push(...rows),
      });
    });
  } catch (error) {
    const cause = error instanceof InlineProjectionError || error instanceof DeferredWriteError ? error.cause : error;
    const code = (cause as { code?: unknown } | null)?.code;
    if (code === REPLAYED_WITH_ROWS) return null;
    if (code === WRONG_EXPECTED_VERSION) throw failedAppend(prepared, cause);
    if (code === ROW_MISSING) throw missingRow(requires, cause);
    if (error instanceof DeferredWriteError) throw new InlineProjectionError(error.writers.join(', ') || 'inline', error);
    throw error;
  }
  return prepared.map((a, k) => {
    const answer: AppendResult = { ...appendOutcome(a.streamId, a.ids, stored[k]!), types: a.events.map((event) => event.type) };
    if (Object.keys(written).length > 0) answer.written = written;
    return answer;
  });
}

/** A required row's check (db/migrations/0011_require_row): fails the transaction with ROW_MISSING when the row is not there. */
function requireRowStatement(schema: string, row: RequiredRow): NativeStatement {
  const columns = Object.keys(row.where);
  const conditions = columns.map((column, i) => `${quoteIdentifier(column)} = $${i + 1}`).join(' AND ');
  return {
    sql: `SELECT public.require_row(EXISTS (SELECT 1 FROM ${quoteIdentifier(schema)}.${quoteIdentifier(row.table)} WHERE ${conditions}), $${columns.length + 1})`,
    values: [...columns.map((column) => row.where[column]), `${row.table} ${JSON.stringify(row.where)}`],
  };
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The required row whose check failed, as the port's error (the message names it). */
function missingRow(requires: readonly RequiredRow[], error: unknown): unknown {
  const message = String((error as { message?: unknown } | null)?.message ?? '');
  const row = requires.find((r) => message.endsWith(`${r.table} ${JSON.stringify(r.where)}`)) ?? requires[0];
  return row ? new RequiredRowMissingError(row) : error;
}

/** The append of a message of several that PostgreSQL refused (its error names the stream). */
function failedAppend(prepared: Array<StreamAppend & { values: unknown[] }>, error: unknown): unknown {
  const message = (error as { message?: unknown } | null)?.message;
  const refused = typeof message === 'string' ? prepared.find((a) => message.endsWith(`for stream ${a.streamId}`)) : undefined;
  const append = refused ?? prepared[0]!;
  return appendError(append.streamId, append.expectedRevision, error);
}
