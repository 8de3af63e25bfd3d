import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { adoptThreadSignalBuffers } from '@crm/projections/eventstore/thread-signal';
import { fileBatchTrace, type Projector } from '@crm/projections/runtime/projector';
import { describeSubscribers, subscriberStates } from '@crm/projections/runtime/projector-health';
import { onShutdown, startCli } from './cli.ts';
import { loadConfig, type Config } from './config.ts';
import { limitHeapGrowth } from './infra/heap.ts';
import { nameThisThread, PROJECTOR_THREAD_NAME } from './infra/thread-name.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMessageSender, createProjector, createReactors, openStorage, type Storage } from './workers.ts';

/**
 * `npm run projector`: the projector and the reactors on their own, for scaled-out
 * deployments (run the API with RUN_PROJECTOR=false). Any number may run: an advisory lock
 * per read-model set (and per reactor) keeps one of each active, the others stand by and
 * take over within seconds when it dies.
 *
 * It answers on PORT: /healthz (alive, and each subscriber's state from memory, no database query: a liveness
 * probe), /readyz
 * (database and event store answer) and /metrics (this process's Prometheus metrics; the
 * bearer token when METRICS_TOKEN is set), so
 * the container image's HEALTHCHECK and Kubernetes probes work for it as for the API.
 *
 * The same file runs as the worker thread an API process starts (RUN_PROJECTOR, see
 * infra/projector-thread.ts): then it serves no endpoints (the API's own answer for the
 * process) and stops when the API's thread asks.
 */
if (isMainThread) await runAsProcess();
else await runAsThread(parentPort!);

async function startWorkers(storage: Storage, config: Config, logger: Logger) {
  const trace = config.PROJECTOR_TRACE ? fileBatchTrace(config.PROJECTOR_TRACE) : undefined;
  const projector = createProjector(storage, logger, undefined, trace);
  const reactors = createReactors(storage, logger, undefined, undefined, config, trace);
  const sender = createMessageSender(storage, config, logger);
  projector.start();
  for (const reactor of reactors) reactor.start();
  sender.start();
  return {
    projector,
    all: [projector, ...reactors],
    async stop() {
      await sender.stop();
      await Promise.all(reactors.map((reactor) => reactor.stop()));
      await projector.stop();
      await trace?.close();
      await storage.close();
    },
  };
}

async function runAsProcess(): Promise<void> {
  const { config, logger } = startCli();
  limitHeapGrowth();
  const storage = await openStorage(config, logger);
  const workers = await startWorkers(storage, config, logger);
  const server = await serveHealth(workers.all, storage, config.PORT, config.HOST, logger, config.METRICS_TOKEN);
  logger.info('projector process running; Ctrl+C to stop');
  onShutdown(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await workers.stop();
  }, logger);
}

/**
 * In the API's process: the configuration comes from the environment the API handed the
 * thread; an error nothing catches ends the thread (the API starts it again), not the API.
 */
async function runAsThread(port: MessagePort): Promise<void> {
  nameThisThread(PROJECTOR_THREAD_NAME);
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  // The API's appends wake this thread's subscriptions through the counter it handed us.
  adoptThreadSignalBuffers((workerData as { threadSignals?: unknown } | null)?.threadSignals);
  const storage = await openStorage(config, logger);
  const workers = await startWorkers(storage, config, logger);
  port.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    workers.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'the projector thread did not stop cleanly');
        process.exit(1);
      },
    );
  });
  // The API says it is running once this thread has won the election (or, when another
  // projector holds the lock, after a few seconds on standby).
  const deadline = Date.now() + 5_000;
  while (!workers.projector.isLeader && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  port.postMessage({ ready: true });
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(token).digest());
}

async function serveHealth(
  subscribers: Projector[],
  storage: Storage,
  port: number,
  host: string,
  log: Logger,
  metricsToken: string | undefined,
): Promise<Server | null> {
  // Loaded here: the thread an API process runs this file in serves no metrics of its own.
  const { default: client } = await import('prom-client');
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  new client.Gauge({
    name: 'projector_active',
    help: '1 when this process holds the lock of the checkpoint (is the active projector or reactor), 0 on standby',
    labelNames: ['checkpoint'],
    registers: [registry],
    collect() {
      for (const s of subscribers) this.set({ checkpoint: s.checkpointName }, s.isLeader ? 1 : 0);
    },
  });
  new client.Gauge({
    name: 'projector_events_applied',
    help: 'Events this process has applied (or passed over) since it started',
    labelNames: ['checkpoint'],
    registers: [registry],
    collect() {
      for (const s of subscribers) this.set({ checkpoint: s.checkpointName }, s.eventsApplied);
    },
  });
  new client.Gauge({
    name: 'projector_batch_failures',
    help: 'Batches that failed and were rolled back since this process started',
    labelNames: ['checkpoint'],
    registers: [registry],
    collect() {
      for (const s of subscribers) this.set({ checkpoint: s.checkpointName }, s.batchFailures);
    },
  });

  const server = createServer((req, res) => {
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return send(200, { status: 'ok', subscribers: subscriberStates(subscribers) });
    if (path === '/readyz') {
      void (async () => {
        const checks = { database: 'ok', eventStore: 'ok' };
        await storage.knex.raw('SELECT 1').catch(() => (checks.database = 'unavailable'));
        await storage.store.ping().catch(() => (checks.eventStore = 'unavailable'));
        const ready = checks.database === 'ok' && checks.eventStore === 'ok';
        send(ready ? 200 : 503, {
          status: ready ? 'ready' : 'not ready',
          checks,
          subscribers: await describeSubscribers(storage.knex, subscribers),
        });
      })().catch(() => send(503, { status: 'not ready' }));
      return;
    }
    if (path === '/metrics') {
      // Nothing here is per route or per shop, and the port is not published; with
      // METRICS_TOKEN set it asks for the token, as the API's /metrics does.
      if (metricsToken && !bearerMatches(req.headers.authorization, metricsToken)) return send(401, { status: 401, title: 'Unauthorized' });
      void registry.metrics().then(
        (text) => send(200, text, registry.contentType),
        () => send(500, 'metrics failed', 'text/plain'),
      );
      return;
    }
    send(404, { status: 404, title: 'Not Found' });
  });
  return await new Promise<Server | null>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      // Next to `npm start` on one machine PORT is taken: project anyway, without the endpoints.
      if (error.code === 'EADDRINUSE') {
        log.warn({ port }, 'port in use: the projector runs without /healthz, /readyz and /metrics (set PORT to serve them)');
        resolve(null);
      } else reject(error);
    });
    server.listen(port, host, () => {
      log.info({ port: (server.address() as { port: number }).port }, 'projector health endpoints listening');
      resolve(server);
    });
  });
}
