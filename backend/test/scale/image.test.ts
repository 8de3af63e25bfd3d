import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import { bundleServer, REPO, startServerProcess, type ServerProcess } from './support.ts';

/**
 * The Dockerfile cannot be built here (no Docker engine). What can be checked is: every
 * path it copies exists and is in the build context, the commands it runs are the ones
 * package.json runs, and the runtime stage's production dependencies start the server.
 */

interface Instruction {
  stage: string;
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions (continuations joined, comments dropped), each with its stage. */
function parseDockerfile(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const instructions: Instruction[] = [];
  let stage = '';
  for (const line of joined.split('\n')) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, keyword, args] = match as unknown as [string, string, string];
    if (keyword === 'FROM') stage = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? args;
    instructions.push({ stage, keyword, args: args.trim() });
  }
  return instructions;
}

/** `COPY [--from=x] src… dest` as parts. */
function copyParts(args: string): { from: string | null; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const from = words[0]?.startsWith('--from=') ? words.shift()!.slice('--from='.length) : null;
  const dest = words.pop()!;
  return { from, sources: words, dest };
}

/** Whether .dockerignore leaves a path out of the build context (the patterns this repository uses). */
function ignoredByDockerignore(patterns: string[], file: string): boolean {
  const segments = file.split('/');
  return patterns.some((pattern) => {
    if (pattern.startsWith('**/')) {
      const rest = pattern.slice(3);
      if (rest.startsWith('*.')) return file.endsWith(rest.slice(1));
      return segments.includes(rest);
    }
    return file === pattern || file.startsWith(`${pattern}/`);
  });
}

const dockerfile = readFileSync(path.join(REPO, 'Dockerfile'), 'utf8');
const instructions = parseDockerfile(dockerfile);
const dockerignore = readFileSync(path.join(REPO, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const rootPackage = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const runtime = instructions.filter((i) => i.stage === 'runtime');
const cmd = JSON.parse(runtime.find((i) => i.keyword === 'CMD')!.args) as string[];

describe('Dockerfile', () => {
  test('two stages: build, then a runtime that runs as a non-root user with a health check', () => {
    expect([...new Set(instructions.map((i) => i.stage))].filter(Boolean)).toEqual(['build', 'runtime']);
    const user = runtime.filter((i) => i.keyword === 'USER').at(-1);
    expect(user?.args).toBeTruthy();
    expect(user!.args).not.toMatch(/^(root|0)(:|$)/);
    const healthcheck = runtime.find((i) => i.keyword === 'HEALTHCHECK');
    expect(healthcheck?.args).toContain('/healthz');
    // The runtime installs production dependencies only, from the lock file.
    const install = runtime.find((i) => i.keyword === 'RUN' && i.args.includes('npm ci'));
    expect(install?.args).toMatch(/npm ci --omit=dev/);
    // Nothing of the build stage but the bundles reaches the runtime.
    const fromBuild = runtime.filter((i) => i.keyword === 'COPY' && copyParts(i.args).from === 'build');
    expect(fromBuild.map((i) => copyParts(i.args).sources[0])).toEqual(['/app/backend/dist', '/app/frontend/dist']);
  });

  test('every path it copies from the context exists and is not left out by .dockerignore', () => {
    const copies = instructions.filter((i) => i.keyword === 'COPY' && copyParts(i.args).from === null);
    expect(copies.length).toBeGreaterThan(5);
    for (const copy of copies) {
      for (const source of copyParts(copy.args).sources) {
        expect(existsSync(path.join(REPO, source)), `${source} (${copy.stage}: COPY ${copy.args})`).toBe(true);
        expect(ignoredByDockerignore(dockerignore, source), `.dockerignore leaves out ${source}`).toBe(false);
      }
    }
    // Every workspace's manifest is copied before `npm ci`, or the lock file would not match.
    const workspaces = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    for (const stage of ['build', 'runtime']) {
      const sources = instructions
        .filter((i) => i.stage === stage && i.keyword === 'COPY' && copyParts(i.args).from === null)
        .flatMap((i) => copyParts(i.args).sources);
      for (const workspace of workspaces) expect(sources, stage).toContain(`${workspace}/package.json`);
    }
    // What the runtime takes from the build stage is what `npm run build` makes.
    expect(rootPackage.scripts.build).toContain('scripts/build-server.mjs');
    expect(readFileSync(path.join(REPO, 'scripts/build-server.mjs'), 'utf8')).toContain("outdir: 'backend/dist'");
    expect(readFileSync(path.join(REPO, 'frontend/vite.config.ts'), 'utf8')).toContain("'./dist'");
    expect(instructions.some((i) => i.stage === 'build' && i.keyword === 'RUN' && i.args === 'npm run build')).toBe(true);
  });

  test('the runtime command is what `npm start` runs once built', () => {
    expect(rootPackage.scripts.start).toBe('node scripts/start.mjs');
    const start = readFileSync(path.join(REPO, 'scripts/start.mjs'), 'utf8');
    const spawned = /spawn\(process\.execPath, (\[[^\]]*\])/.exec(start)?.[1];
    expect(spawned, 'scripts/start.mjs spawns the server').toBeTruthy();
    expect(['node', ...(JSON.parse(spawned!.replace(/'/g, '"')) as string[])]).toEqual(cmd);
    // And the entry is one the build makes.
    const entry = path.basename(cmd.at(-1)!, '.js');
    expect(readFileSync(path.join(REPO, 'scripts/build-server.mjs'), 'utf8')).toContain(`'${entry}'`);
  });
});

describe('the runtime stage’s production dependencies', () => {
  let db: TestDatabase | undefined;
  let dir: string | undefined;
  const started: ServerProcess[] = [];

  afterAll(async () => {
    await Promise.all(started.map((p) => p.stop()));
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('start the server and the projector against PostgreSQL, and the HEALTHCHECK passes', async () => {
    // Outside the repository, so nothing resolves from its node_modules (dev dependencies).
    dir = mkdtempSync(path.join(tmpdir(), 'crm-image-'));
    for (const copy of runtime.filter((i) => i.keyword === 'COPY' && copyParts(i.args).from === null)) {
      const { sources, dest } = copyParts(copy.args);
      for (const source of sources) {
        const target = dest.endsWith('/') || sources.length > 1 ? path.join(dir, dest, path.basename(source)) : path.join(dir, dest);
        mkdirSync(path.dirname(target), { recursive: true });
        copyFileSync(path.join(REPO, source), target);
      }
    }
    // The runtime stage's install, as written (the chown of DATA_DIR aside); the local cache first.
    const run = runtime.find((i) => i.keyword === 'RUN' && i.args.includes('npm ci'))!;
    const install = run.args
      .split('&&')
      .map((c) => c.trim())
      .find((c) => c.startsWith('npm ci'))!;
    const npm = spawnSync('sh', ['-c', `${install} --prefer-offline --loglevel=error`], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, SCARF_ANALYTICS: 'false' },
    });
    expect(npm.status, npm.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'node_modules', 'vite')), 'no dev dependency installed').toBe(false);
    // The build stage's bundles (the frontend is not needed to answer /healthz).
    bundleServer(dir);

    db = await createTestDatabase();
    const env = {
      NODE_ENV: 'production',
      SCARF_ANALYTICS: 'false',
      DATABASE_URL: db.url,
      DATA_DIR: path.join(dir, '.data'),
      SESSION_SECRET: 'image-test-session-secret-image-test-session',
      SUPER_ADMIN_PASSWORD: 'image-test-super-admin',
      LOG_LEVEL: 'warn',
    };
    const api = await startServerProcess(dir, 'api', 'main', env, { command: cmd });
    started.push(api);
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
    const projector = await startServerProcess(dir, 'projector', 'projector-main', env, {
      command: ['node', '--enable-source-maps', 'backend/dist/projector-main.js'],
    });
    started.push(projector);

    // The HEALTHCHECK's own command, against each.
    const check = JSON.parse(runtime.find((i) => i.keyword === 'HEALTHCHECK')!.args.replace(/^.*?CMD\s+/, '')) as string[];
    expect(check[0]).toBe('node');
    for (const p of [api, projector]) {
      const probe = spawnSync(process.execPath, check.slice(1), { env: { PORT: new URL(p.url).port }, encoding: 'utf8', timeout: 20_000 });
      expect(probe.status, `${p.name}: ${probe.stderr}`).toBe(0);
    }
  }, 240_000);
});
