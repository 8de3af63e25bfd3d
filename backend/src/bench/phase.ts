import type pg from 'pg';
import type { BenchOptions } from './options.ts';
import type { Figure } from './report.ts';

/** What every measured phase of the benchmark gets: its options, where its figures and details go, the database. */
export interface PhaseContext {
  options: BenchOptions;
  figures: Figure[];
  details: Record<string, unknown>;
  databaseUrl: string;
  pool: pg.Pool;
}

/** Progress and phase messages go to stderr; the report goes to stdout. */
export const log = (message: string) => console.error(message);
