import pg from 'pg';

export interface StatementRecorder {
  /** Runs `request` and answers its result with the statements sent while it ran. */
  during<T>(request: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
  /** Puts pg.Client#query back. */
  stop(): void;
}

/**
 * Counts round trips to PostgreSQL by wrapping pg.Client#query: every statement knex, the
 * event store or the app sends goes through it. Statements sent outside `during` are not kept.
 */
export function recordStatements(): StatementRecorder {
  const originalQuery = pg.Client.prototype.query;
  let sent: string[] | null = null;
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    sent?.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  };
  return {
    async during(request) {
      sent = [];
      try {
        const result = await request();
        return { result, statements: sent };
      } finally {
        sent = null;
      }
    },
    stop() {
      pg.Client.prototype.query = originalQuery;
    },
  };
}
