// `npm start`: build what is missing (frontend bundle, server bundle), then run the server
// in this process's place so signals reach it directly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync('frontend/dist/index.html')) {
  console.log('Building the frontend (first start)...');
  run('npm', ['run', 'build', '-w', 'frontend']);
}
if (!existsSync('backend/dist/main.js')) {
  console.log('Building the server (first start)...');
  run(process.execPath, ['scripts/build-server.mjs']);
}
const server = spawn(process.execPath, ['--enable-source-maps', 'backend/dist/main.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
