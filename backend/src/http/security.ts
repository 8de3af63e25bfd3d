import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ForbiddenError, TooManyRequestsError } from '../shared/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-crm-request';

export async function requestId(ctx: Context, next: Next): Promise<void> {
  const incoming = ctx.get('x-request-id');
  const id = /^[\w.-]{8,100}$/.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  await next();
}

/** Sensitive data must not be cached anywhere between us and the browser. */
export async function noStoreForApi(ctx: Context, next: Next): Promise<void> {
  if (ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
  await next();
}

/**
 * Cross-site request guard for mutating calls, on top of SameSite=Lax cookies: a custom
 * header (a cross-site form cannot set it) and, when the browser sends one, an Origin
 * that is our own.
 */
export async function crossSiteGuard(ctx: Context, next: Next): Promise<void> {
  if (!SAFE_METHODS.has(ctx.method) && ctx.path.startsWith('/api/')) {
    if (ctx.get(CSRF_HEADER) !== '1') throw new ForbiddenError('Cross-site request refused');
    const origin = ctx.get('origin');
    if (origin) {
      let originHost: string;
      try {
        originHost = new URL(origin).host;
      } catch {
        throw new ForbiddenError('Cross-site request refused');
      }
      if (originHost !== ctx.host) throw new ForbiddenError('Cross-site request refused');
    }
  }
  await next();
}

/** Fixed-window limiter per key (client IP on sign-in endpoints). In-process by design:
 * each API process limits its own share, and account lockout is the cluster-wide guard. */
export function createRateLimiter(options: { windowMs: number; max: number }) {
  const hits = new Map<string, { count: number; resetAt: number }>();
  return {
    /** Counts one attempt for the key; throws 429 past the limit. */
    check(ctx: Context, key: string = ctx.ip): void {
      const now = Date.now();
      let entry = hits.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + options.windowMs };
        hits.set(key, entry);
        if (hits.size > 10_000) {
          for (const [k, v] of hits) if (v.resetAt <= now) hits.delete(k);
        }
      }
      entry.count++;
      if (entry.count > options.max) {
        ctx.set('Retry-After', String(Math.ceil((entry.resetAt - now) / 1000)));
        throw new TooManyRequestsError();
      }
    },
  };
}
