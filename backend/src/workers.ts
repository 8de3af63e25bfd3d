import type { Knex } from 'knex';
import pg from 'pg';
import { migrate, READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import type { EventStore } from '@crm/projections/eventstore/port';
import { projections } from '@crm/projections/read-models';
import { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import { ensureInlineSince } from '@crm/projections/runtime/inline';
import { Projector, type ProjectorOptions } from '@crm/projections/runtime/projector';
import { sharedSubscriptions } from '@crm/projections/runtime/shared-log';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { createKnex, openDatabase } from './infra/database.ts';
import { openEventStore } from './infra/event-store.ts';
import type { Logger } from './logger.ts';
import { MessageSender, messageOutboxReactor, parseInvoiceAttachmentId, transportsFromConfig } from './messages/index.ts';
import { customerCascadeReactor } from './pipeline/index.ts';
import { CUSTOMER_CASCADE, MESSAGE_OUTBOX } from './shared/reactions.ts';

/**
 * Storage and the checkpointed workers (projector, reactors, message sender): all that the
 * projector process (projector-main.ts) needs. Kept apart from runtime.ts, which builds the
 * HTTP app, so that process does not load the app's routes and web framework; the
 * invoice PDF renderer (pdfkit, only when a message carries an invoice) is loaded on use.
 */

export interface Storage {
  databaseUrl: string;
  knex: Knex;
  store: EventStore;
  close(): Promise<void>;
}

/** Database (embedded or external), migrations and the event store: what every process needs. */
export async function openStorage(config: Config, logger: Logger): Promise<Storage> {
  const database = await openDatabase(config, logger);
  const knex = createKnex(database.url);
  try {
    // Several processes may start at once on one database (API replicas, projectors): one
    // migrates, the others wait for it and then find nothing left to do.
    await withAdvisoryLock(database.url, 'crm:migrate', () => migrate(knex));
  } catch (error) {
    await knex.destroy();
    await database.stopEmbedded?.();
    throw error;
  }
  const store = openEventStore(config, database.url, knex);
  // Where inline projection started, recorded before any append of this process projects inline.
  if (store.projectsInline) await ensureInlineSince(knex);
  return {
    databaseUrl: database.url,
    knex,
    store,
    async close() {
      await store.close().catch(() => undefined);
      await knex.destroy().catch(() => undefined);
      await database.stopEmbedded?.();
    },
  };
}

/**
 * Runs `work` while holding a PostgreSQL advisory lock on a connection of its own: processes
 * starting together on one database take turns. The lock goes with the connection, so a
 * process that dies meanwhile does not leave it held.
 */
export async function withAdvisoryLock<T>(databaseUrl: string, key: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: `crm-${key}` });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    return await work();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The store as the projector and the reactors of this process follow it: one reader of the
 * log for all of them (runtime/shared-log.ts), not a query and a LISTEN connection each.
 */
function logReader(storage: Storage): EventStore {
  return sharedSubscriptions(storage.store);
}

/** `onApplied`: told each committed checkpoint (the in-process watcher, see startRuntime). */
export function createProjector(
  storage: Storage,
  logger: Logger,
  onApplied?: ProjectorOptions['onApplied'],
  trace?: ProjectorOptions['trace'],
): Projector {
  return new Projector({
    onApplied,
    trace,
    store: logReader(storage),
    knex: storage.knex,
    connectionString: storage.databaseUrl,
    projections,
    inline: storage.store.projectsInline === true,
    schema: READ_MODEL_SCHEMA,
    logger: logger.child({ component: 'projector' }),
  });
}

/**
 * What a command-line tool that writes through the commands runs on: the storage, a checkpoint
 * watcher, and a projector that projects what it writes (on standby, and harmless, when a
 * running server already projects). `close` stops them, the database last.
 */
export async function openCommandTool(
  config: Config,
  logger: Logger,
): Promise<{ storage: Storage; deps: AppDeps; close(): Promise<void> }> {
  const storage = await openStorage(config, logger);
  const watcher = new CheckpointWatcher(storage.knex, storage.databaseUrl);
  await watcher.start();
  const projector = createProjector(storage, logger);
  projector.start();
  return {
    storage,
    deps: { config, logger, knex: storage.knex, store: storage.store, watcher, now: () => new Date() },
    async close() {
      await projector.stop();
      await watcher.stop();
      await storage.close();
    },
  };
}

/** The reactors: checkpointed subscribers that send commands, each elected like the projector. */
export function createReactors(
  storage: Storage,
  logger: Logger,
  now: () => Date = () => new Date(),
  onApplied?: ProjectorOptions['onApplied'],
  /** With it, the message outbox reactor too (its links need the server's address and secret). */
  config?: Config,
  trace?: ProjectorOptions['trace'],
): Projector[] {
  return [
    new Projector({
      onApplied,
      trace,
      store: logReader(storage),
      knex: storage.knex,
      connectionString: storage.databaseUrl,
      projections: [customerCascadeReactor({ store: storage.store, knex: storage.knex, now })],
      schema: READ_MODEL_SCHEMA,
      checkpointName: CUSTOMER_CASCADE,
      kind: 'reactor',
      logger: logger.child({ component: 'customer-cascade' }),
    }),
    ...(config ? [messageOutbox(storage, config, logger, now, onApplied)] : []),
  ];
}

function messageOutbox(
  storage: Storage,
  config: Config,
  logger: Logger,
  now: () => Date,
  onApplied?: ProjectorOptions['onApplied'],
): Projector {
  return new Projector({
    onApplied,
    store: logReader(storage),
    knex: storage.knex,
    connectionString: storage.databaseUrl,
    projections: [messageOutboxReactor({ store: storage.store, knex: storage.knex, config, now })],
    schema: READ_MODEL_SCHEMA,
    checkpointName: MESSAGE_OUTBOX,
    kind: 'reactor',
    logger: logger.child({ component: 'message-outbox' }),
  });
}

/** The message sender: delivers what the outbox reactor queued, elected like the reactors (see messages/sender.ts). */
export function createMessageSender(storage: Storage, config: Config, logger: Logger, now?: () => Date): MessageSender {
  return new MessageSender({
    store: storage.store,
    knex: storage.knex,
    connectionString: storage.databaseUrl,
    config,
    logger: logger.child({ component: 'message-sender' }),
    transports: transportsFromConfig(config),
    now,
    attachmentLoader: async (attachment, instanceId) => {
      const invoice = parseInvoiceAttachmentId(attachment.invoiceId);
      if (!invoice) throw new Error(`Unknown attachment ${attachment.invoiceId}`);
      const { renderInvoicePdf } = await import('./repair-orders/index.ts');
      return await renderInvoicePdf(
        { store: storage.store, knex: storage.knex, now: now ?? (() => new Date()) },
        instanceId,
        invoice.jobId,
        invoice.revision,
      );
    },
  });
}
