import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { makeShared, POSTGRES_USER, SHARED_ROOT, type Binaries, type RunAs } from './embedded-placement.ts';

/** The cluster's postgres process: creating the cluster, its password, starting it under a watchdog shell and stopping it. */

// Clusters made before passwords were generated used this one; it is replaced at first start.
const LEGACY_PASSWORD = 'embedded';

export function passwordFileOf(dataDir: string): string {
  return `${dataDir}.password`;
}

export function readPassword(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

export function writePassword(file: string, password: string): void {
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

export async function initialise(binaries: Binaries, dataDir: string, password: string, user: RunAs | null): Promise<void> {
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
      [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        `--username=${POSTGRES_USER}`,
        `--pwfile=${scratch}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
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
export function launch(
  binaries: Binaries,
  dataDir: string,
  port: number,
  user: RunAs | null,
  onLog?: (line: string) => void,
  settings: Record<string, string> = {},
) {
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
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
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

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
  });
}

/** Replaces the password of a cluster made before passwords were generated per cluster. */
export async function rotateLegacyPassword(port: number, password: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: POSTGRES_USER, password: LEGACY_PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`ALTER ROLE ${POSTGRES_USER} PASSWORD '${password}'`);
  } finally {
    await client.end();
  }
}
