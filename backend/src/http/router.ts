import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context, Middleware, Next } from 'koa';
import { z } from 'zod';
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError } from '../shared/errors.ts';
import { RecentlyUsed } from '../shared/recently-used.ts';
import {
  hasPermission,
  type Permission,
  SESSION_ENDED_MESSAGES,
  SESSION_ENDED_REASONS,
  type SessionEndedReason,
} from '@crm/projections/contract';
import type { FeatureKey } from '@crm/projections/platform';
import { loadUserPrincipal, type Principal, type UserPrincipal } from './auth.ts';
import { isDatabaseUnavailable } from '@crm/projections/db/unavailable';
import { HTTP_STATUS_OF } from './problem.ts';
import { bodyFieldsCheck, noBodyFieldsCheck } from './body-fields.ts';
import { queryFieldsCheck } from './query-fields.ts';
import { idempotencyKeyOf, IdempotencyStore } from './idempotency.ts';
import { routeStatuses } from './statuses.ts';
import { sessionPrincipalOf, type SessionData } from './session-store.ts';

/** Who may call a route. Every route must name one: the router's signature demands it. */
export type Access =
  | { kind: 'public' }
  | { kind: 'superadmin' }
  /** Any signed-in user of an instance. */
  | { kind: 'user' }
  | { kind: 'permission'; permission: Permission }
  /** Role admin of the instance (or the super admin, when `allowSuperAdmin`). */
  | { kind: 'admin'; allowSuperAdmin?: boolean };

export const access = {
  public: { kind: 'public' } as Access,
  superAdmin: { kind: 'superadmin' } as Access,
  signedIn: { kind: 'user' } as Access,
  can: (permission: Permission): Access => ({ kind: 'permission', permission }),
  admin: { kind: 'admin' } as Access,
};

/**
 * What the API document (GET /api/openapi.json) says of a route. The schemas are the very
 * ones the handler parses its input with and answers with, so the document cannot drift.
 */
export interface RouteDoc {
  summary: string;
  /** The slice it belongs to (the document's tag). */
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** The path parameters' schema (an object by name), when more than any text is taken. */
  params?: z.ZodType;
  response?: z.ZodType;
  /** The success status, 200 unless said (201 for creates, 204 for no content). */
  status?: number;
  /**
   * Every other status the route itself can answer, with when (a 409 of its own, a 401 of a
   * failed sign-in, a 200 beside its 201): the router's generic ones are added by statuses.ts.
   */
  answers?: Partial<Record<number, string>>;
  /** Content type of a non-JSON success answer (e.g. text/csv). */
  produces?: string;
}

export interface RouteInfo {
  method: string;
  path: string;
  access: Access;
  feature?: FeatureKey;
  doc?: RouteDoc;
  /**
   * The route takes a form post (a mail client's one-click unsubscribe, a text-message
   * provider's webhook), not JSON; every other write refuses a body that is not JSON.
   */
  takesForm?: true;
}

/**
 * A write whose body is not JSON is a 415: the JSON parser leaves any other body unread, so
 * a PUT of text or a form would otherwise be answered 2xx with nothing of it stored.
 */
function refuseBodyNotJson(ctx: Context): void {
  const hasBody = ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length') || 0) > 0;
  if (hasBody && !ctx.is('application/json', '+json')) ctx.throw(415);
}

export interface ApiState {
  principal?: Principal;
  requestId: string;
  /** Set when this request found its session ended by the server (a lock, a closed CRM): why. */
  sessionEnded?: SessionEndedReason;
}

export type ApiContext = Context & { state: ApiState; params: Record<string, string> };
export type ApiHandler = (ctx: ApiContext) => Promise<void>;

export interface RouteOptions {
  /** The route's path names an instance by a literal (the /api/maven/… family). */
  pathInstance?: string;
  /**
   * The instance feature the route belongs to: while the instance has it off, the route
   * answers 404 to the instance's users, as if it did not exist.
   */
  feature?: FeatureKey;
  doc?: RouteDoc;
  /** The route takes a form post, not JSON (see RouteInfo). */
  takesForm?: true;
}

/** What a route of a feature the instance has switched off answers. */
export class FeatureOffError extends NotFoundError {
  constructor() {
    super('This feature is not enabled for this CRM');
  }
}

/** Whose idempotency keys a request's key is among: the signed-in caller (null on public routes). */
function idempotencyScope(principal: Principal | undefined): string | null {
  if (!principal) return null;
  return principal.kind === 'superadmin' ? `superadmin:${principal.superAdminId}` : `user:${principal.instance.id}:${principal.userId}`;
}

/** The user principal a guarded route runs with; throws if the route was not user-guarded. */
export function userOf(ctx: ApiContext): UserPrincipal {
  const principal = ctx.state.principal;
  if (principal?.kind !== 'user') throw new UnauthorizedError();
  return principal;
}

/** The status an error thrown past a route becomes (as problem.ts answers it); 500 when none. */
function statusOfError(error: unknown): number {
  if (isDatabaseUnavailable(error)) return 503;
  const status =
    error instanceof AppError
      ? HTTP_STATUS_OF[error.kind].status
      : ((error as { status?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode);
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
}

/**
 * Under the tests: a route answering a status its API document does not list fails the
 * request with a 500 naming the route and the status, so a test that reaches it goes red.
 */
function documentedStatusesOnly(route: Pick<RouteInfo, 'method' | 'path' | 'access' | 'doc'>): Middleware {
  const documented = routeStatuses(route);
  const refuse = (status: number) =>
    new Error(`${route.method} ${route.path} answered ${status}, which its API document does not list (RouteDoc.answers)`);
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const status = statusOfError(error);
      if (status !== 500 && !documented.has(status)) throw refuse(status);
      throw error;
    }
    if (!documented.has(ctx.status)) throw refuse(ctx.status);
  };
}

/** Requests whose routes are remembered (a made-up path is remembered too: when full, the least recently used is forgotten). */
const MATCHES_REMEMBERED = 2_000;
/** Longer paths are matched each time and never remembered. */
const REMEMBERED_PATH_LENGTH = 200;

type RouteMatch = ReturnType<Router['match']>;

/**
 * Remembers which routes a method and path match. @koa/router tests the request's path
 * against every route's regular expression, one after another, on every request: with the
 * API's few hundred routes that was the largest cost of a short read of our own besides the
 * socket writes (8 % of its CPU in a profile of the customer list). The routes are fixed once
 * registered, so the answer for a method and path never changes; registering another route
 * forgets every answer. Each caller gets arrays of its own (the router adds to them).
 */
function rememberMatches(router: Router): void {
  const match = router.match.bind(router);
  const remembered = new RecentlyUsed<string, RouteMatch>(MATCHES_REMEMBERED);
  let routeCount = router.stack.length;
  router.match = (path: string, method: string): RouteMatch => {
    if (router.stack.length !== routeCount) {
      remembered.clear();
      routeCount = router.stack.length;
    }
    const key = `${method} ${path}`;
    let found = remembered.get(key);
    if (found === undefined) {
      found = match(path, method);
      if (path.length <= REMEMBERED_PATH_LENGTH) remembered.set(key, found);
    }
    return { path: [...found.path], pathAndMethod: [...found.pathAndMethod], route: found.route };
  };
}

/**
 * @koa/router behind a guard that every route passes through: authentication, the
 * instance named in the path, role and permission, all checked on the server.
 */
export class ApiRouter {
  /**
   * Case-sensitive: `/API/...` or `/Api/...` is no route of ours (a 404 problem), so no
   * spelling of a path reaches a handler past a rule that looks for `/api/`. Parameters
   * (an instance's subdomain) are compared case-insensitively where it matters.
   */
  readonly router = new Router({ sensitive: true });
  readonly routes: RouteInfo[] = [];
  private readonly idempotency: IdempotencyStore;

  /**
   * `checkResponses` (on under vitest): every answer of a route whose doc names a response
   * schema is parsed with it, and one that does not fit is a 500 naming the route, so the
   * tests prove that the server answers with the contract the screens parse.
   */
  constructor(
    private readonly knex: Knex,
    private readonly options: { checkResponses?: boolean } = {},
  ) {
    this.idempotency = new IdempotencyStore(knex);
    rememberMatches(this.router);
  }

  get(path: string, access: Access, handler: ApiHandler, options?: RouteOptions) {
    this.add('GET', path, access, handler, options);
  }
  post(path: string, access: Access, handler: ApiHandler, options?: RouteOptions) {
    this.add('POST', path, access, handler, options);
  }
  put(path: string, access: Access, handler: ApiHandler, options?: RouteOptions) {
    this.add('PUT', path, access, handler, options);
  }
  patch(path: string, access: Access, handler: ApiHandler, options?: RouteOptions) {
    this.add('PATCH', path, access, handler, options);
  }
  delete(path: string, access: Access, handler: ApiHandler, options?: RouteOptions) {
    this.add('DELETE', path, access, handler, options);
  }

  private add(method: string, path: string, routeAccess: Access, handler: ApiHandler, options: RouteOptions = {}) {
    this.routes.push({
      method,
      path,
      access: routeAccess,
      ...(options.feature ? { feature: options.feature } : {}),
      ...(options.doc ? { doc: options.doc } : {}),
      ...(options.takesForm ? { takesForm: true as const } : {}),
    });
    const guard = this.guard(routeAccess, options);
    const response = this.options.checkResponses ? options.doc?.response : undefined;
    // A JSON body is parsed for every method; a write route that declares none takes no fields.
    const checkBody = options.doc?.body ? bodyFieldsCheck(options.doc.body) : method === 'GET' ? null : noBodyFieldsCheck;
    const checkQuery = queryFieldsCheck(options.doc?.query);
    const refuseBody = method === 'GET' || options.takesForm ? null : refuseBodyNotJson;
    const execute = async (ctx: Context) => {
      refuseBody?.(ctx);
      checkQuery(ctx.query);
      checkBody?.((ctx.request as { body?: unknown }).body);
      await handler(ctx as ApiContext);
      // A body PostgreSQL built as JSON text (the audit page) is checked as the JSON it is.
      const body: unknown = typeof ctx.body === 'string' && response && ctx.response.is('json') ? JSON.parse(ctx.body) : ctx.body;
      if (response && ctx.status < 300 && body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) {
        const checked = response.safeParse(body);
        if (!checked.success) throw new Error(`${method} ${path} answered outside its response schema: ${z.prettifyError(checked.error)}`);
      }
    };
    const run: Middleware = async (ctx) => {
      // A write with an Idempotency-Key runs once per key and caller (see idempotency.ts).
      const key = method === 'GET' ? null : idempotencyKeyOf(ctx);
      const scope = idempotencyScope((ctx as ApiContext).state.principal);
      if (key === null || scope === null) return await execute(ctx);
      await this.idempotency.run(ctx, scope, key, () => execute(ctx));
    };
    const stack = [guard, run];
    if (this.options.checkResponses) stack.unshift(documentedStatusesOnly({ method, path, access: routeAccess, doc: options.doc }));
    this.router.register(path, [method], stack);
  }

  private guard(routeAccess: Access, options: RouteOptions): Middleware {
    return async (ctx: Context, next: Next) => {
      const apiCtx = ctx as ApiContext;
      if (routeAccess.kind === 'public') return next();
      const principal = await this.resolvePrincipal(apiCtx);
      if (!principal) {
        const ended = apiCtx.state.sessionEnded;
        throw ended ? new UnauthorizedError(SESSION_ENDED_MESSAGES[ended], { reason: ended }) : new UnauthorizedError();
      }
      apiCtx.state.principal = principal;
      if (routeAccess.kind === 'superadmin') {
        if (principal.kind !== 'superadmin') throw new ForbiddenError();
        return next();
      }
      if (principal.kind === 'superadmin') {
        if (routeAccess.kind === 'admin' && routeAccess.allowSuperAdmin) return next();
        throw new ForbiddenError('Sign in to the instance to do this');
      }
      // An instance named in the path must be the session's own: anything else does not exist.
      const named = options.pathInstance ?? apiCtx.params.instance;
      if (named !== undefined && named.toLowerCase() !== principal.instance.subdomain) throw new NotFoundError();
      if (options.feature && !principal.instance.features[options.feature]) throw new FeatureOffError();
      if (routeAccess.kind === 'admin' && principal.role !== 'admin') throw new ForbiddenError();
      if (routeAccess.kind === 'permission' && !hasPermission(principal, routeAccess.permission)) throw new ForbiddenError();
      return next();
    };
  }

  /**
   * Who the request's session belongs to, checked as the guard checks it (a locked user or a
   * closed instance ends the session); null when nobody. For public routes that answer either way.
   */
  async resolvePrincipal(ctx: ApiContext): Promise<Principal | null> {
    const session = ctx.session as (Partial<SessionData> & { populated?: boolean; ended?: unknown }) | null;
    if (!session?.kind) {
      // A session the server ended, left as a note of why: said once, then gone.
      if (session && SESSION_ENDED_REASONS.includes(session.ended as SessionEndedReason)) {
        ctx.state.sessionEnded = session.ended as SessionEndedReason;
        ctx.session = null;
      }
      return null;
    }
    if (session.kind === 'superadmin' && session.superAdminId) {
      return { kind: 'superadmin', superAdminId: session.superAdminId };
    }
    if (session.kind === 'user' && session.userId && session.instanceId) {
      // Loaded with the session in the same query when it could be (session-store.ts).
      const loaded = sessionPrincipalOf(ctx.state as unknown as Record<string, unknown>, session.userId, session.instanceId);
      const principal = loaded ? loaded.principal : await loadUserPrincipal(this.knex, session.userId, session.instanceId);
      if (!principal || principal.isLocked || !principal.instance.isActive) {
        ctx.session = null;
        ctx.state.sessionEnded = !principal ? 'account-removed' : !principal.instance.isActive ? 'instance-closed' : 'account-locked';
        return null;
      }
      return principal;
    }
    return null;
  }
}
