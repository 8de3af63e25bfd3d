// Which builds `npm start` has to make before it runs the server: a build that is missing,
// or older than a file it is made from. A `git pull` gives every file it changes a new
// modification time, so the first start after pulling new code rebuilds what that code
// feeds, and a start with nothing changed goes straight to the server.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const BUILDS = [
  {
    name: 'frontend',
    output: 'frontend/dist/index.html',
    sources: [
      'frontend/src',
      'frontend/public',
      'frontend/index.html',
      'frontend/vite.config.ts',
      'frontend/package.json',
      'package-lock.json',
    ],
  },
  {
    name: 'server',
    output: 'backend/dist/main.js',
    sources: [
      'backend/src',
      'projections/src',
      'backend/package.json',
      'projections/package.json',
      'scripts/build-server.mjs',
      'package-lock.json',
    ],
  },
];

/** The newest modification time (ms) of a file, or of any file under a folder; 0 if absent. */
function newestModification(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestModification(path.join(file, entry)));
  return newest;
}

/** The builds under `root` to make, each with the reason: "missing" or the newer source. */
export function staleBuilds(root, builds = BUILDS) {
  const stale = [];
  for (const build of builds) {
    const output = path.join(root, build.output);
    if (!existsSync(output)) {
      stale.push({ name: build.name, reason: 'missing' });
      continue;
    }
    const built = statSync(output).mtimeMs;
    const newer = build.sources.find((source) => newestModification(path.join(root, source)) > built);
    if (newer) stale.push({ name: build.name, reason: `${newer} changed since the last build` });
  }
  return stale;
}
