import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { FRONTEND_DIST, REPO_ROOT, startRuntime } from './runtime.ts';

const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const runtime = await startRuntime(config, logger, { version, frontendDir: FRONTEND_DIST });

  const { credentials } = runtime;
  const lines = [
    '',
    `  Shop CRM ${version} is running at ${runtime.url}`,
    `  Super admin sign-in: ${runtime.url}/super-admin-login`,
    `    username: ${credentials.username}`,
    credentials.password
      ? `    password: ${credentials.password}${credentials.generated ? '   (generated now and shown only this once)' : ''}`
      : '    password: the one printed at first start, or set SUPER_ADMIN_PASSWORD to replace it',
    '',
  ];
  console.log(lines.join('\n'));

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('Start-up failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
