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

/** What goes over the wire per CopyData message (PostgreSQL takes them of any size). */
const CHUNK_CHARS = 1 << 20;

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

/** Writes the rows into `schema`.`table` with one COPY, on the transaction's connection. */
export async function copyRows(trx: Knex.Transaction, schema: string, rows: TableRows): Promise<void> {
  if (rows.rows.length === 0) return;
  const chunks: Buffer[] = [];
  let text = '';
  for (const row of rows.rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) line += (i === 0 ? '' : '\t') + copyText(row[i]);
    text += `${line}\n`;
    if (text.length >= CHUNK_CHARS) {
      chunks.push(Buffer.from(text));
      text = '';
    }
  }
  if (text) chunks.push(Buffer.from(text));
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
