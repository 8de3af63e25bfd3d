import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import pg from 'pg';

/**
 * A transaction that sends fewer round trips: its BEGIN goes with its first statement, writes
 * whose answer nobody reads (`defer`) go with the next statement or with the COMMIT, and
 * several statements can go as one message (`sendAll`). PostgreSQL runs a message of several
 * statements (the simple query protocol) in order and stops at the first error, which leaves
 * the open transaction aborted: nothing of it commits, exactly as if they had gone one by one.
 *
 * That protocol takes no parameters: values go into the text as quoted literals, converted
 * the way the driver converts a parameter (pg's prepareValue) and quoted by its escapeLiteral.
 * A quoted literal has no type of its own, like an untyped parameter, so a statement means
 * the same either way.
 */

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown };

/** A statement with `$n` parameters and their values (knex's toSQL().toNative()). */
export interface NativeStatement {
  sql: string;
  values: readonly unknown[];
  /**
   * Planned once per connection: sent as `EXECUTE` of a statement prepared on the
   * connection's session (a statement whose planning costs more than its run). Its text
   * must not vary with its values, and each `$n` must have a type PostgreSQL can tell from
   * the text (a cast), as in any PREPARE.
   */
  prepared?: boolean;
}

/** `value` as SQL text: NULL or a quoted literal. */
function literal(value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) return 'NULL';
  if (Buffer.isBuffer(prepared)) return `'\\x${prepared.toString('hex')}'::bytea`;
  return quoteLiteral(String(prepared));
}

/**
 * What pg's escapeLiteral gives (quotes doubled; with a backslash, backslashes doubled and an
 * E'…' string), built by two native replaces instead of a string grown one character at a
 * time: a projector batch's rows are one JSON text of hundreds of kilobytes, and growing it
 * character by character cost the thread that much garbage per batch.
 */
export function quoteLiteral(text: string): string {
  const quoted = `'${text.replaceAll("'", "''")}'`;
  return text.includes('\\') ? ` E${quoted.replaceAll('\\', '\\\\')}` : quoted;
}

/**
 * The statement with its `$n` parameters written in as literals. Quoted strings, quoted
 * identifiers, comments and dollar quotes are copied as they are (a `$1` inside one is text).
 */
export function withLiterals({ sql, values }: NativeStatement): string {
  if (values.length === 0) return sql;
  const { parts, parameters } = templateOf(sql);
  let out = parts[0]!;
  for (let k = 0; k < parameters.length; k++) {
    const index = parameters[k]!;
    if (index < 0 || index >= values.length) throw new Error(`Statement names $${index + 1} but has ${values.length} values`);
    out += literal(values[index]) + parts[k + 1]!;
  }
  return out;
}

/** A statement's text cut at its `$n` parameters: the texts around them, and each one's value (0-based). */
interface Template {
  parts: string[];
  parameters: number[];
}

/**
 * Templates by statement text, each cut once: the same few texts go out again and again (an
 * append's, a required row's, the projector's batch statements), and cutting one character
 * by character built a string and a substring per character of it on every use, the
 * largest share of the garbage a command made on the API's main thread.
 */
const templates = new Map<string, Template>();
/** Bounds the templates should callers vary their texts (then they are cut again). */
const MAX_TEMPLATES = 256;

function templateOf(sql: string): Template {
  let template = templates.get(sql);
  if (template === undefined) {
    template = cutAtParameters(sql);
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    templates.set(sql, template);
  }
  return template;
}

const PARAMETER = /\d+/y;

function cutAtParameters(sql: string): Template {
  const parts: string[] = [];
  const parameters: number[] = [];
  let partStart = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const skipped =
      c === "'" || c === '"'
        ? quotedEnd(sql, i, c)
        : c === '-' && sql[i + 1] === '-'
          ? lineEnd(sql, i)
          : c === '/' && sql[i + 1] === '*'
            ? commentEnd(sql, i)
            : c === '$'
              ? dollarQuoteEnd(sql, i)
              : null;
    if (skipped !== null) {
      i = skipped;
      continue;
    }
    if (c === '$') {
      PARAMETER.lastIndex = i + 1;
      const digits = PARAMETER.exec(sql);
      if (digits) {
        parts.push(sql.slice(partStart, i));
        parameters.push(Number(digits[0]) - 1);
        i = partStart = i + 1 + digits[0].length;
        continue;
      }
    }
    i++;
  }
  parts.push(sql.slice(partStart));
  return { parts, parameters };
}

/** Where a comment starting at `start` ends (the text's end when it is not closed). */
function commentEnd(sql: string, start: number): number {
  const end = sql.indexOf('*/', start + 2);
  return end === -1 ? sql.length : end + 2;
}

/** Where a '…' or "…" starting at `start` ends (a doubled quote stays inside; E'…' escapes backslashes). */
function quotedEnd(sql: string, start: number, quote: string): number {
  const backslashes = quote === "'" && /[eE]/.test(sql[start - 1] ?? '') && !/\w/.test(sql[start - 2] ?? '');
  let i = start + 1;
  while (i < sql.length) {
    if (backslashes && sql[i] === '\\') i += 2;
    else if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

function lineEnd(sql: string, start: number): number {
  const end = sql.indexOf('\n', start);
  return end === -1 ? sql.length : end + 1;
}

/** Where a $tag$…$tag$ string starting at `start` ends; null when `$` starts no dollar quote (a parameter). */
function dollarQuoteEnd(sql: string, start: number): number | null {
  const tag = /^\$([A-Za-z_][A-Za-z_0-9]*)?\$/.exec(sql.slice(start));
  if (!tag) return null;
  const end = sql.indexOf(tag[0], start + tag[0].length);
  return end === -1 ? sql.length : end + tag[0].length;
}

/**
 * The statements prepared on each connection's session (by pg client), by name. A name is
 * a hash of the statement's text, so a name that exists on a session means that text.
 * PREPARE is not transactional: it stays when its transaction rolls back, and when a message
 * fails after it. So a statement is counted as prepared only once a message that prepared it
 * succeeded; until then each message that uses it prepares it again (preparedStatement),
 * which is harmless when it exists already.
 */
const sessions = new WeakMap<object, Set<string>>();

/** Statements prepared per connection at most (beyond them, statements go as text). */
const PREPARED_PER_CONNECTION = 64;

/**
 * What a failed message means for the statements prepared on its session: a plan whose result
 * type changed (another process's migration) or a statement that is gone (a DISCARD on the
 * session). Either way the session's statements are prepared again before their next use.
 */
export const PREPARED_STATEMENT_ERRORS: ReadonlySet<string> = new Set(['0A000', '26000']);

/** Names by statement text: a command's row statement is a few kilobytes, hashed once, not once per use. */
const preparedNames = new Map<string, string>();

function preparedName(sql: string): string {
  let name = preparedNames.get(sql);
  if (name === undefined) {
    name = `crm_${createHash('sha256').update(sql).digest('hex').slice(0, 40)}`;
    // Texts are a schema's few row statements; a bound in case a caller varies them.
    if (preparedNames.size >= PREPARED_PER_CONNECTION * 4) preparedNames.clear();
    preparedNames.set(sql, name);
  }
  return name;
}

/**
 * One DO statement that (re)prepares `sql` as `name`: drops a statement of that name first
 * (left by a message that failed after preparing it, or one whose plan went stale), so it can
 * go in any message, as often as needed, without a round trip of its own to ask.
 */
function preparedStatement(name: string, sql: string): string {
  const body = `BEGIN
  IF EXISTS (SELECT FROM pg_prepared_statements WHERE name = ${quoteLiteral(name)}) THEN EXECUTE ${quoteLiteral(`DEALLOCATE ${name}`)}; END IF;
  EXECUTE ${quoteLiteral(`PREPARE ${name} AS ${sql}`)};
END`;
  if (body.includes('$crm_prepare$')) throw new Error('A prepared statement must not contain $crm_prepare$');
  return `DO $crm_prepare$${body}$crm_prepare$`;
}

/** A statement as the text it goes as (itself, or an EXECUTE), and the DO that prepares it first with the name it prepares. */
interface Rendered {
  text: string;
  preparation?: string;
  prepares?: string;
}

const CONTROL = /^\s*(begin|commit|rollback)\s*;?\s*$/i;

/**
 * The connection the transaction's knex runs on: it holds back BEGIN and deferred writes and
 * sends them in front of the next statement. Knex calls `query(config, callback)` on it.
 */
export class PipelinedConnection {
  private held: NativeStatement[] = [];
  /** Who deferred each held write (for the error that names it). */
  private heldBy: string[] = [];
  /** Who wants each held write's rows (its RETURNING), when it has been answered. */
  private heldFor: Array<RowsReceiver | undefined> = [];
  private begun = false;
  constructor(readonly client: pg.PoolClient) {}

  /**
   * A write whose answer the statements after it do not need: sent with the next statement
   * (at the latest with COMMIT). `onRows` gets its rows once that message is answered.
   */
  defer(statement: NativeStatement, by: string, onRows?: RowsReceiver): void {
    this.held.push(statement);
    this.heldBy.push(by);
    this.heldFor.push(onRows);
  }

  /** The statements in one message (after what is held back), answering each one's result. */
  async sendAll(statements: readonly NativeStatement[]): Promise<pg.QueryResult[]> {
    if (statements.length === 0) return [];
    const sent = this.takeHeld();
    const results = await this.send([...sent.statements, ...statements], sent.for);
    return results.slice(results.length - statements.length);
  }

  /**
   * `statements` as one message; each result to its receiver (by position), all of them
   * answered in order. A prepared statement answers with its EXECUTE's result.
   */
  private async send(
    statements: readonly NativeStatement[],
    receivers: ReadonlyArray<RowsReceiver | undefined>,
  ): Promise<pg.QueryResult[]> {
    const prepared = this.preparedHere();
    const rendered = statements.map((statement) => this.render(statement, prepared));
    // The DOs that prepare statements go first (a statement before a BEGIN of the same message
    // joins its transaction, and PREPARE is not transactional anyway), so their answers are
    // the message's first ones: a text may hold several statements, a DO among them.
    const preparing = rendered.flatMap((r) => (r.prepares ? [r.prepares] : []));
    const texts = [...rendered.flatMap((r) => r.preparation ?? []), ...rendered.map((r) => r.text)];
    let raw: pg.QueryResult | pg.QueryResult[];
    try {
      raw = (await this.client.query(texts.join(';\n'))) as unknown as pg.QueryResult | pg.QueryResult[];
    } catch (error) {
      if (PREPARED_STATEMENT_ERRORS.has(String((error as { code?: unknown } | null)?.code))) prepared.clear();
      throw error;
    }
    const all = Array.isArray(raw) ? raw : [raw];
    for (const name of preparing) prepared.add(name);
    const results = all.slice(preparing.length);
    deliver(receivers, results);
    return results;
  }

  /** The names prepared on this connection's session. */
  private preparedHere(): Set<string> {
    let prepared = sessions.get(this.client);
    if (!prepared) sessions.set(this.client, (prepared = new Set()));
    return prepared;
  }

  private render(statement: NativeStatement, prepared: Set<string>): Rendered {
    if (!statement.prepared || (prepared.size >= PREPARED_PER_CONNECTION && !prepared.has(preparedName(statement.sql)))) {
      return { text: withLiterals(statement) };
    }
    const name = preparedName(statement.sql);
    const execute = statement.values.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${statement.values.map(literal).join(', ')})`;
    if (prepared.has(name)) return { text: execute };
    return { text: execute, preparation: preparedStatement(name, statement.sql), prepares: name };
  }

  private takeHeld(): { statements: NativeStatement[]; by: string[]; for: Array<RowsReceiver | undefined> } {
    const taken = { statements: this.held, by: this.heldBy, for: this.heldFor };
    this.held = [];
    this.heldBy = [];
    this.heldFor = [];
    return taken;
  }

  /** Knex's way in (its PostgreSQL client calls `connection.query(config, callback)`). */
  query(config: { text: string; values?: unknown[] }, callback: (error: Error | null, result?: unknown) => void): void {
    void this.run(config).then(
      (result) => callback(null, result),
      (error: Error) => callback(error),
    );
  }

  private async run(config: { text: string; values?: unknown[] }): Promise<unknown> {
    const control = CONTROL.exec(config.text)?.[1]?.toLowerCase();
    if (control === 'begin') {
      this.begin();
      return { command: 'BEGIN', rows: [], rowCount: null, fields: [] };
    }
    if (control === 'rollback') return (await this.rollback()) ?? { command: 'ROLLBACK', rows: [], rowCount: null, fields: [] };
    if (control === 'commit') return await this.commit();
    if (this.held.length === 0) return await this.client.query(config.text, config.values);
    const [result] = await this.sendAll([{ sql: config.text, values: config.values ?? [] }]);
    return result;
  }

  /** BEGIN, held back until the next statement goes out. */
  begin(): void {
    this.held.push(BEGIN);
    this.heldBy.push('');
    this.heldFor.push(undefined);
    this.begun = true;
  }

  /** Ends the transaction; sends ROLLBACK only when BEGIN went out (undefined when it did not). */
  async rollback(): Promise<pg.QueryResult | undefined> {
    const sentBegin = this.begun && !this.held.includes(BEGIN);
    this.takeHeld();
    this.begun = false;
    if (!sentBegin) return undefined;
    return await this.client.query('ROLLBACK');
  }

  /** What is held back and COMMIT, as one message; the COMMIT's result. */
  async commit(): Promise<pg.QueryResult> {
    const held = this.takeHeld();
    this.begun = false;
    try {
      const results = await this.send([...held.statements, COMMIT], held.for);
      return results[results.length - 1]!;
    } catch (error) {
      // A held write failed: the transaction is aborted and the COMMIT never ran; end it
      // here, so the connection goes back to the pool outside any transaction.
      await this.client.query('ROLLBACK').catch(() => {});
      throw new DeferredWriteError(held.by.filter(Boolean), error);
    }
  }
}

const BEGIN: NativeStatement = { sql: 'BEGIN', values: [] };
const COMMIT: NativeStatement = { sql: 'COMMIT', values: [] };

type RowsReceiver = (rows: readonly Record<string, unknown>[]) => void;

/** Each held write's rows to whoever asked (a message's results are in its statements' order). */
function deliver(receivers: ReadonlyArray<RowsReceiver | undefined>, results: readonly pg.QueryResult[]): void {
  receivers.forEach((receive, i) => receive?.((results[i]?.rows ?? []) as Record<string, unknown>[]));
}

/** A deferred write failed when the transaction committed: nothing of the transaction was recorded. */
export class DeferredWriteError extends Error {
  override readonly name = 'DeferredWriteError';
  constructor(
    readonly writers: string[],
    override readonly cause: unknown,
  ) {
    super(`${cause instanceof Error ? cause.message : String(cause)}`);
    (this as { code?: unknown }).code = (cause as { code?: unknown } | null)?.code;
  }
}

/**
 * Runs `work` in a transaction on a PipelinedConnection over a connection of knex's pool:
 * BEGIN, COMMIT and ROLLBACK go through the connection itself (BEGIN goes out with the first
 * statement; work that fails before sending anything sends neither BEGIN nor ROLLBACK), and
 * `work` gets a knex whose every query runs on that connection. This is not knex's own
 * transaction: knex builds a new knex object for every transaction (all its methods defined
 * afresh), which appends and projector batches would pay each time; the bound knex here is
 * made once per pooled connection. `work` must await its queries: one it leaves running is
 * not part of the transaction. A connection whose transaction could not be ended is dropped
 * by the pool.
 */
export async function pipelinedTransaction<T>(
  knex: Knex,
  work: (trx: Knex.Transaction, connection: PipelinedConnection) => Promise<T>,
): Promise<T> {
  const client = (await knex.client.acquireConnection()) as pg.PoolClient & { __knex__disposed?: unknown };
  const connection = new PipelinedConnection(client);
  try {
    connection.begin();
    let result: T;
    try {
      result = await work(boundKnex(knex, client, connection), connection);
    } catch (error) {
      // A connection whose transaction could not be ended must not serve anyone else: knex's
      // pool drops a connection marked so.
      await connection.rollback().catch((rollbackError: unknown) => (client.__knex__disposed = rollbackError));
      throw error;
    }
    await connection.commit();
    return result;
  } finally {
    await knex.client.releaseConnection(client);
  }
}

type MakeKnex = (client: unknown) => Knex;
const makeKnex = createRequire(import.meta.url)('knex/lib/knex-builder/make-knex.js') as MakeKnex;

/** Per pooled connection: the knex bound to it, and where that knex sends its queries now. */
const boundKnexes = new WeakMap<object, { knex: Knex; target: { connection: PipelinedConnection } }>();

/**
 * A knex whose queries go to `connection` (a transaction's knex is one too, with the
 * transaction's own methods besides). Typed as a transaction for the projections, which only
 * build and run queries on it.
 */
function boundKnex(knex: Knex, client: object, connection: PipelinedConnection): Knex.Transaction {
  let bound = boundKnexes.get(client);
  if (!bound) {
    const target = { connection };
    const boundClient = Object.create(knex.client) as Knex.Client & {
      acquireConnection(): Promise<unknown>;
      releaseConnection(): Promise<void>;
    };
    boundClient.acquireConnection = () => Promise.resolve(target.connection);
    boundClient.releaseConnection = () => Promise.resolve();
    // Listeners of its own (makeKnex adds some), or they would pile up on the pool's client.
    Object.assign(boundClient, { _events: Object.create(null) as object, _eventsCount: 0 });
    bound = { knex: makeKnex(boundClient), target };
    boundKnexes.set(client, bound);
  }
  bound.target.connection = connection;
  return bound.knex as Knex.Transaction;
}
