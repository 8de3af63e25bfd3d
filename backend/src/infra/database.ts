import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { startEmbeddedPostgres } from '@crm/projections/db/embedded';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';

export interface Database {
  url: string;
  /** Set when this process started the embedded cluster and must stop it. */
  stopEmbedded: (() => Promise<void>) | null;
}

const DATABASE_NAME = 'crm';

/**
 * DATABASE_URL when given; otherwise the embedded PostgreSQL under DATA_DIR, started by
 * this process or, when the server already runs it, joined (projector, rebuild).
 */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stopEmbedded: null };
  mkdirSync(config.dataDir, { recursive: true, mode: 0o755 });
  const stateFile = path.join(config.dataDir, 'postgres.json');
  if (existsSync(stateFile)) {
    const { url } = JSON.parse(readFileSync(stateFile, 'utf8')) as { url: string };
    if (await canConnect(url)) {
      logger.info('using the embedded PostgreSQL another process started');
      return { url, stopEmbedded: null };
    }
  }
  logger.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
  const cluster = await startEmbeddedPostgres({
    dataDir: path.join(config.dataDir, 'postgres'),
    onLog: (line) => logger.debug({ postgres: line }),
    // This process owns the cluster: when PostgreSQL dies it is started again, and requests
    // answer 503 with Retry-After until it is back.
    watch: (event) => {
      if (event.kind === 'exited') logger.error({ code: event.code, signal: event.signal }, 'embedded PostgreSQL died; starting it again');
      else if (event.kind === 'restarted') logger.warn({ attempt: event.attempt }, 'embedded PostgreSQL is running again');
      else logger.error({ attempt: event.attempt, error: event.error }, 'embedded PostgreSQL did not start again; retrying');
    },
  });
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
  if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE_NAME}`);
  await admin.end();
  const url = cluster.urlFor(DATABASE_NAME);
  writeFileSync(stateFile, JSON.stringify({ url }), { mode: 0o600 });
  return { url, stopEmbedded: cluster.stop };
}

/** Which database a script works on, for people (never the password). */
export function describeDatabase(config: Config): string {
  if (!config.DATABASE_URL) return `the embedded PostgreSQL in ${path.join(config.dataDir, 'postgres')} (DATA_DIR=${config.dataDir})`;
  const url = new URL(config.DATABASE_URL);
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname} (DATABASE_URL)`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export function createKnex(url: string, poolMax = 20): Knex {
  return knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: poolMax } });
}
