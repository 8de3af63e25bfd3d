import type { Knex } from 'knex';
import { positionToString, type AppendResult, type EventStore } from '@crm/projections/eventstore/port';
import type { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import { projectorNeededFor } from '@crm/projections/read-models';
import { newestCommittedPosition } from '@crm/projections/runtime/inline';
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
 * position). False when it did not catch up within the wait. On the PostgreSQL store the
 * record's own rows were written with its events (inline projections), so there is nothing
 * to wait for, unless an asynchronous projection whose readers do not wait themselves
 * (catchUpAsyncReadModels) takes the events. With EventStoreDB every read model is
 * asynchronous and the command waits here.
 */
export async function settle(deps: AppDeps, appended: Pick<AppendResult, 'position' | 'types'> | null | undefined): Promise<boolean> {
  if (!appended) return true;
  if (deps.store.projectsInline && appended.types && !projectorNeededFor(appended.types)) return true;
  const reached = await deps.watcher.waitFor(appended.position, SETTLE_TIMEOUT_MS);
  if (!reached)
    deps.logger.warn({ position: positionToString(appended.position) }, `projection did not catch up within ${SETTLE_TIMEOUT_MS / 1000} s`);
  return reached;
}

/** How long a read of an asynchronous read model waits for the projector before it answers with what is there. */
export const ASYNC_READ_WAIT_MS = 5_000;

/**
 * Read-your-writes for what the projector keeps (the audit log and Recent Activity, the
 * insights): before reading it, wait (bounded) until the projector has passed every event
 * committed so far, so a GET right after a command's answer shows it, on any API process.
 * Commands do not wait for it any more (their own rows are inline); without inline
 * projections the command already waited (settle), so this does nothing.
 */
export async function catchUpAsyncReadModels(deps: AppDeps): Promise<void> {
  if (!deps.store.projectsInline) return;
  const head = await newestCommittedPosition(deps.knex);
  if (await deps.watcher.waitFor(head, ASYNC_READ_WAIT_MS)) return;
  deps.logger.warn(
    { position: positionToString(head) },
    `asynchronous read models did not catch up within ${ASYNC_READ_WAIT_MS / 1000} s; answering with what they have`,
  );
}
