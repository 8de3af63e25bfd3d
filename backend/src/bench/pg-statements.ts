import { appendFileSync } from 'node:fs';
import type pg from 'pg';

/**
 * BENCH_PG_STATEMENTS=<file>: a phase's statements from pg_stat_statements (embedded
 * PostgreSQL only), appended to that file under a heading: calls, total, mean and longest time in ms,
 * rows, and the statement's first 160 characters.
 */
export async function statementsReset(pool: pg.Pool): Promise<void> {
  if (!process.env.BENCH_PG_STATEMENTS) return;
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await pool.query('SELECT pg_stat_statements_reset()');
}

/** The statements since the last reset, the `limit` first by total time or by calls. */
export async function statementsDump(pool: pg.Pool, heading: string, orderBy: 'total_exec_time' | 'calls', limit: number): Promise<void> {
  const file = process.env.BENCH_PG_STATEMENTS;
  if (!file) return;
  const { rows } = await pool.query<{ calls: string; total_ms: string; mean_ms: string; max_ms: string; rows: string; query: string }>(
    `SELECT calls::text, round(total_exec_time::numeric, 1)::text AS total_ms, round(mean_exec_time::numeric, 3)::text AS mean_ms,
            round(max_exec_time::numeric, 1)::text AS max_ms,
            rows::text, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query
       FROM pg_stat_statements ORDER BY ${orderBy} DESC LIMIT ${Number(limit)}`,
  );
  appendFileSync(
    file,
    `\n== ${heading} ==\ncalls\ttotal ms\tmean ms\tmax ms\trows\tquery\n${rows.map((r) => `${r.calls}\t${r.total_ms}\t${r.mean_ms}\t${r.max_ms}\t${r.rows}\t${r.query}`).join('\n')}\n`,
  );
}
