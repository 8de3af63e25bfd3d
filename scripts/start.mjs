// `npm start`: build what is missing or stale (frontend bundle, server bundle), then run the server
// in this process's place so signals reach it directly.
import { spawn, spawnSync } from 'node:child_process';
import { staleBuilds } from './build-freshness.mjs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv.length > 2) {
  console.error(
    `npm start takes no arguments (got ${process.argv.slice(2).join(' ')}); its settings come from the environment, e.g. PORT=3001 npm start (README, "Configuration").`,
  );
  process.exit(2);
}
// A build that is missing or older than its sources is made again, so `npm start` after a
// `git pull` runs the new code, not the last build of the old.
for (const { name, reason } of staleBuilds('.')) {
  console.log(`Building the ${name} (${reason})...`);
  if (name === 'frontend') run('npm', ['run', 'build', '-w', 'frontend']);
  else run(process.execPath, ['scripts/build-server.mjs']);
}
// Two malloc arenas, not glibc's default of up to eight per core: the server's threads (its
// own, the projector's, libuv's and V8's helpers) each took an arena of their own, and what
// they freed stayed resident in it. The bench measured the server's peak RSS at 296-336 MB
// with the default and 247 MB with two (same load).
// Semi-spaces of at most 8 MB (V8's default lets the young generation grow to 16 MB per
// semi-space under load): the bench's peak RSS was 254-271 MB with the cap against 241-308 MB
// without it, with the same scavenge time. The Dockerfile and the bench set both the same way.
const env = {
  MALLOC_ARENA_MAX: '2',
  ...process.env,
  NODE_OPTIONS: ['--max-semi-space-size=8', process.env.NODE_OPTIONS].filter(Boolean).join(' '),
};
const server = spawn(process.execPath, ['--enable-source-maps', 'backend/dist/main.js'], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
