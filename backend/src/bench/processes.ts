import { setTimeout as sleep } from 'node:timers/promises';
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@crm/projections/db/embedded';
import type { LoadResult, LoadSpec } from './load-types.ts';

/**
 * The benchmark's other processes: the real API server (backend/dist/main.js), the
 * baseline server, the load generator and the append contestants. All are siblings of the
 * running bundle in backend/dist; each gets its own event loop.
 */

const DIST = import.meta.dirname;
const NODE_OPTIONS = ['--enable-source-maps'];

/** Resident set size of a process, in bytes (null when it cannot be read). */
export function rssBytes(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // not Linux: ask ps
  }
  const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  const kb = Number(ps.stdout.trim());
  return ps.status === 0 && kb > 0 ? kb * 1024 : null;
}

/** The Node.js processes started by `pid` (the API server's projector child), found through /proc; empty elsewhere. */
export function nodeChildPids(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return children.filter((child) => {
      try {
        return readFileSync(`/proc/${child}/comm`, 'utf8').trim() === 'node';
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGTERM, then SIGKILL after a grace period. */
export async function stopChild(child: ChildProcess, graceMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

export interface ApiServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export const SUPER_ADMIN = { username: 'superadmin', password: 'bench-super-admin-password' };

/** The real server, as `npm start` runs it (projector inside), on the benchmark's database. */
export async function startApiServer(options: { databaseUrl: string; dataDir: string; logFile: string }): Promise<ApiServer> {
  const port = await freePort();
  const log = openSync(options.logFile, 'w');
  // BENCH_API_CPU_PROF=<dir>: the API process writes a V8 CPU profile there when it stops
  // (open it in Chrome's DevTools): where its time went, not a guess.
  const profileDir = process.env.BENCH_API_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...NODE_OPTIONS, ...profile, path.join(DIST, 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      EVENTSTORE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      SUPER_ADMIN_USERNAME: SUPER_ADMIN.username,
      SUPER_ADMIN_PASSWORD: SUPER_ADMIN.password,
      SESSION_SECRET: 'bench-session-secret-bench-session-secret',
      LOG_LEVEL: 'info',
      RUN_PROJECTOR: 'true',
      // As `npm start` and the container image run it (scripts/start.mjs, the Dockerfile's ENV).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      NODE_OPTIONS: ['--max-semi-space-size=8', process.env.NODE_OPTIONS].filter(Boolean).join(' '),
      // The benchmark signs in once per instance; the limiter is not what it measures.
      SIGN_IN_RATE_LIMIT: '100000',
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API server exited with code ${child.exitCode}; see ${options.logFile}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`the API server did not answer /healthz within 2 minutes; see ${options.logFile}`);
    }
    await sleep(200);
  }
  return { url, child, stop: () => stopChild(child) };
}

export interface BaselineServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startBaselineServer(databaseUrl: string): Promise<BaselineServer> {
  const port = await freePort();
  // With BENCH_API_CPU_PROF the baseline is profiled too (in its `baseline` folder), so the
  // two servers' profiles of the same reads can be set side by side.
  const profileDir = process.env.BENCH_API_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, 'baseline')}`] : [];
  const child = fork(path.join(DIST, 'bench-baseline.js'), [], {
    execArgv: [...NODE_OPTIONS, ...profile],
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the baseline server exited with code ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, stop: () => stopChild(child) };
}

/** A child that answers messages `{ id, … }` with `{ id, result?, error? }` over IPC. */
export interface IpcWorker<Request, Result> {
  call(request: Request): Promise<Result>;
  stop(): Promise<void>;
}

export function startIpcWorker<Request extends object, Result>(entry: string): IpcWorker<Request, Result> {
  const child = fork(path.join(DIST, entry), [], { execArgv: NODE_OPTIONS });
  let nextId = 0;
  const pending = new Map<number, { resolve: (r: Result) => void; reject: (e: Error) => void }>();
  child.on('message', (reply: { id: number; result?: Result; error?: string }) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.error === undefined) waiter?.resolve(reply.result as Result);
    else waiter?.reject(new Error(`${entry}: ${reply.error}`));
  });
  child.on('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${entry} exited with code ${code}`));
    pending.clear();
  });
  return {
    call(request) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ ...request, id });
      });
    },
    async stop() {
      if (child.connected) child.disconnect();
      await stopChild(child, 10_000);
    },
  };
}

export interface LoadGenerator {
  run(spec: LoadSpec): Promise<LoadResult>;
  stop(): Promise<void>;
}

export function startLoadGenerator(): LoadGenerator {
  const worker = startIpcWorker<{ spec: LoadSpec }, LoadResult>('bench-load.js');
  return { run: (spec) => worker.call({ spec }), stop: () => worker.stop() };
}
