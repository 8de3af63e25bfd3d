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

export function onShutdown(stop: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}
