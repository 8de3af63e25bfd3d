import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { freePort, SHARED_ROOT } from '@crm/projections/db/embedded';

/**
 * As root, the embedded PostgreSQL runs as the `postgres` system user, which cannot enter a
 * private directory such as /root. The README's commands must still work from a clone in
 * one: this makes such a clone (the working tree, hard-linked node_modules, the built
 * bundles) under a 0700 directory and runs `npm start` there until /healthz answers.
 */
const REPO = path.resolve(import.meta.dirname, '../..');
const asRoot = process.getuid?.() === 0;
const scratch: string[] = [];

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A 0700 directory on the repository's file system (so node_modules can be hard-linked). */
function privateDir(): string {
  const root = path.join(REPO, '.test-data');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(path.join(root, 'private-'));
  chmodSync(dir, 0o700);
  scratch.push(dir);
  return dir;
}

function cloneInto(dir: string): string {
  const clone = path.join(dir, 'shop-crm');
  mkdirSync(clone);
  // The working tree as a clone would have it (tracked and new files, nothing ignored).
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  expect(files.status).toBe(0);
  for (const file of files.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(path.join(REPO, file))) continue;
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    cpSync(path.join(REPO, file), path.join(clone, file));
  }
  const linked = spawnSync('cp', ['-al', path.join(REPO, 'node_modules'), path.join(clone, 'node_modules')]);
  expect(linked.status, String(linked.stderr)).toBe(0);
  for (const built of ['frontend/dist', 'backend/dist']) {
    if (existsSync(path.join(REPO, built))) cpSync(path.join(REPO, built), path.join(clone, built), { recursive: true });
  }
  return clone;
}

async function waitForHealth(url: string, exited: () => string | null): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const failure = exited();
    if (failure !== null) throw new Error(`npm start ended before /healthz answered: ${failure}`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('/healthz did not answer within 120 s');
}

describe.skipIf(!asRoot)('as root in a private directory', () => {
  test('npm start reaches /healthz and stops cleanly; the data lives where the postgres user can reach it', async () => {
    const clone = cloneInto(privateDir());
    const port = await freePort();
    const child = spawn('npm', ['start'], {
      cwd: clone,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SUPER_ADMIN_PASSWORD: 'private-dir-test' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let exit: string | null = null;
    // npm that could not be started emits 'error' (an uncaught exception if unheard).
    child.on('error', (error) => (exit ??= `npm could not be started: ${error.message}`));
    const ended = new Promise<string>((resolve) =>
      child.on('exit', (code, signal) => {
        exit = String(code ?? signal);
        resolve(exit);
      }),
    );
    const dataDir = path.join(clone, '.data', 'postgres');
    try {
      await waitForHealth(`http://127.0.0.1:${port}/healthz`, () => (exit === null ? null : `${exit}: ${output}`));
      // The cluster's files sit under the shared root; the clone keeps a link to them.
      expect(lstatSync(dataDir).isSymbolicLink(), output).toBe(true);
      expect(realpathSync(dataDir).startsWith(`${SHARED_ROOT}/`)).toBe(true);
      expect(existsSync(path.join(realpathSync(dataDir), 'PG_VERSION'))).toBe(true);
      const real = realpathSync(dataDir);
      // Ctrl+C in a terminal: SIGINT to the whole foreground process group.
      process.kill(-child.pid!, 'SIGINT');
      // npm itself may end by the signal; the server below it must stop without an error.
      expect(['0', 'SIGINT'], output).toContain(await ended);
      // A first start without a built frontend builds it and lists its files, whose names may
      // say "error" (save-error-message-….js): what is looked at is everything else.
      const said = output
        .split('\n')
        .filter((line) => !/^dist\/\S+\s/.test(line.trim()))
        .join('\n');
      expect(said).not.toMatch(/error|"level":5\d/i);
      // Nothing of the cluster is left running.
      await expect.poll(() => spawnSync('pgrep', ['-f', real]).status, { timeout: 20_000 }).toBe(1);
    } finally {
      if (exit === null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      if (existsSync(dataDir)) rmSync(realpathSync(dataDir), { recursive: true, force: true });
    }
  }, 240_000);

  test('an existing cluster the postgres user cannot reach stops the start with one line, and is left as it was', () => {
    const dataDir = path.join(privateDir(), 'data');
    const cluster = path.join(dataDir, 'postgres');
    mkdirSync(cluster, { recursive: true });
    writeFileSync(path.join(cluster, 'PG_VERSION'), '18\n');
    const run = spawnSync(process.execPath, [path.join(REPO, 'backend/dist/main.js')], {
      cwd: REPO,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', SUPER_ADMIN_PASSWORD: 'private-dir-test' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toContain(cluster);
    expect(lines[0]).toContain('DATA_DIR');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(path.join(cluster, 'PG_VERSION'), 'utf8')).toBe('18\n');
    expect(lstatSync(cluster).isSymbolicLink()).toBe(false);
  });
});
