import type { Knex } from 'knex';

/**
 * Rows written with PostgreSQL's `COPY … FROM STDIN` (text format): a rebuild fills its fresh
 * tables this way. A multi-row INSERT from `jsonb_to_recordset` makes PostgreSQL parse the
 * rows as JSON, then as a record set, and the process write every column's name into every
 * row; COPY streams the values alone, each parsed once by its column's input function, so
 * the same text reaches the same column types either way.
 */

/** Rows for one table: values in the order of `columns`. */
export interface TableRows {
  table: string;
  columns: readonly string[];
  rows: unknown[][];
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

/**
 * COPY's text for `rows`, in chunks of about CHUNK_BYTES: each value is written straight into
 * the chunk's buffer. Joining each row into a string first, then the rows into the page's
 * text, made the process build and collect every row's text three times (about a fifth of a
 * rebuild's process time went to the garbage collector).
 */
export function copyChunks(rows: readonly (readonly unknown[])[]): Buffer[] {
  const chunks: Buffer[] = [];
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  const put = (text: string) => {
    // At most three bytes of UTF-8 per UTF-16 unit: room for the text and its separator.
    const room = text.length * 3 + 1;
    if (used + room > chunk.length) {
      if (used > 0) chunks.push(chunk.subarray(0, used));
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
      used = 0;
    }
    used += chunk.write(text, used, 'utf8');
  };
  const separator = (byte: number) => {
    if (used === chunk.length) {
      chunks.push(chunk);
      chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      used = 0;
    }
    chunk[used++] = byte;
  };
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) separator(TAB);
      put(copyText(row[i]));
    }
    separator(NEWLINE);
  }
  if (used > 0) chunks.push(chunk.subarray(0, used));
  return chunks;
}

const TAB = 0x09;
const NEWLINE = 0x0a;

/** Writes the rows into `schema`.`table` with one COPY, on the transaction's connection. */
export async function copyRows(trx: Knex.Transaction, schema: string, rows: TableRows): Promise<void> {
  if (rows.rows.length === 0) return;
  const chunks = copyChunks(rows.rows);
  const sql = `COPY ${quoted(schema)}.${quoted(rows.table)} (${rows.columns.map(quoted).join(', ')}) FROM STDIN`;
  // Inside a transaction knex hands out its one connection: the pg client the COPY runs on.
  const client = (await (trx.client as { acquireConnection(): Promise<PgClient> }).acquireConnection()) as PgClient;
  await new Promise<void>((resolve, reject) => {
    client.query(new CopyIn(sql, chunks, resolve, reject));
  });
}

/** The part of pg's Client this uses: it runs a "submittable" (an object with `submit`). */
interface PgClient {
  query(submittable: CopyIn): unknown;
}

/** The part of pg's Connection a COPY drives. */
interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/**
 * A COPY FROM STDIN as pg runs it (the protocol of the pg-copy-streams package, for rows
 * that are all in memory already): the statement, then the data when the server asks for it.
 */
class CopyIn {
  private failed = false;

  constructor(
    private readonly text: string,
    private readonly chunks: Buffer[],
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  submit(connection: PgConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: PgConnection): void {
    for (const chunk of this.chunks) connection.sendCopyFromChunk(chunk);
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
