import type { Knex } from 'knex';

/**
 * Rows written with PostgreSQL's `COPY … FROM STDIN` (text format): a rebuild fills its fresh
 * tables this way. A multi-row INSERT from `jsonb_to_recordset` makes PostgreSQL parse the
 * rows as JSON, then as a record set, and the process write every column's name into every
 * row; COPY streams the values alone, each parsed once by its column's input function, so
 * the same text reaches the same column types either way.
 */

/**
 * Rows for one table: each an object keyed by column (the shape the projections build), its
 * `columns` written in that order. Read straight from the objects: copying each into an array
 * first made one more object per row for the garbage collector.
 */
export interface TableRows {
  table: string;
  columns: readonly string[];
  rows: readonly Readonly<Record<string, unknown>>[];
}

/** One value in COPY's text format: `\N` for null, backslash escapes for the separators. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  else if (typeof value === 'boolean') return value ? 't' : 'f';
  else if (value instanceof Date) return value.toISOString();
  // Anything else is a json/jsonb column's value, as JSON.stringify writes it for an INSERT.
  else text = JSON.stringify(value);
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, (c) => ESCAPES[c]!) : text;
}

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPED = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Bytes per CopyData message (PostgreSQL takes them of any size). */
const CHUNK_BYTES = 1 << 20;
/** A CopyData message's header: the byte 'd' and the message's length (itself included) as an int32. */
const HEADER_BYTES = 5;
const COPY_DATA = 0x64;

/**
 * COPY's text for `rows` (their `columns`, in order) as whole CopyData messages of about
 * CHUNK_BYTES each: each row's text is written straight into the message's buffer after room
 * left for its header, and the buffer goes to the socket as it is. Joining the rows into the
 * page's text first made the process build and collect every row's text again (about a fifth
 * of a rebuild's process time went to the garbage collector); handing pg bare chunks made it
 * copy each one twice more into its own message buffer (a twelfth of the process's time).
 * A row's values are joined into one string and encoded with one call: a call per value
 * spent more in the calls than in the encoding (over the same 175 MB of rows from the four
 * largest tables, 1.24 s of CPU against 1.40 s).
 */
export function copyMessages(columns: readonly string[], rows: readonly Readonly<Record<string, unknown>>[]): Buffer[] {
  const messages: Buffer[] = [];
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = HEADER_BYTES;
  const seal = () => {
    chunk[0] = COPY_DATA;
    chunk.writeInt32BE(used - 1, 1);
    messages.push(chunk.subarray(0, used));
  };
  const last = columns.length - 1;
  for (const row of rows) {
    let text = '';
    for (let i = 0; i < last; i++) text += `${copyText(row[columns[i]!])}\t`;
    text += `${copyText(row[columns[last]!])}\n`;
    // At most three bytes of UTF-8 per UTF-16 unit.
    const room = text.length * 3;
    if (used + room > chunk.length) {
      if (used > HEADER_BYTES) seal();
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room + HEADER_BYTES));
      used = HEADER_BYTES;
    }
    used += chunk.write(text, used);
  }
  if (used > HEADER_BYTES) seal();
  return messages;
}

/** Writes the rows into `schema`.`table` with one COPY, on the transaction's connection. */
export async function copyRows(trx: Knex.Transaction, schema: string, rows: TableRows): Promise<void> {
  if (rows.rows.length === 0) return;
  const messages = copyMessages(rows.columns, rows.rows);
  const sql = `COPY ${quoted(schema)}.${quoted(rows.table)} (${rows.columns.map(quoted).join(', ')}) FROM STDIN`;
  // Inside a transaction knex hands out its one connection: the pg client the COPY runs on.
  const client = (await (trx.client as { acquireConnection(): Promise<PgClient> }).acquireConnection()) as PgClient;
  await new Promise<void>((resolve, reject) => {
    client.query(new CopyIn(sql, messages, resolve, reject));
  });
}

/** The part of pg's Client this uses: it runs a "submittable" (an object with `submit`). */
interface PgClient {
  query(submittable: CopyIn): unknown;
}

/** The part of pg's Connection a COPY drives. */
interface PgConnection {
  query(text: string): void;
  endCopyFrom(): void;
  /** The socket: whole CopyData messages go to it as they are (pg's `sendCopyFromChunk` copies each into a message of its own). */
  stream: { write(message: Buffer): boolean };
}

/**
 * A COPY FROM STDIN as pg runs it (the protocol of the pg-copy-streams package, for rows
 * that are all in memory already): the statement, then the data when the server asks for it.
 */
class CopyIn {
  private failed = false;

  constructor(
    private readonly text: string,
    private readonly messages: Buffer[],
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  submit(connection: PgConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: PgConnection): void {
    for (const message of this.messages) connection.stream.write(message);
    connection.endCopyFrom();
  }

  handleCommandComplete(): void {}

  handleError(error: unknown): void {
    this.failed = true;
    this.reject(error);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.resolve();
  }
}
