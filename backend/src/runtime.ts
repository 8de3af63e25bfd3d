import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Knex } from 'knex';
import pg from 'pg';
import { migrate, READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import type { EventStore } from '@crm/projections/eventstore/port';
import { projections } from '@crm/projections/read-models';
import { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import { ensureInlineSince } from '@crm/projections/runtime/inline';
import { Projector, type ProjectorOptions } from '@crm/projections/runtime/projector';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { createApp, createMetricsApp } from './http/app.ts';
import { answerClientErrors } from './http/problem.ts';
import type { ApiRouter } from './http/router.ts';
import { purgeExpiredRateLimits } from './http/rate-limit-store.ts';
import { forgetCachedSessions, purgeExpiredSessions } from './http/session-store.ts';
import { customerCascadeReactor } from './pipeline/index.ts';
import { createKnex, openDatabase } from './infra/database.ts';
import { openEventStore } from './infra/event-store.ts';
import { closeLiveStreams } from './live/index.ts';
import { MessageSender, messageOutboxReactor, parseInvoiceAttachmentId, transportsFromConfig } from './messages/index.ts';
import { renderInvoicePdf } from './repair-orders/index.ts';
import type { Logger } from './logger.ts';
import { bootstrapSuperAdmin, ensureReservedInstance, type SuperAdminCredentials } from './platform/index.ts';
import { routeModules } from './routes.ts';
import { CUSTOMER_CASCADE, MESSAGE_OUTBOX } from './shared/reactions.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const FRONTEND_DIST = path.join(REPO_ROOT, 'frontend/dist');

export interface Runtime {
  url: string;
  /** The separate metrics port's base URL (METRICS_PORT), or null. */
  metricsUrl: string | null;
  /** The database this process works on (the embedded one's address included). */
  databaseUrl: string;
  deps: AppDeps;
  server: Server;
  /** The one guarded router: its route list is what the cross-tenant tests walk. */
  router: ApiRouter;
  projector: Projector | null;
  /** The reactors running here (none when RUN_PROJECTOR is false). */
  reactors: Projector[];
  /** The message sender running here (none when RUN_PROJECTOR is false). */
  sender: MessageSender | null;
  credentials: SuperAdminCredentials;
  stop(): Promise<void>;
}

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

/** `onApplied`: told each committed checkpoint (the in-process watcher, see startRuntime). */
export function createProjector(storage: Storage, logger: Logger, onApplied?: ProjectorOptions['onApplied']): Projector {
  return new Projector({
    onApplied,
    store: storage.store,
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
): Projector[] {
  return [
    new Projector({
      onApplied,
      store: storage.store,
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
    store: storage.store,
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
      return await renderInvoicePdf(
        { store: storage.store, knex: storage.knex, now: now ?? (() => new Date()) },
        instanceId,
        invoice.jobId,
        invoice.revision,
      );
    },
  });
}

/** The streams whose events change what a cached session's principal says: users and instances. */
const ACCOUNT_STREAM_PREFIXES = ['user-', 'crminstance-'];

/**
 * The store as this process's commands use it: after an append to a user's or an instance's
 * stream, this process's cached sessions are dropped at once (the database's notification,
 * which drops them in every process, could arrive after the caller's next request).
 */
function forgettingSessionsOnAccountAppends(store: EventStore): EventStore {
  const touchesAccounts = (streamId: string) => ACCOUNT_STREAM_PREFIXES.some((prefix) => streamId.startsWith(prefix));
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append') {
        return async (...args: Parameters<EventStore['append']>) => {
          try {
            return await target.append(...args);
          } finally {
            if (touchesAccounts(args[0])) forgetCachedSessions();
          }
        };
      }
      if (property === 'appendMany') {
        return async (appends: Parameters<EventStore['appendMany']>[0]) => {
          try {
            return await target.appendMany(appends);
          } finally {
            if (appends.some((a) => touchesAccounts(a.streamId))) forgetCachedSessions();
          }
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Starts everything `npm start` runs: storage, projector, API and the built frontend. */
export async function startRuntime(
  config: Config,
  logger: Logger,
  options: { version: string; frontendDir?: string; now?: () => Date } = { version: '0.0.0' },
): Promise<Runtime> {
  const storage = await openStorage(config, logger);
  const watcher = new CheckpointWatcher(storage.knex, storage.databaseUrl);
  await watcher.start();
  // Checkpoints committed in this process reach its waiters at once, without the NOTIFY's trip.
  const advance: ProjectorOptions['onApplied'] = (name, position) => watcher.advance(name, position);
  const projector = config.RUN_PROJECTOR ? createProjector(storage, logger, advance) : null;
  projector?.start();
  const reactors = config.RUN_PROJECTOR ? createReactors(storage, logger, options.now, advance, config) : [];
  for (const reactor of reactors) reactor.start();
  const sender = config.RUN_PROJECTOR ? createMessageSender(storage, config, logger, options.now) : null;
  sender?.start();

  watcher.onAuthChanged(forgetCachedSessions);
  const deps: AppDeps = {
    config,
    logger,
    knex: storage.knex,
    store: forgettingSessionsOnAccountAppends(storage.store),
    watcher,
    now: options.now ?? (() => new Date()),
  };
  // One process at a time makes the super admin and the provider's own instance; the
  // others then find them there.
  const credentials = await withAdvisoryLock(storage.databaseUrl, 'crm:bootstrap', async () => {
    const made = await bootstrapSuperAdmin(deps);
    await ensureReservedInstance(deps);
    return made;
  });

  const { app, router, metrics } = createApp(deps, {
    version: options.version,
    frontendDir: options.frontendDir,
    registerRoutes: routeModules,
  });
  // Koa's handler answers every error itself, so the request's promise is not awaited.
  const handleRequest = app.callback();
  const server = createServer((req, res) => void handleRequest(req, res));
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  // Metrics on a port of their own, when configured: scrapers reach it, the public does not.
  let metricsServer: Server | null = null;
  if (config.METRICS_PORT !== undefined) {
    const handleMetrics = createMetricsApp(metrics).callback();
    const listening = createServer((req, res) => void handleMetrics(req, res));
    metricsServer = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(config.METRICS_PORT, config.METRICS_HOST, resolve);
    });
  }
  const sessionSweeper = setInterval(
    () => {
      void purgeExpiredSessions(storage.knex).catch(() => undefined);
      void purgeExpiredRateLimits(storage.knex).catch(() => undefined);
    },
    15 * 60 * 1000,
  );
  sessionSweeper.unref();

  let stopping: Promise<void> | null = null;
  return {
    url: `http://localhost:${port}`,
    databaseUrl: storage.databaseUrl,
    metricsUrl: metricsServer ? `http://localhost:${(metricsServer.address() as AddressInfo).port}` : null,
    deps,
    server,
    router,
    projector,
    reactors,
    sender,
    credentials,
    stop() {
      stopping ??= (async () => {
        clearInterval(sessionSweeper);
        // Open live-update streams would keep the server from closing.
        closeLiveStreams(deps);
        server.closeIdleConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        if (metricsServer) await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
        await sender?.stop();
        await Promise.all(reactors.map((reactor) => reactor.stop()));
        await projector?.stop();
        await watcher.stop();
        await storage.close();
      })();
      return stopping;
    },
  };
}
