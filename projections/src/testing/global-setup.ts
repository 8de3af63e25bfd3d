import { chmodSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

/** One real PostgreSQL cluster per test run; each test file makes its own database in it. */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  if (!adminUrl) {
    const root = path.resolve('.test-data');
    mkdirSync(root, { recursive: true });
    dir = mkdtempSync(path.join(root, 'pg-'));
    // mkdtemp makes it private; as root the cluster's own postgres user must pass through.
    chmodSync(dir, 0o755);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), persistent: false });
    adminUrl = pg.adminUrl;
    stop = pg.stop;
  }
  project.provide('pgAdminUrl', adminUrl);
  return async () => {
    await stop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
