import { existsSync } from 'node:fs';
import path from 'node:path';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import session from 'koa-session';
import serve from 'koa-static';
import { START } from '@crm/projections/eventstore/port';
import { countParkedEvents } from '@crm/projections/runtime/parked';
import type { AppDeps } from '../deps.ts';
import { ValidationError } from '../shared/errors.ts';
import { cleanBody, cleanRequestLine } from './input.ts';
import { createMetrics, metricsAllowed, type Metrics } from './metrics.ts';
import { registerApiDocsRoutes } from './openapi.ts';
import { problem, problemDetails } from './problem.ts';
import { refuseUnknownQuery } from './query-fields.ts';
import { ApiRouter } from './router.ts';
import { appShell } from './app-shell.ts';
import { crossSiteGuard, isApiPath, noStoreForApi, requestId, securityHeaders } from './security.ts';
import { CookieSigner } from './cookie-signer.ts';
import { createSessionStore, IDLE_TIMEOUT_MS, touchIdleSession } from './session-store.ts';
import { NOT_AN_OBJECT } from './validation.ts';

import { SESSION_COOKIE } from './session-cookie.ts';
/** A slice's route registration; `version` is the running release (the platform's health and API document name it). */
export type RouteModule = (router: ApiRouter, deps: AppDeps, version: string) => void;

export const BODY_LIMIT = '1mb';

export interface AppOptions {
  version: string;
  /** Built frontend to serve; skipped when missing. */
  frontendDir?: string;
  /** Lets every slice register its routes on the one guarded router (the composition root lists them). */
  registerRoutes?: RouteModule[];
}

export async function projectionLagSeconds(deps: AppDeps): Promise<number> {
  const checkpoint = await deps.watcher.refresh().catch(() => START);
  const [next] = await deps.store.readAll(checkpoint, 1);
  return next ? Math.max(0, (Date.now() - next.recordedAt.getTime()) / 1000) : 0;
}

export function createApp(deps: AppDeps, options: AppOptions) {
  const app = new Koa({ proxy: deps.config.TRUST_PROXY });
  app.keys = new CookieSigner(deps.config.sessionSecret);
  const metrics = createMetrics({
    projectionLagSeconds: () => projectionLagSeconds(deps),
    parkedEvents: () => countParkedEvents(deps.knex),
  });
  const router = new ApiRouter(deps.knex, { checkResponses: process.env.VITEST === 'true' });

  for (const register of options.registerRoutes ?? []) register(router, deps, options.version);
  // Last: the API document describes every route registered before it.
  registerApiDocsRoutes(router, deps, options.version);

  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    // A client that went away mid-response (a closed tab's live stream) is no server error:
    // logged as one, every tab closed would bury the real ones.
    const gone = (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
    deps.logger[gone ? 'debug' : 'error']({ err: error, requestId: ctx?.state.requestId, path: ctx?.path }, 'request failed');
  });

  app.use(requestId);
  app.use(async (ctx, next) => {
    const started = performance.now();
    await next();
    deps.logger.debug(
      {
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });
  app.use(metrics.middleware);
  app.use(problemDetails);
  app.use(securityHeaders);
  app.use(noStoreForApi);
  app.use(cleanRequestLine);

  app.use(async (ctx, next) => {
    if (ctx.path === '/healthz' || ctx.path === '/readyz') refuseUnknownQuery(Object.keys(ctx.query));
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path === '/readyz') {
      const checks = await readiness(deps);
      // With inline read models a command's own rows do not depend on the projector: one
      // that lags (audit log, insights behind) is reported but keeps the API in rotation.
      // Without them every command waits for it, so a lagging projector makes the API unready.
      const passes = (name: string, check: string) =>
        check === 'ok' || (name === 'projector' && check === 'behind' && deps.store.projectsInline === true);
      ctx.status = Object.entries(checks).every(([name, check]) => passes(name, check)) ? 200 : 503;
      // Parked events are counted, but do not make the process unready: the projectors skip
      // them and keep every other shop's read models current (README, Architecture). What
      // they are is in the parked_events table and the log, not on an unauthenticated URL.
      const parkedEvents = await countParkedEvents(deps.knex)
        .then((counts) => [...counts.values()].reduce((sum, n) => sum + n, 0))
        .catch(() => null);
      ctx.body = { status: ctx.status === 200 ? 'ready' : 'not ready', checks, parkedEvents };
      return;
    }
    if (ctx.path === '/metrics') {
      // Without the token it is like any unknown path (problem details add the body).
      if (metricsAllowed(ctx, deps.config.METRICS_TOKEN)) await serveMetrics(ctx, metrics);
      else ctx.status = 404;
      return;
    }
    await next();
  });

  app.use(
    session(
      {
        key: SESSION_COOKIE,
        store: createSessionStore(deps.knex, deps.watcher),
        maxAge: IDLE_TIMEOUT_MS.user,
        // Not rolling: touchIdleSession pushes the expiry forward once a minute at most.
        rolling: false,
        httpOnly: true,
        sameSite: 'lax',
        signed: true,
        // `secure` left unset: the cookies module marks it Secure whenever the request is HTTPS.
      },
      app,
    ),
  );
  app.use(touchIdleSession);
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: BODY_LIMIT,
      encoding: 'utf-8',
      onError: (error) => {
        const status = (error as { status?: number }).status;
        if (status === 413 || status === 415) throw error;
        // The parser refuses valid JSON that is not an object or array (null, "text", 7) with
        // this message; say what is wrong with it instead of calling it malformed.
        if (error.message.includes('only supports object and array')) throw new ValidationError(NOT_AN_OBJECT);
        throw new ValidationError('Malformed JSON in request body');
      },
    }),
  );
  app.use(cleanBody);
  app.use(crossSiteGuard);
  app.use(router.router.routes());
  app.use(router.router.allowedMethods({ throw: false }));

  if (options.frontendDir && existsSync(path.join(options.frontendDir, 'index.html'))) {
    const indexHtml = appShell(path.join(options.frontendDir, 'index.html'));
    app.use(
      serve(options.frontendDir, {
        index: false,
        setHeaders: (res, file) => {
          if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    // Client-side routes: every other GET outside /api gets the app shell. A script, style or
    // asset that is not there is a 404: answered with the shell, a page still holding an older
    // build's chunk names would get HTML for a module and go blank instead of failing visibly.
    app.use(async (ctx, next) => {
      if (ctx.method !== 'GET' || isApiPath(ctx.path) || ctx.body !== undefined || isStaticFilePath(ctx.path)) return next();
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = indexHtml();
    });
  }

  return { app, router, metrics };
}

/** Paths only the build's files answer: its assets folder, and scripts, styles and source maps anywhere. */
function isStaticFilePath(requestPath: string): boolean {
  return requestPath.startsWith('/assets/') || /\.(m?js|css|map)$/i.test(requestPath);
}

async function serveMetrics(ctx: Koa.Context, metrics: Metrics): Promise<void> {
  ctx.type = metrics.registry.contentType;
  ctx.body = await metrics.registry.metrics();
}

/**
 * The app of the separate metrics port (METRICS_PORT): `/metrics` and nothing else, no token
 * asked (whoever can reach that port is meant to scrape it).
 */
export function createMetricsApp(metrics: Metrics): Koa {
  const app = new Koa();
  app.use(securityHeaders);
  app.use(async (ctx) => {
    if (ctx.path !== '/metrics' || ctx.method !== 'GET') {
      ctx.status = 404;
      ctx.type = 'application/problem+json';
      ctx.body = problem(404, 'Not Found', 'Only GET /metrics is served here');
      return;
    }
    await serveMetrics(ctx, metrics);
  });
  return app;
}

/**
 * What /readyz tells: each dependency ok or not, never the driver's error (it names hosts,
 * ports and users); the log has that.
 */
async function readiness(deps: AppDeps): Promise<Record<string, string>> {
  const checks: Record<string, string> = {};
  const failed = (what: string, error: unknown) => {
    deps.logger.warn({ err: error, check: what }, 'readiness check failed');
    return 'failing';
  };
  try {
    await deps.knex.raw('SELECT 1');
    checks.database = 'ok';
  } catch (error) {
    checks.database = failed('database', error);
  }
  try {
    await deps.store.ping();
    checks.eventStore = 'ok';
  } catch (error) {
    checks.eventStore = failed('eventStore', error);
  }
  try {
    const lag = await projectionLagSeconds(deps);
    checks.projector = lag < 10 ? 'ok' : 'behind';
  } catch (error) {
    checks.projector = failed('projector', error);
  }
  return checks;
}
