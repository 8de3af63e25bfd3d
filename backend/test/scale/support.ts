import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '@crm/projections/db/embedded';

/** The repository root (this file is backend/test/scale/support.ts). */
export const REPO = path.resolve(import.meta.dirname, '../../..');

/**
 * Bundles server entry points from the current sources, the way `npm run build` does
 * (scripts/build-server.mjs), into `<root>/backend/dist`, and puts the root package.json
 * next to it: the layout of the container image. Tests then run what the sources say now,
 * never a stale backend/dist.
 */
export function bundleServer(root: string, entries: string[] = ['main', 'projector-main']): void {
  const outdir = path.join(root, 'backend', 'dist');
  mkdirSync(outdir, { recursive: true });
  // A script file of its own (build-server.mjs builds on import only when it is the one run).
  const script = path.join(root, 'bundle.mjs');
  writeFileSync(
    script,
    `import { createRequire } from 'node:module';
     const { build } = createRequire(${JSON.stringify(path.join(REPO, 'package.json'))})('esbuild');
     import { serverBuildOptions } from ${JSON.stringify(pathToFileURL(path.join(REPO, 'scripts', 'build-server.mjs')).href)};
     const entries = ${JSON.stringify(entries)};
     await build({ ...serverBuildOptions, entryPoints: Object.fromEntries(entries.map((n) => [n, 'backend/src/' + n + '.ts'])), outdir: ${JSON.stringify(outdir)} });`,
  );
  const result = spawnSync(process.execPath, [script], { cwd: REPO, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`bundling the server failed:\n${result.stderr}`);
  copyFileSync(path.join(REPO, 'package.json'), path.join(root, 'package.json'));
}

export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  logFile: string;
  /** The process's log so far (for failure messages). */
  log(): string;
  /** SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts `node <root>/backend/dist/<entry>.js` (or `command`, run in `root`) with only the
 * given environment (and PATH), on a free PORT, and waits until it answers /healthz.
 */
export async function startServerProcess(
  root: string,
  name: string,
  entry: string,
  env: Record<string, string>,
  options: { command?: string[]; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const [program, ...args] = options.command ?? [
    process.execPath,
    '--enable-source-maps',
    path.join(root, 'backend', 'dist', `${entry}.js`),
  ];
  const port = await freePort();
  const logFile = path.join(root, `${name}.log`);
  const out = openSync(logFile, 'w');
  const child = spawn(program === 'node' ? process.execPath : program!, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? root, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  // A process that could not be started (EAGAIN on a busy machine, a missing program) emits
  // 'error': unheard, an uncaught exception in the test fork; heard, this test's failure.
  const spawnFailure: { error?: Error } = {};
  child.once('error', (error) => (spawnFailure.error = error));
  const url = `http://127.0.0.1:${port}`;
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const server: ServerProcess = {
    name,
    url,
    child,
    logFile,
    log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited(child);
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawnFailure.error) throw new Error(`${name} could not be started: ${spawnFailure.error.message}`);
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}:\n${log().slice(-4000)}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${name} did not answer /healthz within ${timeoutMs / 1000} s:\n${log().slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A browser-like client whose cookie jar is not tied to one server: the same session is
 * presented to whichever API process `base` names (a load balancer's view of a browser).
 */
export class SharedSessionClient {
  private cookies = new Map<string, string>();

  constructor(private readonly headers: Record<string, string> = {}) {}

  async request<T = any>(
    base: string,
    method: string,
    urlPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(base + urlPath, {
      method,
      headers: {
        ...this.headers,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(method === 'GET' ? {} : { 'x-crm-request': '1' }),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const [key, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (/expires=Thu, 01 Jan 1970/i.test(set) || value === '') this.cookies.delete(key!.trim());
      else this.cookies.set(key!.trim(), value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}
