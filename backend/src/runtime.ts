import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { EventStore } from '@crm/projections/eventstore/port';
import { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import type { Projector, ProjectorOptions } from '@crm/projections/runtime/projector';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { createApp, createMetricsApp } from './http/app.ts';
import { answerClientErrors } from './http/problem.ts';
import { closeServer, keepConnectionsAlive } from './http/server-lifecycle.ts';
import type { ApiRouter } from './http/router.ts';
import { purgeExpiredRateLimits } from './http/rate-limit-store.ts';
import { forgetCachedSessions, purgeExpiredSessions } from './http/session-store.ts';
import { closeLiveStreams } from './live/index.ts';
import type { MessageSender } from './messages/index.ts';
import type { Logger } from './logger.ts';
import { bootstrapSuperAdmin, ensureReservedInstance, type SuperAdminCredentials } from './platform/index.ts';
import { routeModules } from './routes.ts';

import { createMessageSender, createProjector, createReactors, openStorage, withAdvisoryLock } from './workers.ts';

export { createMessageSender, createProjector, createReactors, openStorage, withAdvisoryLock, type Storage } from './workers.ts';

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
        return async (...args: Parameters<EventStore['appendMany']>) => {
          const [appends] = args;
          try {
            return await target.appendMany(...args);
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
  keepConnectionsAlive(server);
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
    keepConnectionsAlive(listening);
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
        await closeServer(server, () => closeLiveStreams(deps));
        if (metricsServer) await closeServer(metricsServer);
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
