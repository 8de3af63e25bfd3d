import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import type {} from '@crm/projections/testing/global-setup';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startRuntime, type Runtime } from '../../src/runtime.ts';
import { SUPER_ADMIN } from '../support/server.ts';

/**
 * A server that can be stopped and started again on the same database and data directory
 * (what a restart of the process keeps), for tests of what must survive a restart.
 */
export interface RestartableServer {
  db: TestDatabase;
  dataDir: string;
  runtime: Runtime;
  url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRestartableServer(env: Record<string, string> = {}): Promise<RestartableServer> {
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-security-'));
  const start = async () => {
    const config = loadConfig({
      DATABASE_URL: db.url,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SUPER_ADMIN_USERNAME: SUPER_ADMIN.username,
      SUPER_ADMIN_PASSWORD: SUPER_ADMIN.password,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      SIGN_IN_RATE_LIMIT: '10000',
      ...env,
    });
    return await startRuntime(config, createLogger(config.LOG_LEVEL), { version: '1.0.0-test' });
  };
  const server: RestartableServer = {
    db,
    dataDir,
    runtime: await start(),
    url: '',
    async restart() {
      await server.runtime.stop();
      server.runtime = await start();
      server.url = server.runtime.url;
    },
    async stop() {
      await server.runtime.stop();
      await db.drop();
    },
  };
  server.url = server.runtime.url;
  return server;
}
