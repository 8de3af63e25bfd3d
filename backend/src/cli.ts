import { EmbeddedPostgresError } from '@crm/projections/db/embedded';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';

/**
 * Shared start of the command-line entry points: config (or a clear message) and logger.
 * A start that cannot work (bad configuration, a data directory PostgreSQL cannot reach)
 * ends with its one-line message, not a stack trace; anything else with its stack. Either
 * way the exit code is 1: nothing may turn a failure into success.
 */
export function startCli(): { config: Config; logger: Logger } {
  process.on('uncaughtException', (error) => {
    const expected = error instanceof ConfigError || error instanceof EmbeddedPostgresError;
    console.error(expected ? error.message : error);
    process.exit(1);
  });
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
 * database, and the exit code says whether that worked.
 */
export function onShutdown(stop: () => Promise<void>, logger: Logger): void {
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

/**
 * The progress line of a long-running script, on stderr: a bar redrawn in place on a
 * terminal (at most every 100 ms), one line per tenth in logs and CI. `total` may be
 * unknown (null) while counting.
 */
export function createProgress(label: string, unit = '') {
  let lastDrawn = 0;
  let lastTenth = -1;
  return (done: number, total: number | null): void => {
    const finished = total !== null && done >= total;
    const share = total ? Math.min(1, done / total) : 0;
    const width = 30;
    const bar = total ? `[${'#'.repeat(Math.round(share * width)).padEnd(width, '.')}] ${Math.round(share * 100)}% ` : '';
    const line = `${label} ${bar}${done}${total !== null ? `/${total}` : ''}${unit ? ` ${unit}` : ''}`;
    if (process.stderr.isTTY) {
      const now = Date.now();
      if (!finished && now - lastDrawn < 100) return;
      lastDrawn = now;
      process.stderr.write(`\r${line}${finished ? '\n' : ''}`);
      return;
    }
    const tenth = finished ? Infinity : total ? Math.floor(share * 10) : Math.floor(done / 1000);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    process.stderr.write(`${line}\n`);
  };
}
