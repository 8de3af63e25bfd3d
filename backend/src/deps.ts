import type { Knex } from 'knex';
import type { AppendResult, EventStore } from '@crm/projections/eventstore/port';
import type { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

/** What request handlers are given; built once by the runtime. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  knex: Knex;
  store: EventStore;
  watcher: CheckpointWatcher;
  /** Clock for commands (tests may pin it). */
  now(): Date;
}

/**
 * How long a command waits for the projector before it answers. The projector normally
 * passes a command's events in milliseconds; on a saturated machine it may take seconds,
 * and an answer read from a read model that lags would say a just-created record is missing.
 */
export const SETTLE_TIMEOUT_MS = 10_000;

/**
 * Read-your-writes: wait (bounded) until the projector has applied what was appended (or a
 * position). False when it did not catch up within the wait.
 */
export async function settle(deps: AppDeps, appended: Pick<AppendResult, 'position'> | null | undefined): Promise<boolean> {
  if (!appended) return true;
  const reached = await deps.watcher.waitFor(appended.position, SETTLE_TIMEOUT_MS);
  if (!reached)
    deps.logger.warn(
      { position: `${appended.position.commit}/${appended.position.prepare}` },
      `projection did not catch up within ${SETTLE_TIMEOUT_MS / 1000} s`,
    );
  return reached;
}
