import { createHash, timingSafeEqual } from 'node:crypto';
import client from 'prom-client';
import type { Context, Next } from 'koa';

export interface Metrics {
  registry: client.Registry;
  middleware(ctx: Context, next: Next): Promise<void>;
}

export interface MetricSources {
  projectionLagSeconds(): Promise<number>;
  /** Parked events per projector or reactor (checkpoint name). */
  parkedEvents(): Promise<Map<string, number>>;
}

/** Prometheus metrics: process defaults, HTTP timings, projection lag and parked events. */
export function createMetrics(sources: MetricSources): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new client.Gauge({
    name: 'projection_lag_seconds',
    help: 'Age of the oldest event the projector has not applied yet (0 when caught up)',
    registers: [registry],
    async collect() {
      this.set(await sources.projectionLagSeconds());
    },
  });
  new client.Gauge({
    name: 'parked_events',
    help: 'Events a projector or reactor could not handle, skipped and stored in parked_events',
    labelNames: ['checkpoint'],
    registers: [registry],
    async collect() {
      const counts = await sources.parkedEvents().catch(() => new Map<string, number>());
      this.reset();
      // The main projector always reports, so an alert on > 0 has a series to watch.
      this.set({ checkpoint: 'main' }, 0);
      for (const [checkpoint, count] of counts) this.set({ checkpoint }, count);
    },
  });
  return {
    registry,
    async middleware(ctx, next) {
      const end = httpDuration.startTimer();
      try {
        await next();
      } finally {
        const route =
          (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? (ctx.path.startsWith('/api/') ? 'unmatched' : 'static');
        end({ method: ctx.method, route: String(route), status: String(ctx.status) });
      }
    },
  };
}

/**
 * Whether this request may read `/metrics` on the API port: only with the configured token
 * (`Authorization: Bearer <METRICS_TOKEN>`, compared in constant time). Without a token
 * configured the API port serves no metrics (use METRICS_PORT), and a refused request gets
 * the same 404 as any unknown path, so nobody learns that metrics exist.
 */
export function metricsAllowed(ctx: Context, token: string | undefined): boolean {
  if (!token) return false;
  const given = /^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1] ?? '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}
