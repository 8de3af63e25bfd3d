// `npm run dev`: the API rebuilt and restarted on change (esbuild watch + node --watch)
// and the Vite dev server with hot reload, proxying /api to it.
import { spawn } from 'node:child_process';
import { context } from 'esbuild';
import { serverBuildOptions } from './build-server.mjs';

const ctx = await context(serverBuildOptions);
await ctx.rebuild();
await ctx.watch();

const children = [
  spawn(process.execPath, ['--watch', '--enable-source-maps', 'backend/dist/main.js'], { stdio: 'inherit' }),
  // Vite's proxy sends /api to the API started above, on whatever PORT it was given.
  // In a process group of its own, stopped as a group: npm runs Vite under `sh -c`, which does
  // not pass a signal on, so a SIGINT to this script alone (a process manager, an IDE's stop
  // button) left Vite running.
  spawn('npm', ['run', 'dev', '-w', 'frontend'], {
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, API_URL: process.env.API_URL || `http://localhost:${process.env.PORT || 3000}` },
  }),
];
const stop = async () => {
  children[0].kill('SIGINT');
  try {
    process.kill(-children[1].pid, 'SIGINT');
  } catch {
    // The group is gone already.
  }
  await ctx.dispose();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
