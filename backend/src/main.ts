import { readFileSync } from 'node:fs';
import path from 'node:path';
import { onShutdown, startCli } from './cli.ts';
import { limitHeapGrowth } from './infra/heap.ts';
import { startProjectorThread } from './infra/projector-thread.ts';
import { FRONTEND_DIST, REPO_ROOT, startRuntime } from './runtime.ts';

const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

async function main(): Promise<void> {
  const { config, logger } = startCli();
  limitHeapGrowth();
  // RUN_PROJECTOR: the projector, reactors and message sender run in a worker thread of
  // this process (their batches then never hold up a request); the API's own thread runs none.
  const runtime = await startRuntime({ ...config, RUN_PROJECTOR: false }, logger, { version, frontendDir: FRONTEND_DIST });
  // Without PUBLIC_URL customers reach the address this server prints.
  const projectorThread = config.RUN_PROJECTOR ? startProjectorThread(runtime.databaseUrl, logger, config.PUBLIC_URL ?? runtime.url) : null;
  // Before anything is awaited: a stop that comes while the thread is still being elected
  // must stop the thread and the embedded PostgreSQL too, not end the process where it stands.
  onShutdown(async () => {
    await projectorThread?.stop();
    await runtime.stop();
  }, logger);
  // "Running" once the projector has its lock: a script started next (a seed) then stands by.
  await projectorThread?.ready;

  const { credentials } = runtime;
  const lines = [
    '',
    `  Shop CRM ${version} is running at ${runtime.url}`,
    `  Super admin sign-in: ${runtime.url}/super-admin-login`,
    `    username: ${credentials.username}`,
    // A password is printed only when it was generated now: a chosen one is the operator's secret.
    credentials.generated && credentials.password
      ? `    password: ${credentials.password}   (generated now and shown only this once)`
      : config.SUPER_ADMIN_PASSWORD
        ? '    password: the one in SUPER_ADMIN_PASSWORD'
        : '    password: the one printed at first start, or set SUPER_ADMIN_PASSWORD to replace it',
    '',
  ];
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error('Start-up failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
