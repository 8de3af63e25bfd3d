import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ForbiddenError } from '../shared/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-crm-request';

export async function requestId(ctx: Context, next: Next): Promise<void> {
  const incoming = ctx.get('x-request-id');
  const id = /^[\w.-]{8,100}$/.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  await next();
}

/**
 * Whether a request path is the API's, whatever its letter case or percent-encoding
 * (`/API/`, `/%61pi/`, `/api`): every rule that applies to the API (no-store, problem
 * details, the SPA fallback) asks this one function, so no spelling of the path slips
 * past one of them. (The router itself matches case-sensitively: only `/api/` routes.)
 */
export function isApiPath(rawPath: string): boolean {
  const lower = normalizedPath(rawPath).toLowerCase();
  return lower === '/api' || lower.startsWith('/api/');
}

/** Segments of letters, digits, `_`, `~` and `-` only, each non-empty, perhaps a trailing slash. */
const PLAIN_PATH = /^(?:\/[\w~-]+)+\/?$/;

/**
 * A path as a browser, a proxy or a file server might read it: percent-escapes decoded,
 * backslashes as slashes, repeated slashes as one, `.` and `..` segments resolved, a
 * segment's `;parameters` and surrounding blanks dropped (servlet containers and some
 * proxies route `/api;x/…` and `/api%20/…` to `/api/…`). So `//api/x`, `/./api/x`,
 * `/%2Fapi/x`, `/api\x` and `/api;/x` all count as API paths: each is then either a route
 * of the API or a 404 problem, never the app's HTML.
 */
export function normalizedPath(rawPath: string): string {
  // Most paths have nothing to decode or resolve (no escape, dot, backslash, semicolon, blank
  // or empty segment): such a path is its own normal form, found without the work below,
  // which every request pays (the no-store rule asks on each).
  if (PLAIN_PATH.test(rawPath)) return rawPath;
  let decoded = rawPath;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // A malformed escape: judged on the raw text (the input rule answers it with a 400).
  }
  const segments: string[] = [];
  for (const raw of decoded.replaceAll('\\', '/').split('/')) {
    const segment = raw.split(';', 1)[0]!.trim();
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}${decoded.endsWith('/') && segments.length > 0 ? '/' : ''}`;
}

/** Sensitive data must not be cached anywhere between us and the browser. */
export async function noStoreForApi(ctx: Context, next: Next): Promise<void> {
  if (isApiPath(ctx.path)) ctx.set('Cache-Control', 'no-store');
  await next();
}

/**
 * The content security policy of every answer: scripts and styles only from our own origin
 * (the built SPA has no inline script), no plugins, no framing by anyone, forms and base URIs
 * to ourselves. Inline style attributes stay allowed: the React screens set them.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Browser security headers on every answer (API, SPA shell, assets, API docs). */
export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  await next();
}

/**
 * Cross-site request guard for mutating calls, on top of SameSite=Lax cookies: a custom
 * header (a cross-site form cannot set it) and, when the browser sends one, an Origin
 * that is our own. It applies to every unsafe method on every path, not only to paths
 * spelled `/api/`: no spelling of a path can then reach a handler unguarded.
 */
/**
 * Paths a third party posts to without a session, authenticated by something else than a
 * cookie: Twilio's signed webhook and the e-mail's unsubscribe link (its token). The guard
 * protects cookie-authenticated calls, which these are not.
 */
export const CROSS_SITE_EXEMPT_PATHS = new Set(['/api/public/messages/sms-inbound', '/api/public/messages/unsubscribe']);

export async function crossSiteGuard(ctx: Context, next: Next): Promise<void> {
  if (!SAFE_METHODS.has(ctx.method) && !CROSS_SITE_EXEMPT_PATHS.has(ctx.path)) {
    if (ctx.get(CSRF_HEADER) !== '1') throw new ForbiddenError('Cross-site request refused');
    const origin = ctx.get('origin');
    if (origin) {
      // Scheme, host and port: https://host:port is another origin than http://host:port.
      let sender: URL;
      try {
        sender = new URL(origin);
      } catch {
        throw new ForbiddenError('Cross-site request refused');
      }
      if (sender.host !== ctx.host || sender.protocol !== `${ctx.protocol}:`) throw new ForbiddenError('Cross-site request refused');
    }
  }
  await next();
}
