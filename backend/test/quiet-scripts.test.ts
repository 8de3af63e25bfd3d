import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '@crm/projections/db/embedded';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import type {} from '@crm/projections/testing/global-setup';

/**
 * The server and the scripts as a person runs them, side by side the way the README says
 * (`npm start`, then `npm run seed` while it runs, then an export and an import): none of
 * them may print a Node warning. A warning is a real defect made visible (an abort listener
 * added per wait on one signal, two queries overlapping on one pg client), and a new user
 * reads it as something broken.
 */
const REPO = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'chosen-by-the-operator-9';
let db: TestDatabase;
let target: TestDatabase;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function script(entry: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, 'backend/dist', entry), ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not finish within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    // A process that could not be started emits 'error' (an uncaught exception if unheard).
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const warnings = (text: string) => text.split('\n').filter((line) => /Warning\b/.test(line));

beforeAll(async () => {
  [db, target] = await Promise.all([createTestDatabase(), createTestDatabase()]);
}, 120_000);
afterAll(async () => {
  await db?.drop();
  await target?.drop();
});

test('a start, a seed beside the running server, an export and an import print no warning; a chosen password is never printed', async () => {
  const port = await freePort();
  const env = { DATABASE_URL: db.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crm-quiet-')), LOG_LEVEL: 'warn' };
  const server = spawn(process.execPath, [path.join(REPO, 'backend/dist/main.js')], {
    cwd: REPO,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', SUPER_ADMIN_PASSWORD: PASSWORD },
  });
  let serverOut = '';
  let serverErr = '';
  server.stdout.on('data', (chunk: Buffer) => (serverOut += chunk.toString()));
  server.stderr.on('data', (chunk: Buffer) => (serverErr += chunk.toString()));
  server.on('error', (error) => (serverErr += `\nthe server could not be started: ${error.message}`));
  const serverExit = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  try {
    await expect.poll(() => serverOut, { timeout: 120_000, interval: 250 }).toContain('is running at');
    expect(serverOut).toContain('password: the one in SUPER_ADMIN_PASSWORD');
    expect(serverOut + serverErr).not.toContain(PASSWORD);

    // Beside the running server (whose projector holds the lock); the standby's retries are
    // tested on their own in projections/test/failover.test.ts.
    const seed = await script('seed-main.js', [], {
      ...env,
      SEED_CUSTOMERS: '5',
      SEED_JOBS: '12',
      SEED_REQUESTS: '2',
      SEED_HISTORY_DAYS: '12',
      SEED_SUBDOMAIN: 'quiet',
      LOG_LEVEL: 'info',
    });
    expect(seed.code, seed.stderr).toBe(0);
    expect(warnings(seed.stderr), seed.stderr).toEqual([]);

    const file = path.join(mkdtempSync(path.join(tmpdir(), 'crm-quiet-export-')), 'quiet.jsonl');
    const exported = await script('export-main.js', ['--instance', 'quiet', '--out', file], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(warnings(exported.stderr), exported.stderr).toEqual([]);
    const imported = await script('import-main.js', [file], { ...env, DATABASE_URL: target.url });
    expect(imported.code, imported.stderr).toBe(0);
    expect(warnings(imported.stderr), imported.stderr).toEqual([]);
    // Every progress count agrees with the total the import reports at the end.
    const total = Number(/Imported (\d+) events/.exec(imported.stderr)?.[1]);
    expect(total).toBeGreaterThan(0);
    const counts = [...imported.stderr.matchAll(/^(?:Importing|Projecting)\b.*?(\d+)(?:\/(\d+))? events$/gm)];
    expect(counts.length).toBeGreaterThan(0);
    for (const [line, done, of] of counts) {
      expect(Number(done), line).toBeLessThanOrEqual(total);
      if (of !== undefined) expect(Number(of), line).toBe(total);
    }
  } finally {
    server.kill('SIGINT');
  }
  expect(await serverExit).toBe(0);
  expect(warnings(serverErr), serverErr).toEqual([]);
}, 600_000);
