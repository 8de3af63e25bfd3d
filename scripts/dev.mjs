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
  spawn('npm', ['run', 'dev', '-w', 'frontend'], { stdio: 'inherit' }),
];
const stop = async () => {
  for (const child of children) child.kill('SIGINT');
  await ctx.dispose();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
