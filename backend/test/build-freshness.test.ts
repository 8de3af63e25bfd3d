import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
// @ts-expect-error plain .mjs scripts have no type declarations
import { BUILDS, staleBuilds } from '../../scripts/build-freshness.mjs';
// @ts-expect-error plain .mjs scripts have no type declarations
import { serverBuildOptions } from '../../scripts/build-server.mjs';

/**
 * `npm start` makes a build again when it is missing or older than a file it is made from,
 * so the first start after a `git pull` runs the pulled code.
 */
let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

type Build = { name: string; output: string; sources: string[] };
const builds: Build[] = [{ name: 'server', output: 'dist/main.js', sources: ['src', 'package.json'] }];

function file(relative: string, secondsAgo: number) {
  const full = path.join(root!, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, relative);
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(full, when, when);
}

test('a missing build is made, a build newer than every source is not, and one older than a source deep in a folder is', () => {
  root = mkdtempSync(path.join(tmpdir(), 'crm-freshness-'));
  file('src/a/b/deep.ts', 300);
  file('package.json', 300);
  expect(staleBuilds(root, builds)).toEqual([{ name: 'server', reason: 'missing' }]);

  file('dist/main.js', 200);
  expect(staleBuilds(root, builds)).toEqual([]);

  file('src/a/b/deep.ts', 100); // as a pull that changed it
  expect(staleBuilds(root, builds)).toEqual([{ name: 'server', reason: 'src changed since the last build' }]);

  file('dist/main.js', 50);
  file('package.json', 10);
  expect(staleBuilds(root, builds)).toEqual([{ name: 'server', reason: 'package.json changed since the last build' }]);
});

test("every file of the repository the server bundle is made from is under one of the server build's sources", async () => {
  const result = await build({ ...serverBuildOptions, write: false, metafile: true, logLevel: 'silent' });
  const server = (BUILDS as Build[]).find((b) => b.name === 'server')!;
  const inputs = Object.keys(result.metafile!.inputs).filter((input) => !input.includes('node_modules'));
  expect(inputs.length).toBeGreaterThan(100);
  const outside = inputs.filter((input) => !server.sources.some((source) => input === source || input.startsWith(`${source}/`)));
  expect(outside).toEqual([]);
});
